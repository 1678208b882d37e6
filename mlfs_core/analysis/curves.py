"""Metric-vs-budget curves and per-dataset means over budgets (ATR paper tables)."""

from __future__ import annotations

import pandas as pd

from ..columns import DATASET, MEAN, METHOD, METRIC, STD, VALUE
from .ranks import budget_column

N_RUNS = "n_runs"
MIN = "min"
MAX = "max"


def metric_curves(
    results: pd.DataFrame, *, metric: str | None = None, by: str | None = None
) -> pd.DataFrame:
    """Mean and spread of a metric over folds and repeats, per budget.

    Parameters
    ----------
    results : DataFrame
        The runner's tidy results table.
    metric : str, optional
        Keep only this metric (default all, one curve per metric).
    by : str, optional
        Budget column (default ``budget_pct`` if present, else ``budget``).

    Returns
    -------
    DataFrame
        Columns ``dataset, method, metric, <by>, mean, std, min, max, n_runs``
        with std the population std over every (fold, repeat) value.
    """
    by = by or budget_column(results)
    table = results if metric is None else results[results[METRIC] == metric]
    keys = [DATASET, METHOD, METRIC, by]
    grouped = table.groupby(keys, sort=True)[VALUE]
    out = pd.DataFrame(
        {
            MEAN: grouped.mean(),
            STD: grouped.std(ddof=0),
            MIN: grouped.min(),
            MAX: grouped.max(),
            N_RUNS: grouped.size(),
        }
    )
    return out.reset_index()


def dataset_means(results: pd.DataFrame, *, metric: str | None = None) -> pd.DataFrame:
    """Per (dataset, method, metric): the mean over budgets of the fold means.

    This is the number of each cell of the ATR paper's Tables 3-8 (the mean
    of a metric over k = 1..50 selected features).

    Returns
    -------
    DataFrame
        Columns ``dataset, method, metric, mean, std, n_budgets`` where std is
        the population std of the per-budget means.
    """
    curves = metric_curves(results, metric=metric)
    grouped = curves.groupby([DATASET, METHOD, METRIC], sort=True)[MEAN]
    out = pd.DataFrame(
        {MEAN: grouped.mean(), STD: grouped.std(ddof=0), "n_budgets": grouped.size()}
    ).reset_index()
    return out


def display_table(table: pd.DataFrame, *, index: str, columns: str) -> pd.DataFrame:
    """Pivot a long table of ``mean`` values for display (rows ``index``)."""
    return table.pivot(index=index, columns=columns, values=MEAN)
