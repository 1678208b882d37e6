"""Average ranks of methods across datasets (Tables 4 and 5 of paper 000).

For each dataset (and, optionally, each budget) the methods are ranked by the
metric, 1 = best, ties sharing the average of the ranks they span; the mean
and the population standard deviation of each method's rank over the datasets
are reported. Only complete blocks are ranked: a dataset on which some method
has no value is left out of that budget's ranking (a method that could not
finish on a dataset would otherwise look better or worse by accident).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..columns import (
    BUDGET,
    BUDGET_PCT,
    DATASET,
    MEAN,
    METHOD,
    METRIC,
    RANK,
    STD,
    VALUE,
)

BEST = "best"
N_DATASETS = "n_datasets"


def method_blocks(table: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Mean value per block and method: rows (by..., dataset), columns methods.

    Rows with a missing method are dropped (only complete blocks are ranked).
    """
    keys = [*by, DATASET]
    means = table.groupby([*keys, METHOD], sort=True)[VALUE].mean()
    wide = means.unstack(METHOD)
    return wide.dropna(axis=0, how="any")


def dataset_ranks(
    table: pd.DataFrame, *, higher_is_better: bool = True, by: Sequence[str] = ()
) -> pd.DataFrame:
    """Rank the methods within each dataset (and each ``by`` group).

    Parameters
    ----------
    table : DataFrame
        Columns ``dataset, method, value`` plus the ``by`` columns. Several
        rows per (dataset, method) (folds, repeats) are averaged first.
    higher_is_better : bool, default=True
        Direction of ``value``.
    by : sequence of str
        Extra grouping columns, e.g. ``["budget_pct"]``.

    Returns
    -------
    DataFrame
        Long form: the ``by`` columns, ``dataset, method, rank``.
    """
    by = list(by)
    wide = method_blocks(table, by)
    if wide.empty:
        return pd.DataFrame(columns=[*by, DATASET, METHOD, RANK])
    values = wide.to_numpy(dtype=float)
    from scipy.stats import (
        rankdata,  # imported here: scipy.stats costs ~1 s at start-up
    )

    ranks = rankdata(-values if higher_is_better else values, axis=1, method="average")
    out = pd.DataFrame(ranks, index=wide.index, columns=wide.columns)
    out = out.stack().rename(RANK).reset_index()
    return out[[*by, DATASET, METHOD, RANK]]


def average_ranks(
    table: pd.DataFrame, *, higher_is_better: bool = True, by: Sequence[str] = ()
) -> pd.DataFrame:
    """Mean and population std of each method's rank over the datasets.

    Parameters
    ----------
    table : DataFrame
        Columns ``dataset, method, value`` (plus ``by`` columns); repeated
        rows per (dataset, method) are averaged before ranking.
    higher_is_better : bool, default=True
        Direction of ``value``: rank 1 goes to the highest value if True.
    by : sequence of str
        Extra grouping columns (e.g. a budget); each group is ranked apart.

    Returns
    -------
    DataFrame
        Indexed by method (or by ``(*by, method)``), columns ``mean, std``
        (population std, ddof = 0), sorted by mean within each group.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["a", "a", "b", "b"],
    ...                   "method": ["X", "Y", "X", "Y"],
    ...                   "value": [0.9, 0.8, 0.5, 0.5]})
    >>> average_ranks(t).to_dict("index")
    {'X': {'mean': 1.25, 'std': 0.25}, 'Y': {'mean': 1.75, 'std': 0.25}}
    """
    by = list(by)
    ranks = dataset_ranks(table, higher_is_better=higher_is_better, by=by)
    out = _summarize(ranks, by)[[MEAN, STD]]
    return out.sort_values([*by, MEAN], kind="stable")


def _summarize(ranks: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Mean, population std and count of the ranks per (by..., method)."""
    grouped = ranks.groupby([*by, METHOD], sort=True)[RANK]
    return pd.DataFrame(
        {MEAN: grouped.mean(), STD: grouped.std(ddof=0), N_DATASETS: grouped.size()}
    )


def rank_table(
    results: pd.DataFrame,
    *,
    metric: str,
    higher_is_better: bool,
    by: str | None = None,
    reference_methods: Sequence[str] = ("AF",),
) -> pd.DataFrame:
    """Average rank per (budget, method) across datasets, best per budget flagged.

    Parameters
    ----------
    results : DataFrame
        The runner's tidy results (``dataset, method, budget, budget_pct,
        fold, repeat, metric, value``).
    metric : str
        Metric to rank by.
    higher_is_better : bool
        Direction of ``metric`` (see :data:`mlfs_core.evaluation.METRICS`).
    by : str, optional
        Budget column; default ``budget_pct`` when the results carry
        percentages, else ``budget``.
    reference_methods : sequence of str
        Methods evaluated at one budget only (all features, ``AF``) that are
        ranked against the others at every budget, as in Table 5.

    Returns
    -------
    DataFrame
        Columns ``<by>, method, mean, std, n_datasets, best``; ``best`` marks
        the lowest mean rank of each budget (all tied minima).
    """
    by = by or budget_column(results)
    table = broadcast_reference(
        results[results[METRIC] == metric], by, reference_methods
    )
    ranks = dataset_ranks(table, higher_is_better=higher_is_better, by=[by])
    out = _summarize(ranks, [by]).reset_index()
    best = out.groupby(by)[MEAN].transform("min")
    out[BEST] = np.isclose(out[MEAN], best)
    return out


def budget_column(results: pd.DataFrame) -> str:
    """``budget_pct`` if every result carries a budget percentage, else ``budget``.

    Count budgets (protocol B) leave ``budget_pct`` empty except on AF's rows
    (100 %), so they are compared by ``budget``.
    """
    if BUDGET_PCT in results and len(results) and results[BUDGET_PCT].notna().all():
        return BUDGET_PCT
    return BUDGET


def broadcast_reference(
    table: pd.DataFrame, by: str, reference_methods: Sequence[str]
) -> pd.DataFrame:
    """Copy the rows of single-budget reference methods (AF) to every other budget.

    Rows of the reference methods are repeated with ``by`` set to each budget
    value the other methods have; their own budget value is dropped unless
    another method also has it.
    """
    is_ref = table[METHOD].isin(list(reference_methods))
    if not is_ref.any():
        return table
    others = table[~is_ref]
    budgets = others[by].dropna().unique()
    if budgets.size == 0:
        return table
    ref = table[is_ref]
    copies = [ref.assign(**{by: b}) for b in budgets]
    return pd.concat([others, *copies], ignore_index=True)
