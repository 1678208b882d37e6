"""The baselines suite's comparison: ranks, Friedman, the control test, a summary.

Per metric (Demšar 2006): each method's value on a dataset is its mean over
the splits and budgets (:func:`~mlfs_core.analysis.select` with
``over_budgets="mean"``, which refuses a missing value); ranks per dataset
(1 = best in the metric's direction, ties share the mean rank); Friedman's
test; then each baseline against the control (the user's method) by
Bonferroni-Dunn (z = (R_i - R_c) / sqrt(k (k + 1) / (6 N)), two-sided normal
p-value times k - 1; :func:`~mlfs_core.analysis.control_comparisons`) or,
when the preset says so, Nemenyi's all-pairs test read at the control.
"""

from __future__ import annotations

import pandas as pd

from ..columns import DATASET, FOLD, MEAN, METHOD, METRIC, STD, VALUE

_CONTROL_COLUMNS = (
    "metric",
    "method",
    "control",
    "rank",
    "control_rank",
    "statistic",
    "pvalue",
    "pvalue_adjusted",
    "significant",
    "cd",
)
"""The columns of the control table, in order."""


def compare(tables, control: str, preset: str, *, all_figures: bool = True) -> dict:
    """Every metric's comparison of the methods of ``tables`` with ``control``.

    Returns
    -------
    dict
        The :class:`~._baselines.BaselinesResult` fields ``results,
        per_dataset, average_ranks, friedman, control, summary, figures,
        alpha, test``.
    """
    from ..evaluation.config import protocol_preset_spec
    from ..evaluation.outputs import compact_results

    spec = protocol_preset_spec(preset)
    results = compact_results(tables.results)
    ranks, tests, controls, figures = [], [], [], {}
    for metric in tables.config.protocol.metrics:
        one = _one_metric(results, metric, control, spec.control_test, spec.alpha)
        ranks.append(one["ranks"])
        tests.append(one["friedman"])
        controls.append(one["control"])
        if all_figures or not figures:
            figures[metric] = one["figure"]
    control_table = pd.concat(controls, ignore_index=True)[list(_CONTROL_COLUMNS)]
    friedman = pd.DataFrame(tests)
    return {
        "results": results,
        "per_dataset": _per_dataset_table(results),
        "average_ranks": pd.concat(ranks, ignore_index=True),
        "friedman": friedman,
        "control": control_table,
        "summary": _summary_text(control, friedman, control_table, spec),
        "figures": figures,
        "alpha": spec.alpha,
        "test": spec.control_test,
    }


def _one_metric(results, metric, control, test, alpha) -> dict:
    from ..analysis import (
        bonferroni_dunn_cd,
        control_comparisons,
        friedman_nemenyi,
        nemenyi_pvalues,
        select,
    )
    from ..plots import cd_diagram

    selection = select(results, metric=metric, over_budgets="mean", missing="refuse")
    res = friedman_nemenyi(selection, alpha=alpha)
    k, n = res.n_methods, res.n_datasets
    if test == "bonferroni_dunn":
        table = control_comparisons(
            selection, control, test="bonferroni-dunn", alpha=alpha
        )
        cd = bonferroni_dunn_cd(k, n, alpha)
    else:
        p = nemenyi_pvalues(selection)[control].drop(control)
        mean = res.ranks[MEAN]
        table = pd.DataFrame(
            {
                METHOD: p.index,
                "control": control,
                "rank": mean[p.index].to_numpy(),
                "control_rank": float(mean[control]),
                "statistic": (mean[p.index] - mean[control]).to_numpy(),
                "pvalue": p.to_numpy(),
                "pvalue_adjusted": p.to_numpy(),
                "significant": p.to_numpy() <= alpha,
            }
        )
        cd = res.cd
    table.insert(0, METRIC, metric)
    table["cd"] = cd
    ranks = res.ranks[MEAN].rename("rank").rename_axis(METHOD).reset_index()
    ranks.insert(0, METRIC, metric)
    name = "Bonferroni-Dunn" if test == "bonferroni_dunn" else "Nemenyi"
    figure = cd_diagram(res.ranks[MEAN], cd, title=f"{metric} ({name} CD)")
    return {
        "ranks": ranks,
        "friedman": {METRIC: metric, **res.summary(), "cd": cd},
        "control": table,
        "figure": figure,
    }


