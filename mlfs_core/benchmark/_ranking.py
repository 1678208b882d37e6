"""Ranking the compared methods: average ranks, Friedman/Nemenyi, CD diagrams."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..analysis import (
    budget_column,
    dataset_means,
    friedman_nemenyi,
    rank_table,
    select,
)
from ..analysis.stats import SUMMARY_COLUMNS
from ..columns import DATASET, MEAN, METHOD, METRIC, STD, VALUE
from ..plots import cd_diagram


def rank_methods(
    results: pd.DataFrame,
    methods: Sequence[str],
    *,
    title: str = "",
    alpha: float = 0.05,
    figures: Sequence[str] | None = None,
):
    """Average ranks, Friedman/Nemenyi per metric and a CD diagram per metric.

    Each method's value on a dataset is its mean over budgets of the means
    over folds (:func:`mlfs_core.analysis.dataset_means`); only datasets on
    which every method has a value take part.

    Parameters
    ----------
    results : DataFrame
        Tidy results (``dataset, method, budget, fold, metric, value``).
    methods : sequence of str
        The methods to rank.
    title : str
        Prefix of the figures' titles.
    alpha : float, default=0.05
        Significance level of the critical difference.
    figures : sequence of str, optional
        The metrics to draw a diagram of (default every metric).

    Returns
    -------
    (DataFrame, DataFrame, dict)
        Average ranks (``metric, method, mean, std, n_datasets``), the
        Friedman table (one row per metric) and metric -> CD figure. A metric
        with fewer than 2 complete datasets is left out.
    """
    means = dataset_means(results[results[METHOD].isin(list(methods))])
    rank_rows, test_rows, drawn = [], [], {}
    for metric, sub in means.groupby(METRIC, sort=False):
        table = sub.rename(columns={MEAN: VALUE})[[DATASET, METHOD, VALUE]]
        complete = table.groupby(DATASET)[METHOD].transform("nunique") == len(methods)
        table = table[complete]
        if table[DATASET].nunique() < 2:
            continue
        res = friedman_nemenyi(select(table, metric=metric), alpha=alpha)
        ranks = res.ranks
        for m, row in ranks.iterrows():
            rank_rows.append(
                {
                    METRIC: metric,
                    METHOD: m,
                    MEAN: float(row[MEAN]),
                    STD: float(row[STD]),
                    "n_datasets": res.n_datasets,
                }
            )
        test_rows.append({METRIC: metric, **res.summary(), "best": ranks.index[0]})
        if figures is None or metric in figures:
            label = f"{title}: {metric}" if title else metric
            drawn[metric] = cd_diagram(ranks[MEAN], res.cd, title=label)
    rank_cols = [METRIC, METHOD, MEAN, STD, "n_datasets"]
    test_cols = [METRIC, *SUMMARY_COLUMNS, "best"]
    return (
        pd.DataFrame(rank_rows, columns=rank_cols),
        pd.DataFrame(test_rows, columns=test_cols),
        drawn,
    )


def ranks_by_budget(results: pd.DataFrame, metric: str) -> pd.DataFrame:
    if metric not in set(results[METRIC]):
        return pd.DataFrame()
    return rank_table(select(results, metric=metric, by=[budget_column(results)]))
