"""One metric, one budget: the block every rank-based analysis works on.

The tidy results table of an experiment holds every metric at every budget.
Ranking methods over all of them at once averages F1 scores with losses and
small budgets with large ones into one plausible-looking but meaningless
number, so the table is narrowed first, once, by :func:`select`: one metric
(whose direction comes from the metric registry, or is stated), and one
budget, the mean over the budgets, or one ranking per budget (``by``). The
result, a :class:`Selection`, is what every analysis takes: average ranks,
rank tables, the Friedman test, the post-hoc tests and the curves. A table
that still holds several metrics or budgets where one is meant is refused
with an error that says what to pass; so is an incomplete table (see
:func:`~mlfs_core.analysis.check_blocks`), unless ``missing=`` says
otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ..columns import BUDGET, BUDGET_PCT, DATASET, METHOD, METRIC, VALUE
from ..errors import ConfigError
from ._blocks import (
    broadcast_reference,
    budget_column,
    check_blocks,
    check_missing,
    plain,
    preview,
)
from ._cells import check_cells, check_options, check_settings

_OVER_BUDGETS = ("mean",)
"""The accepted values of ``over_budgets``."""


@dataclass(frozen=True, eq=False)
class Selection:
    """A results table narrowed by :func:`select`: what every analysis takes.

    Attributes
    ----------
    table : DataFrame
        Tidy rows (``dataset, method, value`` and the ``by`` columns) of one
        metric and, unless ranked per budget, one budget (or each method's
        mean over the budgets); checked complete as ``missing`` says.
    higher_is_better : bool or None
        Direction of ``value``; None only in a ``missing="keep"`` selection
        of a metric whose direction is unknown (nothing is ranked there).
    metric : str or None
        The metric selected (None for a table without a ``metric`` column).
    budget_column : str or None
        The budget column (``budget_pct`` or ``budget``), None if the table
        has none.
    by : tuple of str
        Grouping columns ranked apart (the budget column among them: one
        ranking per budget).
    budget : optional
        The budget selected (a value of ``budget_column``), or None.
    over_budgets : {"mean"} or None
        ``"mean"`` when each method's mean over the budgets was selected.
    missing : {"refuse", "drop-blocks", "keep"}
        How the blocks were checked; ``"keep"`` (unchecked) selections are
        for summaries that rank nothing.
    """

    table: pd.DataFrame
    higher_is_better: bool | None
    metric: str | None = None
    budget_column: str | None = None
    by: tuple[str, ...] = ()
    budget: object = None
    over_budgets: str | None = None
    missing: str = "refuse"

    def __repr__(self) -> str:
        return (
            f"Selection(metric={self.metric!r}, higher_is_better="
            f"{self.higher_is_better!r}, budget_column={self.budget_column!r}, "
            f"by={self.by!r}, budget={plain(self.budget)!r}, over_budgets="
            f"{self.over_budgets!r}, missing={self.missing!r}, rows={len(self.table)})"
        )

    @property
    def per_budget(self) -> bool:
        """Whether each budget is ranked apart (the budget column is in ``by``)."""
        return self.budget_column is not None and self.budget_column in self.by


def _registry_direction(metric: str) -> bool | None:
    """``higher_is_better`` of a registered metric (or variant), None if unknown."""
    from ..evaluation.metrics import higher_is_better

    try:
        return bool(higher_is_better(metric))
    except ConfigError:
        return None


def _direction(
    metric: str | None, higher_is_better: bool | None, needed: bool
) -> bool | None:
    known = _registry_direction(metric) if metric is not None else None
    if higher_is_better is None:
        if known is not None or not needed:
            return known
        if metric is not None:
            raise ValueError(
                f"select: metric {metric!r} is not in the metric registry "
                "(mlfs_core.METRICS), so its direction is unknown; pass "
                "higher_is_better=True or higher_is_better=False"
            )
        raise ValueError(
            "select: the table has no metric column and no higher_is_better= was "
            "given, so the direction of its values is unknown; pass metric= (a "
            "metric of mlfs_core.METRICS) or higher_is_better=True or False"
        )
    if known is not None and bool(higher_is_better) != known:
        better = "higher" if known else "lower"
        raise ValueError(
            f"select: higher_is_better={bool(higher_is_better)} contradicts metric "
            f"{metric!r}, for which {better} is better (mlfs_core.METRICS); leave "
            "higher_is_better out"
        )
    return bool(higher_is_better)


def _one_metric(table: pd.DataFrame, metric: str | None):
    if METRIC not in table.columns:
        return table, metric
    names = sorted(table[METRIC].dropna().unique().tolist())
    if metric is None:
        if len(names) > 1:
            raise ValueError(
                f"select: the table holds {len(names)} metrics ({preview(names)}); "
                f"pass metric= to choose one, e.g. metric={names[0]!r}"
            )
        metric = names[0] if names else None
    elif metric not in names and len(table):
        raise ValueError(
            f"select: metric {metric!r} is not in the table, which holds "
            f"{preview(names) or 'no metric'}"
        )
    return table[table[METRIC] == metric], metric


def _check_columns(table: pd.DataFrame, over_budgets, budget, by) -> None:
    if isinstance(by, str):
        raise ValueError(
            f"select: by= takes a list of columns, e.g. by=[{by!r}], got the "
            f"string {by!r}"
        )
    absent = [c for c in (DATASET, METHOD, VALUE, *by) if c not in table.columns]
    if absent:
        raise ValueError(
            f"select: the table has no column {', '.join(map(repr, absent))} "
            f"(it has {preview(list(table.columns))}); expected the tidy results "
            "table of an experiment (dataset, method, ..., metric, value)"
        )
    if over_budgets is not None and over_budgets not in _OVER_BUDGETS:
        raise ValueError(
            f"select: over_budgets={over_budgets!r} is not one of "
            f"{', '.join(map(repr, _OVER_BUDGETS))}"
        )
    if budget is not None and over_budgets is not None:
        raise ValueError("select: pass budget= or over_budgets=, not both")


def select(
    results: pd.DataFrame,
    *,
    metric: str | None = None,
    budget=None,
    over_budgets: str | None = None,
    higher_is_better: bool | None = None,
    by: Sequence[str] = (),
    reference_methods: Sequence[str] | None = None,
    missing: str = "refuse",
    duplicates: str = "refuse",
    mix: str = "refuse",
) -> Selection:
    """Narrow a results table to the block an analysis works on.

    Parameters
    ----------
    results : DataFrame
        The tidy results table of an experiment (``dataset, method, ...,
        metric, value``; optionally ``budget``, ``budget_pct`` and the ``by``
        columns), or any table with columns ``dataset, method, value``.
        Several rows per (dataset, method) cell (folds, repeats) are kept
        here and averaged by the analyses.
    metric : str, optional
        The metric to analyse; required when the table holds several. Its
        direction is looked up in :data:`mlfs_core.METRICS`.
    budget : optional
        The budget to analyse, a value of the budget column (``budget_pct``
        when every row has one, else ``budget``); required when the table
        holds several budgets and neither ``over_budgets`` nor a budget
        column in ``by`` is given.
    over_budgets : {"mean"}, optional
        Instead of one budget: each method's mean over the budgets (per
        dataset, after averaging folds and repeats at each budget).
    higher_is_better : bool, optional
        Direction of ``value``; required for a metric the registry does not
        know and for a table without a ``metric`` column (except with
        ``missing="keep"``, which ranks nothing). Contradicting the registry
        is an error.
    by : sequence of str
        Grouping columns ranked apart; a budget column here means one
        ranking per budget (as :func:`~mlfs_core.analysis.rank_table`,
        :func:`~mlfs_core.analysis.friedman_by_budget` and
        :func:`~mlfs_core.analysis.metric_curves` need).
    reference_methods : sequence of str, optional
        Single-budget methods compared at every budget: their rows are
        copied to each budget of the others
        (:func:`~mlfs_core.analysis.broadcast_reference`). Default (None):
        the registry's baselines that keep every feature; ``()`` copies none.
    missing : {"refuse", "drop-blocks", "keep"}, default="refuse"
        A block (a dataset, or a dataset at one budget) in which some method
        has no value (no row, NaN, or a budget missing from the mean over
        budgets) refuses the table:
        :class:`~mlfs_core.errors.IncompleteTableError` names the missing
        cells. ``"drop-blocks"`` leaves such blocks out and says how many
        (:class:`~mlfs_core.errors.DroppedBlocksWarning`); ``"keep"`` checks
        nothing, for summaries that rank nothing (the rank-based analyses
        refuse such a selection).
    duplicates : {"refuse", "mean"}, default="refuse"
        Two rows of one cell (the same dataset, protocol, method, budget,
        fold, repeat and metric, and ``by`` values, of those columns the
        table has) with different values refuse the table:
        :class:`~mlfs_core.errors.ConflictingCellsError` names the first
        cells and how many there are. ``"mean"`` averages each such cell's
        values into one row first. Rows repeating a cell with the same value
        are kept once either way (a table appended to itself counts each
        fold once). A table with neither a ``fold`` nor a ``repeat`` column
        is not checked: its rows per (dataset, method) are unlabelled
        repetitions.
    mix : {"refuse", "allow"}, default="refuse"
        A table whose ``protocol`` (or ``classifier``, ``evaluation``:
        columns a table combining several runs may carry) column holds
        several values is refused with
        :class:`~mlfs_core.errors.MixedTableError`; ``"allow"`` ranks
        values of different settings together (each remains its own cell).

    Returns
    -------
    Selection

    Raises
    ------
    ValueError
        If a required column is missing, the table holds several metrics or
        budgets where one is meant, the chosen metric or budget is not in the
        table, the direction is unknown or contradicts the registry.
    IncompleteTableError
        With ``missing="refuse"``, if a block misses a method's value.
    ConflictingCellsError
        With ``duplicates="refuse"``, if a cell holds different values.
    MixedTableError
        With ``mix="refuse"``, if the table mixes protocols, classifiers or
        evaluation settings.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["a", "a", "b", "b"],
    ...                   "method": ["X", "Y", "X", "Y"],
    ...                   "metric": "hamming_loss",
    ...                   "value": [0.1, 0.2, 0.5, 0.5]})
    >>> select(t)
    Selection(metric='hamming_loss', higher_is_better=False, budget_column=None, \
by=(), budget=None, over_budgets=None, missing='refuse', rows=4)
    """
    check_missing(missing, "select")
    check_options(duplicates, mix, "select")
    _check_columns(results, over_budgets, budget, by)
    table, metric = _one_metric(results, metric)
    check_settings(table, mix, "select")
    table = check_cells(table, duplicates, "select", by)
    made = {
        "higher_is_better": _direction(metric, higher_is_better, missing != "keep"),
        "metric": metric,
        "missing": missing,
        "by": tuple(by),
    }
    column = budget_column(table)
    if column is None:
        if budget is not None:
            raise ValueError(
                f"select: budget={plain(budget)!r} was given but the table has no "
                f"{BUDGET!r} or {BUDGET_PCT!r} column"
            )
        return Selection(_complete(table, by, None, missing), **made)
    grouped = [c for c in (column, BUDGET, BUDGET_PCT) if c in by]
    if grouped:
        if budget is not None or over_budgets is not None:
            raise ValueError(
                f"select: by={list(by)!r} ranks each budget apart; leave budget= "
                "and over_budgets= out"
            )
        table = broadcast_reference(table, grouped[0], reference_methods)
        table = _complete(table, by, None, missing)
        return Selection(table, budget_column=grouped[0], **made)
    table = broadcast_reference(table, column, reference_methods)
    return Selection(
        _one_budget(table, column, budget, over_budgets, list(by), missing),
        budget_column=column,
        budget=budget,
        over_budgets=over_budgets,
        **made,
    )


def _one_budget(table, column, budget, over_budgets, by, missing) -> pd.DataFrame:
    """The rows at ``budget``, each method's mean over budgets, or the only budget."""
    values = sorted(table[column].dropna().unique().tolist())
    if budget is not None:
        methods = list(pd.unique(table[METHOD].dropna()))
        chosen = table[table[column] == budget]
        if chosen.empty:
            raise ValueError(
                f"select: budget={plain(budget)!r} is not in the table's "
                f"{column!r} column, which holds {preview(values)}"
            )
        return _complete(chosen, [*by, column], None, missing, methods, depth=1)
    if over_budgets == "mean":
        table = _complete(table, by, column, missing, depth=1)
        keys = [*by, DATASET, METHOD]
        per_budget = table.groupby([*keys, column], dropna=False, sort=True)[
            VALUE
        ].mean()
        means = per_budget.groupby(level=list(range(len(keys)))).mean()
        return means.reset_index()
    if len(values) > 1:
        raise ValueError(
            f"select: the table holds {len(values)} budgets ({column} = "
            f"{preview(values)}); pass budget= to choose one (e.g. "
            f"budget={values[0]!r}), over_budgets='mean' (each method's mean over "
            f"the budgets), or by=[{column!r}] (one ranking per budget)"
        )
    return _complete(table, [*by, column], None, missing, depth=1)


