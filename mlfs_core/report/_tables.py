"""The analysis tables of an experiment's output folder.

:func:`analysis_tables` computes, from an
:class:`~mlfs_core.evaluation.ExperimentResult`, the average ranks and
Friedman tests per metric and budget, the metric-vs-budget curves, the
dataset means, the Kuncheva similarity of the rankings and, for a dataset
with a planted truth, how much of it the rankings recover
(:mod:`mlfs_core.analysis` computes each).
"""

from __future__ import annotations

import pandas as pd

from ..analysis import (
    all_features_references,
    budget_column,
    dataset_means,
    friedman_by_budget,
    load_planted_truth,
    metric_curves,
    rank_table,
    recovery_table,
    select,
    similarity_matrix,
)
from ..columns import DATASET, METHOD, METRIC
from ..evaluation.config import ExperimentConfig, middle_budget
from ..evaluation.runner import ExperimentResult
from ..evaluation.runner.plan.prepare import SAMPLE_NAME, resolve_path


def analysis_tables(result: ExperimentResult) -> dict[str, pd.DataFrame]:
    """Average ranks, Friedman tests, curves, dataset means, similarity, recovery.

    Returns
    -------
    dict of str to DataFrame
        ``ranks`` and ``friedman`` (every metric, with a ``metric`` column),
        ``curves``, ``dataset_means``, ``similarity`` (Kuncheva at the middle
        budget) and, when a dataset has a ``planted_truth.json``, ``recovery``.
    """
    res = result.results
    by = [budget_column(res)]
    ranks, tests = [], []
    for metric in pd.unique(res[METRIC]):
        chosen = select(res, metric=metric, by=by)
        ranks.append(rank_table(chosen).assign(metric=metric))
        tests.append(friedman_by_budget(chosen).assign(metric=metric))
    tables = {
        "ranks": pd.concat(ranks, ignore_index=True),
        "friedman": pd.concat(tests, ignore_index=True),
        "curves": curves_table(res),
        "dataset_means": dataset_means(res),
        "similarity": _similarity(result),
    }
    recovery = _recovery(result)
    if recovery is not None:
        tables["recovery"] = recovery
    return tables


def curves_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`~mlfs_core.analysis.metric_curves` with a ``lower``/``upper`` band.

    ``lower = mean - std`` and ``upper = mean + std``: one population
    standard deviation of the ``n_runs`` values (folds x repeats) around
    their mean, the band a metric-vs-budget plot draws. With a single run
    (a train/test split and a deterministic method) the band is the mean.

    Examples
    --------
    >>> res = pd.DataFrame({"dataset": "d", "method": "M", "metric": "m",
    ...                     "budget": 1, "value": [0.2, 0.4]})
    >>> curves_table(res)[["mean", "lower", "upper"]].round(2).values.tolist()
    [[0.3, 0.2, 0.4]]
    """
    by = [budget_column(results)]
    curves = pd.concat(
        [
            metric_curves(
                select(results, metric=m, by=by, reference_methods=(), missing="keep")
            )
            for m in pd.unique(results[METRIC])
        ],
        ignore_index=True,
    )
    keys = [DATASET, METHOD, METRIC, by[0]]
    curves = curves.sort_values(keys, kind="stable", ignore_index=True)
    position = list(curves.columns).index("std") + 1
    curves.insert(position, "lower", curves["mean"] - curves["std"])
    curves.insert(position + 1, "upper", curves["mean"] + curves["std"])
    return curves


def _similarity(result: ExperimentResult) -> pd.DataFrame:
    """Kuncheva matrix at the middle budget (50 % for protocol A)."""
    protocol = result.config.protocol
    middle = middle_budget(protocol)
    if protocol.budget_unit == "percent":
        return similarity_matrix(result.selections, budget_pct=middle)
    return similarity_matrix(result.selections, budget=int(middle))


def _all_features_labels(config: ExperimentConfig) -> list[str]:
    """Labels of the config's methods registered with ``reference="all"``."""
    keeps_all = set(all_features_references(None))
    return [m.display for m in config.methods if m.name in keeps_all]


def _recovery(result: ExperimentResult) -> pd.DataFrame | None:
    frames = []
    for spec in result.config.datasets:
        path = getattr(spec, "path", None)
        if path is None:
            continue
        truth_file = (
            resolve_path(path, result.config.base_dir).parent / "planted_truth.json"
        )
        if not truth_file.is_file():
            continue
        name = spec.name or (SAMPLE_NAME if path == SAMPLE_NAME else None)
        sel = result.selections
        # an all-features baseline's order is no ranking
        sel = sel[~sel[METHOD].isin(_all_features_labels(result.config))]
        sel = sel[sel[DATASET] == name] if name else sel
        frames.append(recovery_table(sel, load_planted_truth(truth_file)))
    return pd.concat(frames, ignore_index=True) if frames else None
