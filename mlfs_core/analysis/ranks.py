"""Average ranks of methods across datasets.

For each dataset (and, optionally, each budget) the methods are ranked by the
metric, 1 = best, ties sharing the average of the ranks they span; the mean
and the population standard deviation of each method's rank over the datasets
are reported. Only complete blocks are ranked (see
:func:`~mlfs_core.analysis.select`): a method that could not finish on a
dataset would otherwise look better or worse by accident.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..columns import DATASET, MEAN, METHOD, RANK, STD, VALUE
from .selection import Selection, checked

_BEST = "best"
_N_DATASETS = "n_datasets"


def method_blocks(table: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Mean value per block and method: rows (by..., dataset), columns methods.

    Rows with a missing method are dropped (only complete blocks are ranked).
    """
    keys = [*by, DATASET]
    means = table.groupby([*keys, METHOD], sort=True)[VALUE].mean()
    wide = means.unstack(METHOD)
    return wide.dropna(axis=0, how="any")


def one_block(selection: Selection, caller: str, *, instead: str = "") -> Selection:
    """The checked selection of a test on one block of datasets.

    Refused (``ValueError`` naming ``caller``) when it ranks ``by`` groups
    apart; ``instead`` ends the message with what else to call.
    """
    chosen = checked(selection, caller)
    if chosen.by:
        raise ValueError(
            f"{caller} compares methods on one block of datasets, but the "
            f"selection ranks by={list(chosen.by)!r} apart; select one budget "
            f"(budget=) or the mean over budgets (over_budgets='mean'){instead}"
        )
    return chosen


def complete_block_ranks(
    table: pd.DataFrame, higher_is_better: bool, what: str
) -> tuple[pd.DataFrame, np.ndarray]:
    """The complete blocks of ``table`` (datasets x methods) and the ranks in each.

    Returns the wide table of :func:`method_blocks` and the methods' ranks
    within each dataset (1 = best, ties averaged), row by row. Fewer than 2
    complete datasets or 2 methods is a ``ValueError`` naming ``what``.
    """
    wide = method_blocks(table, [])
    n, m = wide.shape
    if n < 2 or m < 2:
        raise ValueError(
            f"{what} needs at least 2 complete datasets (every method with a "
            f"value) and 2 methods, got {n} and {m}"
        )
    values = wide.to_numpy(dtype=float)
    from scipy.stats import rankdata  # lazily: scipy.stats costs ~1 s at start-up

    return wide, rankdata(-values if higher_is_better else values, axis=1)


def dataset_ranks(selection: Selection) -> pd.DataFrame:
    """Rank the methods within each dataset (and each ``by`` group).

    Parameters
    ----------
    selection : Selection
        The block to rank, made by :func:`~mlfs_core.analysis.select`; several
        rows per (dataset, method) (folds, repeats) are averaged first.

    Returns
    -------
    DataFrame
        Long form: the selection's ``by`` columns, ``dataset, method, rank``.
    """
    chosen = checked(selection, "dataset_ranks")
    return _ranks(chosen.table, chosen.higher_is_better, list(chosen.by))


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


def average_ranks(selection: Selection) -> pd.DataFrame:
    """Mean and population std of each method's rank over the datasets.

    Parameters
    ----------
    selection : Selection
        The block to rank, made by :func:`~mlfs_core.analysis.select`;
        repeated rows per (dataset, method) are averaged before ranking, and
        each ``by`` group is ranked apart.

    Returns
    -------
    DataFrame
        Indexed by method (or by ``(*by, method)``), columns ``mean, std``
        (population std, ddof = 0), sorted by mean within each group.

    Examples
    --------
    >>> import pandas as pd
    >>> from mlfs_core.analysis import select
    >>> t = pd.DataFrame({"dataset": ["a", "a", "b", "b"],
    ...                   "method": ["X", "Y", "X", "Y"],
    ...                   "metric": "hamming_loss",
    ...                   "value": [0.1, 0.2, 0.5, 0.5]})
    >>> average_ranks(select(t)).to_dict("index")
    {'X': {'mean': 1.25, 'std': 0.25}, 'Y': {'mean': 1.75, 'std': 0.25}}
    """
    chosen = checked(selection, "average_ranks")
    by = list(chosen.by)
    ranks = _ranks(chosen.table, chosen.higher_is_better, by)
    out = _summarize(ranks, by)[[MEAN, STD]]
    return out.sort_values([*by, MEAN], kind="stable")


def _summarize(ranks: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Mean, population std and count of the ranks per (by..., method)."""
    grouped = ranks.groupby([*by, METHOD], sort=True)[RANK]
    return pd.DataFrame(
        {MEAN: grouped.mean(), STD: grouped.std(ddof=0), _N_DATASETS: grouped.size()}
    )


def per_budget(selection: Selection, caller: str, *, ranked: bool = True) -> Selection:
    """``selection`` if it groups each budget apart, else a ValueError saying how.

    ``ranked`` as in :func:`~mlfs_core.analysis.selection.checked`.
    """
    chosen = checked(selection, caller, ranked=ranked)
    if not chosen.per_budget or len(chosen.by) != 1:
        column = chosen.budget_column or "budget_pct"
        raise ValueError(
            f"{caller} takes each budget apart: select with by=[{column!r}] "
            f"(and no other by= column), got by={list(chosen.by)!r}"
        )
    return chosen


def rank_table(selection: Selection) -> pd.DataFrame:
    """Average rank per (budget, method) across datasets, best per budget flagged.

    Parameters
    ----------
    selection : Selection
        The results ranked per budget, made by
        :func:`~mlfs_core.analysis.select` with ``by=[<budget column>]``
        (single-budget reference methods are then compared at every budget).

    Returns
    -------
    DataFrame
        Columns ``<budget column>, method, mean, std, n_datasets, best``;
        ``best`` marks the lowest mean rank of each budget (all tied minima).

    Raises
    ------
    ValueError
        If the selection is not ranked per budget.
    """
    chosen = per_budget(selection, "rank_table")
    by = chosen.budget_column
    if chosen.table.empty:  # no rows of this metric (e.g. an empty panel of methods)
        return pd.DataFrame(columns=[by, METHOD, MEAN, STD, _N_DATASETS, _BEST])
    ranks = _ranks(chosen.table, chosen.higher_is_better, [by])
    out = _summarize(ranks, [by]).reset_index()
    best = out.groupby(by)[MEAN].transform("min")
    out[_BEST] = np.isclose(out[MEAN], best)
    return out
