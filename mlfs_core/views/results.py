"""What the analysis pages show of a results table: blocks, tests, curve bands.

Each function takes the tidy results table of a run
(:func:`~mlfs_core.evaluation.read_results`) and the page's choices (a metric,
methods, a budget) and returns the table or figure data the page draws. The
rules a page would otherwise decide on its own are here, written once:

- a metric the registry does not know (an uploaded table's) counts as
  higher-is-better (:func:`metric_direction`);
- the post-hoc tests run at :data:`POSTHOC_ALPHA`;
- a curve's band is the ``lower``/``upper`` of the run's ``curves.csv`` where
  it has them, else mean ± std over folds and repeats (:func:`curve_bands`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis import (
    FriedmanResult,
    Selection,
    budget_column,
    control_comparisons,
    dataset_means,
    display_table,
    friedman_nemenyi,
    metric_curves,
    nemenyi_pvalues,
    select,
    wilcoxon_holm,
)
from ..columns import DATASET, MEAN, METHOD, METRIC, STD
from ..selectors import reference_methods

POSTHOC_ALPHA = 0.05
"""Significance level of the Average ranks page's Friedman and post-hoc tests."""
PAIRWISE_TESTS = ("wilcoxon-holm", "nemenyi")
"""The pairwise post-hoc tests the Average ranks page offers."""
BAND_COLUMNS = ("lower", "upper")
"""The columns of a curve's band."""


def metric_direction(metric: str) -> bool:
    """Whether higher values of ``metric`` are better.

    Parameters
    ----------
    metric : str
        A metric name.

    Returns
    -------
    bool
        The registry's direction (:func:`~mlfs_core.evaluation.higher_is_better`);
        a name the registry does not know (an uploaded CSV's metric) counts
        as higher-is-better, and the app's metric selector says so beside it.

    Examples
    --------
    >>> metric_direction("hamming_loss"), metric_direction("my_score")
    (False, True)
    """
    better = known_direction(metric)
    return True if better is None else better


def known_direction(metric: str) -> bool | None:
    """The registry's direction of ``metric``, None for a name it does not know.

    Examples
    --------
    >>> known_direction("micro_f1"), known_direction("my_score")
    (True, None)
    """
    from ..evaluation.metrics import higher_is_better

    try:
        return higher_is_better(metric)
    except ValueError:
        return None


def metric_label(metric: str) -> str:
    """The metric as a page's metric selector names it, with its direction.

    Examples
    --------
    >>> metric_label("hamming_loss")
    'hamming_loss (lower is better)'
    >>> metric_label("my_score")
    'my_score (unknown metric: ranked as higher is better)'
    """
    better = known_direction(metric)
    if better is None:  # ranked as higher-is-better (metric_direction)
        return f"{metric} (unknown metric: ranked as higher is better)"
    return f"{metric} ({'higher' if better else 'lower'} is better)"


def keeps_all_features() -> tuple[str, ...]:
    """The registered baselines that keep every feature (``reference="all"``).

    A results table holds them once (at 100 %); the analyses set them beside
    every budget as references, and they have no subset of a smaller budget.
    Read from the registry on every call, so a plug-in's baseline counts too.
    """
    return tuple(reference_methods("all"))


def metric_rows(
    table: pd.DataFrame, metric: str, methods: Iterable[str]
) -> pd.DataFrame:
    """The rows of ``table`` for ``metric`` and ``methods``."""
    return table[(table[METRIC] == metric) & table[METHOD].isin(list(methods))]


def block_at_budget(
    table: pd.DataFrame, metric: str, methods: Iterable[str], budget: float
) -> Selection:
    """The block the Friedman and post-hoc tests share: ``methods`` by
    ``metric`` at ``budget``, the all-features baselines beside them.

    Parameters
    ----------
    table : DataFrame
        A tidy results table.
    metric : str
        Its direction by :func:`metric_direction`.
    methods : iterable of str
    budget : float
        A value of the table's budget column.

    Returns
    -------
    Selection
    """
    return select(
        metric_rows(table, metric, methods),
        metric=metric,
        budget=budget,
        higher_is_better=metric_direction(metric),
        reference_methods=keeps_all_features(),
    )


def pairwise_pvalues(
    table: pd.DataFrame,
    metric: str,
    methods: Iterable[str],
    budget: float,
    test: str,
) -> pd.DataFrame:
    """Pairwise p-values of ``methods`` at ``budget`` by ``test``.

    ``test`` is one of :data:`PAIRWISE_TESTS`: ``"wilcoxon-holm"``
    (:func:`~mlfs_core.analysis.wilcoxon_holm`) or ``"nemenyi"``
    (:func:`~mlfs_core.analysis.nemenyi_pvalues`); another name is a
    ``ValueError`` naming the choices.
    """
    tests = {"wilcoxon-holm": wilcoxon_holm, "nemenyi": nemenyi_pvalues}
    if test not in tests:
        raise ValueError(f"test must be one of {sorted(tests)}, not {test!r}")
    return tests[test](block_at_budget(table, metric, methods, budget))