def _summary_text(control: str, friedman, table, spec) -> str:
    """One paragraph: per metric, whether the Friedman test rejected equal
    ranks, and which baselines differ significantly from ``control`` (better
    or worse, by average rank).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> f = pd.DataFrame({"metric": ["m"], "pvalue": [0.01], "n_datasets": [6],
    ...                   "n_methods": [3]})
    >>> t = pd.DataFrame({"metric": ["m", "m"], "method": ["B", "C"],
    ...                   "rank": [2.5, 2.0], "control_rank": [1.5, 1.5],
    ...                   "significant": [True, False]})
    >>> spec = SimpleNamespace(alpha=0.05, control_test="bonferroni_dunn", name="p")
    >>> _summary_text("A", f, t, spec)  # doctest: +NORMALIZE_WHITESPACE
    'A against 2 baselines on 6 datasets under the preset p (Friedman, then
    Bonferroni-Dunn with A as the control, alpha = 0.05). m: the Friedman test
    rejects equal ranks (p = 0.01); A ranks significantly better than B; no
    significant difference from C.'
    """
    test = "Bonferroni-Dunn" if spec.control_test == "bonferroni_dunn" else "Nemenyi"
    first = friedman.iloc[0]
    parts = [
        f"{control} against {int(first['n_methods']) - 1} baselines on "
        f"{int(first['n_datasets'])} datasets under the preset {spec.name} "
        f"(Friedman, then {test} with {control} as the control, alpha = "
        f"{spec.alpha:g})."
    ]
    for row in friedman.itertuples(index=False):
        parts.append(
            _metric_sentence(row, table[table[METRIC] == row.metric], control, spec)
        )
    return " ".join(parts)


def _metric_sentence(row, rows, control: str, spec) -> str:
    if row.pvalue > spec.alpha:
        return (
            f"{row.metric}: the Friedman test does not reject equal ranks "
            f"(p = {row.pvalue:.3g}), so no difference is significant."
        )
    significant = rows[rows["significant"].astype(bool)]
    better = significant.loc[significant["rank"] > significant["control_rank"], METHOD]
    worse = significant.loc[significant["rank"] < significant["control_rank"], METHOD]
    others = rows.loc[~rows["significant"].astype(bool), METHOD]
    clauses = []
    if len(better):
        clauses.append(f"{control} ranks significantly better than {_names(better)}")
    if len(worse):
        clauses.append(f"significantly worse than {_names(worse)}")
    clauses.append(
        f"no significant difference from {_names(others)}"
        if len(others)
        else "every difference is significant"
    )
    return (
        f"{row.metric}: the Friedman test rejects equal ranks (p = {row.pvalue:.3g}); "
        + "; ".join(clauses)
        + "."
    )


def _names(names) -> str:
    return ", ".join(str(n) for n in names)


def _split_means(results: pd.DataFrame) -> pd.DataFrame:
    """Per dataset, method, metric and split: the mean over budgets.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": "d", "method": "m", "metric": "x",
    ...                   "fold": [0, 0, 1], "budget": [1, 2, 1],
    ...                   "value": [0.2, 0.4, 0.5]})
    >>> _split_means(t)["value"].tolist()
    [0.30000000000000004, 0.5]
    """
    keys = [DATASET, METHOD, METRIC, FOLD]
    return results.groupby(keys, as_index=False, sort=False)[VALUE].mean()


def _per_dataset_table(results: pd.DataFrame) -> pd.DataFrame:
    """``dataset, method, metric, mean, std`` over the splits (:func:`_split_means`)."""
    per_split = _split_means(results)
    keys = [DATASET, METHOD, METRIC]
    grouped = per_split.groupby(keys, sort=False)[VALUE]
    out = grouped.mean().rename(MEAN).to_frame()
    out[STD] = grouped.std(ddof=0)
    return out.reset_index()
