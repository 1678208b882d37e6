"""Metric-vs-budget curves and per-dataset means over budgets."""

from __future__ import annotations

import pandas as pd

from ..columns import DATASET, MEAN, METHOD, METRIC, STD, VALUE
from ._blocks import budget_column
from ._cells import check_cells, check_options, check_settings
from .ranks import per_budget
from .selection import Selection

_N_RUNS = "n_runs"
_MIN = "min"
_MAX = "max"


def metric_curves(selection: Selection) -> pd.DataFrame:
    """Mean and spread of a metric over folds and repeats, per budget.

    Parameters
    ----------
    selection : Selection
        The results per budget, made by :func:`~mlfs_core.analysis.select`
        with ``by=[<budget column>]``; nothing is ranked, so
        ``missing="keep"`` (every row, unchecked) is accepted, and
        ``reference_methods=()`` keeps the all-features baseline at its own
        budget only.

    Returns
    -------
    DataFrame
        Columns ``dataset, method, metric, <budget column>, mean, std, min,
        max, n_runs`` with std the population std over every (fold, repeat)
        value.

    Examples
    --------
    >>> import pandas as pd
    >>> from mlfs_core.analysis import select
    >>> t = pd.DataFrame({"dataset": "a", "method": "X", "metric": "micro_f1",
    ...                   "budget": [1, 1, 2], "value": [0.2, 0.4, 0.5]})
    >>> curves = metric_curves(select(t, by=["budget"], missing="keep"))
    >>> curves[["budget", "mean", "n_runs"]].to_dict("list")
    {'budget': [1, 2], 'mean': [0.30000000000000004, 0.5], 'n_runs': [2, 1]}
    """
    chosen = per_budget(selection, "metric_curves", ranked=False)
    table = chosen.table
    if METRIC not in table:
        table = table.assign(**{METRIC: chosen.metric})
    return _curves(table, chosen.budget_column)


def _curves(table: pd.DataFrame, by: str) -> pd.DataFrame:
    keys = [DATASET, METHOD, METRIC, by]
    grouped = table.groupby(keys, sort=True)[VALUE]
    out = pd.DataFrame(
        {
            MEAN: grouped.mean(),
            STD: grouped.std(ddof=0),
            _MIN: grouped.min(),
            _MAX: grouped.max(),
            _N_RUNS: grouped.size(),
        }
    )
    return out.reset_index()


def dataset_means(
    results: pd.DataFrame,
    *,
    metric: str | None = None,
    duplicates: str = "refuse",
    mix: str = "refuse",
) -> pd.DataFrame:
    """Per (dataset, method, metric): the mean over budgets of the fold means.

    The mean of a metric over every budget (e.g. k = 1..50 selected
    features), each budget first averaged over folds and repeats: the number
    of each cell of a table of per-dataset results.

    Parameters
    ----------
    results : DataFrame
        The runner's tidy results table (every metric in it, or ``metric``).
    metric : str, optional
        Keep only this metric (default all).
    duplicates : {"refuse", "mean"}, default="refuse"
        A cell holding different values in several rows is refused
        (:class:`~mlfs_core.errors.ConflictingCellsError`) or averaged, as in
        :func:`~mlfs_core.analysis.select`.
    mix : {"refuse", "allow"}, default="refuse"
        A table mixing protocols, classifiers or evaluation settings is
        refused (:class:`~mlfs_core.errors.MixedTableError`) or allowed, as
        in :func:`~mlfs_core.analysis.select`.

    Returns
    -------
    DataFrame
        Columns ``dataset, method, metric, mean, std, n_budgets`` where std is
        the population std of the per-budget means.
    """
    check_options(duplicates, mix, "dataset_means")
    table = results if metric is None else results[results[METRIC] == metric]
    check_settings(table, mix, "dataset_means")
    table = check_cells(table, duplicates, "dataset_means")
    curves = _curves(table, budget_column(results))
    grouped = curves.groupby([DATASET, METHOD, METRIC], sort=True)[MEAN]
    out = pd.DataFrame(
        {MEAN: grouped.mean(), STD: grouped.std(ddof=0), "n_budgets": grouped.size()}
    ).reset_index()
    return out


def display_table(table: pd.DataFrame, *, index: str, columns: str) -> pd.DataFrame:
    """Pivot a long table of ``mean`` values for display (rows ``index``)."""
    return table.pivot(index=index, columns=columns, values=MEAN)
