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
from ._select import broadcast_reference, select

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


_SELECTION_DOC = """metric : str, optional
        The metric to rank by; required when ``table`` holds several. Its
        direction is looked up in :data:`mlfs_core.METRICS`.
    budget : optional
        The budget to rank at (a value of ``budget_pct`` when every row has
        one, else of ``budget``); required when ``table`` holds several budgets
        and neither ``over_budgets`` nor a budget column in ``by`` is given.
    over_budgets : {"mean"}, optional
        Rank each method's mean over the budgets instead of one budget.
    higher_is_better : bool, optional
        Direction of ``value``, for a metric the registry does not know or a
        table without a ``metric`` column; contradicting the registry is an
        error. Leaving both ``metric`` and this out (on a table without a
        metric column) is deprecated: higher is then taken as better, with a
        DeprecationWarning."""


def dataset_ranks(
    table: pd.DataFrame,
    *,
    metric: str | None = None,
    budget=None,
    over_budgets: str | None = None,
    higher_is_better: bool | None = None,
    by: Sequence[str] = (),
    reference_methods: Sequence[str] | None = None,
    missing: str = "refuse",
) -> pd.DataFrame:
    """Rank the methods within each dataset (and each ``by`` group).

    Parameters
    ----------
    table : DataFrame
        The tidy results table (or any table with columns ``dataset, method,
        value`` plus the ``by`` columns). Several rows per (dataset, method)
        (folds, repeats) are averaged first.
    {selection}
    by : sequence of str
        Extra grouping columns, e.g. ``["budget_pct"]`` (one ranking per
        budget).
    reference_methods : sequence of str, optional
        Single-budget methods ranked against the others at the chosen budget
        (see :func:`broadcast_reference`); default: the registry's
        all-features baselines.
    missing : {{"refuse", "drop-blocks"}}, default="refuse"
        As in :func:`~mlfs_core.friedman_nemenyi`: a block with a missing value
        is refused, naming the cells, unless ``"drop-blocks"`` leaves it out.

    Returns
    -------
    DataFrame
        Long form: the ``by`` columns, ``dataset, method, rank``.

    Raises
    ------
    ValueError
        If the table holds several metrics or budgets where one is meant (the
        message says what to pass), or the direction is unknown.
    """
    by = list(by)
    chosen = select(
        table,
        metric=metric,
        budget=budget,
        over_budgets=over_budgets,
        higher_is_better=higher_is_better,
        by=by,
        reference_methods=reference_methods,
        missing=missing,
        caller="dataset_ranks",
        suggest_by=True,
    )
    return _ranks(chosen.table, chosen.higher_is_better, by)


def _ranks(table: pd.DataFrame, higher_is_better: bool, by: list[str]) -> pd.DataFrame:
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
    table: pd.DataFrame,
    *,
    metric: str | None = None,
    budget=None,
    over_budgets: str | None = None,
    higher_is_better: bool | None = None,
    by: Sequence[str] = (),
    reference_methods: Sequence[str] | None = None,
    missing: str = "refuse",
) -> pd.DataFrame:
    """Mean and population std of each method's rank over the datasets.

    Parameters
    ----------
    table : DataFrame
        The tidy results table (or any table with columns ``dataset, method,
        value`` plus ``by`` columns); repeated rows per (dataset, method) are
        averaged before ranking.
    {selection}
    by : sequence of str
        Extra grouping columns (e.g. ``["budget_pct"]``); each group is ranked
        apart.
    reference_methods : sequence of str, optional
        Single-budget methods ranked against the others at the chosen budget
        (see :func:`broadcast_reference`); default: the registry's
        all-features baselines.
    missing : {{"refuse", "drop-blocks"}}, default="refuse"
        As in :func:`~mlfs_core.friedman_nemenyi`: a block with a missing value
        is refused, naming the cells, unless ``"drop-blocks"`` leaves it out.

    Returns
    -------
    DataFrame
        Indexed by method (or by ``(*by, method)``), columns ``mean, std``
        (population std, ddof = 0), sorted by mean within each group.

    Raises
    ------
    ValueError
        If the table holds several metrics or budgets where one is meant (the
        message says what to pass), or the direction is unknown.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({{"dataset": ["a", "a", "b", "b"],
    ...                   "method": ["X", "Y", "X", "Y"],
    ...                   "metric": "hamming_loss",
    ...                   "value": [0.1, 0.2, 0.5, 0.5]}})
    >>> average_ranks(t).to_dict("index")
    {{'X': {{'mean': 1.25, 'std': 0.25}}, 'Y': {{'mean': 1.75, 'std': 0.25}}}}
    """
    by = list(by)
    chosen = select(
        table,
        metric=metric,
        budget=budget,
        over_budgets=over_budgets,
        higher_is_better=higher_is_better,
        by=by,
        reference_methods=reference_methods,
        missing=missing,
        caller="average_ranks",
        suggest_by=True,
    )
    ranks = _ranks(chosen.table, chosen.higher_is_better, by)
    out = _summarize(ranks, by)[[MEAN, STD]]
    return out.sort_values([*by, MEAN], kind="stable")


dataset_ranks.__doc__ = dataset_ranks.__doc__.format(selection=_SELECTION_DOC)
average_ranks.__doc__ = average_ranks.__doc__.format(selection=_SELECTION_DOC)


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
    higher_is_better: bool | None = None,
    by: str | None = None,
    reference_methods: Sequence[str] | None = None,
    missing: str = "refuse",
) -> pd.DataFrame:
    """Average rank per (budget, method) across datasets, best per budget flagged.

    Parameters
    ----------
    results : DataFrame
        The runner's tidy results (``dataset, method, budget, budget_pct,
        fold, repeat, metric, value``).
    metric : str
        Metric to rank by.
    higher_is_better : bool, optional
        Direction of ``metric``; default its entry in
        :data:`mlfs_core.METRICS` (needed only for a metric it does not know).
    by : str, optional
        Budget column; default ``budget_pct`` when the results carry
        percentages, else ``budget``.
    reference_methods : sequence of str, optional
        Methods evaluated at one budget only that are ranked against the
        others at every budget (see :func:`broadcast_reference`); default:
        the registry's all-features baselines.
    missing : {"refuse", "drop-blocks"}, default="refuse"
        As in :func:`~mlfs_core.friedman_nemenyi`: a block with a missing value
        is refused, naming the cells, unless ``"drop-blocks"`` leaves it out.

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
    if table.empty:  # no rows of this metric (e.g. an empty panel of methods)
        columns = [by, METHOD, MEAN, STD, N_DATASETS, BEST]
        return pd.DataFrame(columns=columns)
    chosen = select(
        table,
        metric=metric,
        higher_is_better=higher_is_better,
        by=[by],
        reference_methods=(),  # copied to every budget above already
        missing=missing,
        caller="rank_table",
    )
    ranks = _ranks(chosen.table, chosen.higher_is_better, [by])
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