def control_table(
    table: pd.DataFrame,
    metric: str,
    methods: Iterable[str],
    budget: float,
    control: str,
    test: str,
) -> pd.DataFrame:
    """Every method of ``methods`` against ``control`` at ``budget``.

    :func:`~mlfs_core.analysis.control_comparisons` at :data:`POSTHOC_ALPHA`;
    ``test`` is ``"wilcoxon-holm"`` or ``"bonferroni-dunn"``.
    """
    return control_comparisons(
        block_at_budget(table, metric, methods, budget),
        control,
        test=test,
        alpha=POSTHOC_ALPHA,
    )


def friedman_at(
    table: pd.DataFrame, metric: str, methods: Iterable[str], budget: float
) -> FriedmanResult:
    """Friedman test and Nemenyi CD of ``methods`` at ``budget`` (at
    :data:`POSTHOC_ALPHA`; ``ValueError`` with fewer than two datasets)."""
    block = block_at_budget(table, metric, methods, budget)
    return friedman_nemenyi(block, alpha=POSTHOC_ALPHA)


def means_by_dataset(
    table: pd.DataFrame, metric: str, methods: Iterable[str]
) -> pd.DataFrame:
    """Per-dataset mean over budgets: a datasets x methods table for display."""
    means = dataset_means(metric_rows(table, metric, methods), metric=metric)
    return display_table(means, index=DATASET, columns=METHOD)


def read_band(path: str | Path, metric: str) -> pd.DataFrame | None:
    """The rows of ``metric`` in a run's ``curves.csv`` that carry a band.

    Parameters
    ----------
    path : str or Path
        The file (``mlfs experiment --out`` writes the interval there).
    metric : str

    Returns
    -------
    DataFrame or None
        None when the file is missing or unreadable, or has no
        ``lower``/``upper`` or ``metric`` column: the curves then fall back
        to mean ± std (:func:`curve_bands`).
    """
    path = Path(path)
    if not path.is_file():
        return None
    try:
        band = pd.read_csv(path)
    except (ValueError, OSError):
        return None
    if not {*BAND_COLUMNS, METRIC}.issubset(band.columns):
        return None
    return band[band[METRIC] == metric]


def curve_bands(
    table: pd.DataFrame,
    metric: str,
    methods: Iterable[str],
    band: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Mean and spread band per (dataset, method, budget).

    Parameters
    ----------
    table : DataFrame
        A tidy results table.
    metric : str
    methods : iterable of str
    band : DataFrame, optional
        :func:`read_band` of the run's ``curves.csv``.

    Returns
    -------
    DataFrame
        :func:`~mlfs_core.analysis.metric_curves` (every row drawn, each
        baseline at its own budget) with ``lower`` and ``upper``: the
        ``band``'s where it has the curve's keys and a row for the point,
        else mean - std and mean + std (a point ``band`` misses falls back
        alone, its neighbours keep theirs).

    Examples
    --------
    >>> rows = pd.DataFrame({"dataset": "d", "method": "M", "metric": "m",
    ...     "budget": [1, 1], "fold": [0, 1], "value": [0.4, 0.6]})
    >>> curve_bands(rows, "m", ["M"])[["mean", "lower", "upper"]].round(3)
       mean  lower  upper
    0   0.5    0.4    0.6
    """
    rows = metric_rows(table, metric, methods)
    curves = metric_curves(
        select(
            rows,
            metric=metric,
            by=[budget_column(rows)],
            reference_methods=(),  # the baseline at its own budget: drawn flat
            missing="keep",  # curves rank nothing: every row is drawn
        )
    )
    low, high = curves[MEAN] - curves[STD], curves[MEAN] + curves[STD]
    keys = [c for c in (DATASET, METHOD, "budget", "budget_pct") if c in curves]
    if band is None or not set(keys) <= set(band.columns):
        return curves.assign(lower=low, upper=high)
    band = band[[*keys, *BAND_COLUMNS]].drop_duplicates(keys)
    merged = curves.merge(band, on=keys, how="left")
    return merged.assign(
        lower=merged["lower"].fillna(merged[MEAN] - merged[STD]),
        upper=merged["upper"].fillna(merged[MEAN] + merged[STD]),
    )


def similarity_part(full: pd.DataFrame, methods: Iterable[str]) -> pd.DataFrame:
    """The rows and columns of ``methods`` in a similarity matrix of all methods.

    A pair's mean does not depend on the other methods, so the app computes
    the matrix of all methods once per budget and shows a part of it. Empty
    (as :func:`~mlfs_core.analysis.similarity_matrix`) when fewer than two
    of ``methods`` are in it or no pair has a value.
    """
    wanted = set(methods)
    keep = [m for m in full.index if m in wanted]
    part = full.loc[keep, keep]
    off_diagonal = part.to_numpy()[~np.eye(len(keep), dtype=bool)]
    if len(keep) < 2 or np.isnan(off_diagonal).all():
        return pd.DataFrame(dtype=float)
    return part