def _complete(table, by, budget_column, missing, methods=None, depth=0):
    """:func:`check_blocks` over blocks (by..., dataset); the warning points
    at the caller of :func:`select`."""
    blocks = [*dict.fromkeys([*by, DATASET])]
    if budget_column in blocks:
        budget_column = None
    return check_blocks(
        table,
        blocks,
        budget_column=budget_column,
        methods=methods,
        missing=missing,
        caller="select",
        stacklevel=3 + depth,  # check_blocks, _complete, [_one_budget,] select
    )


def checked(selection: Selection, caller: str, *, ranked: bool = True) -> Selection:
    """``selection`` if it is a :class:`Selection` an analysis can use.

    Parameters
    ----------
    selection : Selection
        What the analysis was given.
    caller : str
        The public function's name, for the messages.
    ranked : bool
        Whether the analysis ranks (it then refuses an unchecked,
        ``missing="keep"``, selection).

    Raises
    ------
    TypeError
        If ``selection`` is not a :class:`Selection` (e.g. the results table
        itself: the message says to call :func:`select` first).
    ValueError
        If ``ranked`` and the selection's blocks were not checked.
    """
    if not isinstance(selection, Selection):
        raise TypeError(
            f"{caller} takes a Selection, got {type(selection).__name__}; narrow "
            "the results first: "
            f"{caller}(select(results, metric=..., budget=...))"
        )
    if ranked and selection.missing == "keep":
        raise ValueError(
            f"{caller}: the selection was made with missing='keep', so its blocks "
            "were not checked; ranking needs complete blocks: select with "
            "missing='refuse' or missing='drop-blocks'"
        )
    return selection
