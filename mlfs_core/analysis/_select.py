"""One metric, one budget: the table every rank-based analysis works on.

The tidy results table of an experiment holds every metric at every budget.
Ranking methods over all of them at once averages F1 scores with losses and
small budgets with large ones into one plausible-looking but meaningless
number, so each analysis function first narrows the table here: one metric
(whose direction comes from the metric registry), and one budget, the mean
over the budgets, or one ranking per budget (``by``). A table that still holds
several metrics or budgets where one is meant is refused with an error that
says what to pass.

Every ranking is over *blocks* (a dataset, or a dataset at one budget) in
which every method must have a value: a method missing on one dataset, or at
some of the budgets averaged by ``over_budgets="mean"``, would otherwise be
ranked on whatever happens to be there. :func:`check_blocks` looks at every
(dataset, method, budget) cell: by default an incomplete table is refused
with :class:`~mlfs_core.errors.IncompleteTableError` naming the missing cells;
``missing="drop-blocks"`` leaves the incomplete blocks out and says how many
(:class:`~mlfs_core.errors.DroppedBlocksWarning`).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import NamedTuple

import pandas as pd

from ..columns import BUDGET, BUDGET_PCT, DATASET, METHOD, METRIC, VALUE

OVER_BUDGETS = ("mean",)
"""The accepted values of ``over_budgets``."""
MISSING = ("refuse", "drop-blocks")
"""The accepted values of ``missing``: refuse an incomplete table (default), or
rank only its complete blocks."""

_PREVIEW = 6


class Selection(NamedTuple):
    """The narrowed table and what was chosen."""

    table: pd.DataFrame
    """Rows of one metric and (unless grouped by it) one budget."""
    higher_is_better: bool
    metric: str | None
    budget_column: str | None


def _preview(values: Sequence) -> str:
    shown = ", ".join(repr(v) for v in list(values)[:_PREVIEW])
    return shown + (", ..." if len(values) > _PREVIEW else "")


def _plain(value):
    """A numpy scalar as the Python value it holds (for messages)."""
    return value.item() if hasattr(value, "item") else value


def registry_direction(metric: str) -> bool | None:
    """``higher_is_better`` of a registered metric (or variant), None if unknown."""
    from ..errors import ConfigError
    from ..evaluation.metrics import higher_is_better

    try:
        return bool(higher_is_better(metric))
    except ConfigError:
        return None


def _direction(
    metric: str | None, higher_is_better: bool | None, caller: str, stacklevel: int
) -> bool:
    known = registry_direction(metric) if metric is not None else None
    if higher_is_better is None:
        if known is not None:
            return known
        if metric is not None:
            raise ValueError(
                f"{caller}: metric {metric!r} is not in the metric registry "
                "(mlfs_core.METRICS), so its direction is unknown; pass "
                "higher_is_better=True or higher_is_better=False"
            )
        warnings.warn(
            f"{caller}: neither metric= nor higher_is_better= was given, so higher "
            "values are taken as better. Pass metric= (its direction is looked up "
            "in mlfs_core.METRICS) or higher_is_better=; this default will go.",
            DeprecationWarning,
            stacklevel=stacklevel + 1,
        )
        return True
    if known is not None and bool(higher_is_better) != known:
        better = "higher" if known else "lower"
        raise ValueError(
            f"{caller}: higher_is_better={bool(higher_is_better)} contradicts metric "
            f"{metric!r}, for which {better} is better (mlfs_core.METRICS); leave "
            "higher_is_better out"
        )
    return bool(higher_is_better)


def _one_metric(table: pd.DataFrame, metric: str | None, caller: str):
    if METRIC not in table.columns:
        return table, metric
    names = sorted(table[METRIC].dropna().unique().tolist())
    if metric is None:
        if len(names) > 1:
            raise ValueError(
                f"{caller}: the table holds {len(names)} metrics ({_preview(names)}); "
                f"pass metric= to choose one, e.g. metric={names[0]!r}"
            )
        metric = names[0] if names else None
    elif metric not in names:
        raise ValueError(
            f"{caller}: metric {metric!r} is not in the table, which holds "
            f"{_preview(names) or 'no metric'}"
        )
    return table[table[METRIC] == metric], metric


def _budget_column(table: pd.DataFrame) -> str | None:
    """``budget_pct`` if every row has one, else ``budget``, else None."""
    if BUDGET_PCT in table and len(table) and table[BUDGET_PCT].notna().all():
        return BUDGET_PCT
    return BUDGET if BUDGET in table else None


def check_missing(missing: str, caller: str) -> None:
    """Refuse a ``missing=`` value that is not one of :data:`MISSING`."""
    if missing not in MISSING:
        raise ValueError(
            f"{caller}: missing={missing!r} is not one of "
            f"{', '.join(map(repr, MISSING))}"
        )


def _cell_text(cell: tuple) -> str:
    return "(" + ", ".join(repr(_plain(v)) for v in cell) + ")"


def check_blocks(
    table: pd.DataFrame,
    blocks: Sequence[str],
    *,
    budget_column: str | None = None,
    methods: Sequence[str] | None = None,
    missing: str = "refuse",
    caller: str = "analysis",
    stacklevel: int = 2,
) -> pd.DataFrame:
    """Check that every block of ``table`` has a value for every method.

    Parameters
    ----------
    table : DataFrame
        Rows with ``dataset, method, value`` and the ``blocks`` columns.
    blocks : sequence of str
        The columns whose values make one block (``dataset`` among them).
    budget_column : str, optional
        A budget column averaged over within each block (``over_budgets=
        "mean"``): every method must then have a value at every budget the
        block holds.
    methods : sequence of str, optional
        The methods every block must hold (default: every method in
        ``table``).
    missing : {"refuse", "drop-blocks"}
        Refuse an incomplete table, or drop its incomplete blocks (with a
        :class:`~mlfs_core.errors.DroppedBlocksWarning` saying how many).
    caller : str
        The public function's name, for the messages.
    stacklevel : int
        Stack level of the warning, counted from the caller.

    Returns
    -------
    DataFrame
        ``table``, or its rows of complete blocks.

    Raises
    ------
    IncompleteTableError
        With ``missing="refuse"``, if some (dataset, method[, budget]) cell
        has no row or a NaN value; the message names them.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["a", "a", "b"], "method": ["X", "Y", "X"],
    ...                   "value": [0.1, 0.2, 0.3]})
    >>> check_blocks(t, ["dataset"])
    Traceback (most recent call last):
    ...
    mlfs_core.errors.IncompleteTableError: analysis: the table is incomplete: 1 \
of 4 (dataset, method) cells have no value: ('b', 'Y'); pass \
missing='drop-blocks' to leave the 1 incomplete block(s) of 2 out
    """
    from ..errors import DroppedBlocksWarning, IncompleteTableError

    check_missing(missing, caller)
    blocks = list(blocks)
    if table.empty:
        return table
    names = list(methods) if methods is not None else None
    if names is None:
        names = list(pd.unique(table[METHOD].dropna()))
    extra = [budget_column] if budget_column is not None else []
    keys = [*blocks, *extra]
    ok = (
        table[VALUE]
        .notna()
        .groupby([table[c] for c in [*keys, METHOD]], sort=False, dropna=False)
        .all()
        .rename("_ok")
        .reset_index()
    )
    expected = (
        table[keys].drop_duplicates().merge(pd.DataFrame({METHOD: names}), how="cross")
    )
    cells = expected.merge(ok, on=[*keys, METHOD], how="left")
    bad = cells[cells["_ok"].ne(True)]
    if bad.empty:
        return table
    others = [c for c in blocks if c != DATASET]
    order = [DATASET, METHOD, *extra, *others]
    described = sorted(
        (tuple(row) for row in bad[order].itertuples(index=False, name=None)),
        key=lambda c: tuple(map(str, c)),
    )
    named = "(" + ", ".join(order) + ")"
    n_blocks = len(table[blocks].drop_duplicates())
    bad_blocks = bad[blocks].drop_duplicates()
    if missing == "refuse":
        shown = ", ".join(_cell_text(c) for c in described[:_PREVIEW])
        more = (
            f", ... ({len(described) - _PREVIEW} more)"
            if len(described) > _PREVIEW
            else ""
        )
        raise IncompleteTableError(
            f"{caller}: the table is incomplete: {len(described)} of {len(cells)} "
            f"{named} cells have no value: {shown}{more}; pass "
            f"missing='drop-blocks' to leave the {len(bad_blocks)} incomplete "
            f"block(s) of {n_blocks} out",
            described,
        )
    marked = table.merge(bad_blocks.assign(_bad=True), on=blocks, how="left")
    kept = table[marked["_bad"].ne(True).to_numpy()]
    warnings.warn(
        f"{caller}: dropped {len(bad_blocks)} incomplete block(s) of {n_blocks} "
        f"({', '.join(blocks)}; {len(described)} {named} cells without a value); "
        f"{n_blocks - len(bad_blocks)} complete block(s) ranked",
        DroppedBlocksWarning,
        stacklevel=stacklevel + 1,
    )
    return kept


def select(
    table: pd.DataFrame,
    *,
    metric: str | None = None,
    budget=None,
    over_budgets: str | None = None,
    higher_is_better: bool | None = None,
    by: Sequence[str] = (),
    reference_methods: Sequence[str] | None = None,
    caller: str = "analysis",
    suggest_by: bool = False,
    stacklevel: int = 2,
    missing: str = "refuse",
) -> Selection:
    """Narrow a results table to one metric and one budget (or one per ``by``).

    Parameters
    ----------
    table : DataFrame
        Columns ``dataset, method, value``; optionally ``metric``, ``budget``,
        ``budget_pct`` and the ``by`` columns.
    metric : str, optional
        The metric to analyse. Required when the table holds several; its
        direction is looked up in :data:`mlfs_core.METRICS`.
    budget : optional
        The budget to analyse, a value of the budget column (``budget_pct``
        when every row has one, else ``budget``).
    over_budgets : {"mean"}, optional
        Instead of one budget: each method's mean over the budgets (per
        dataset, after averaging folds and repeats at each budget).
    higher_is_better : bool, optional
        Direction of ``value``; only needed for a metric the registry does not
        know (or a table without a metric). Contradicting the registry is an
        error.
    by : sequence of str
        Grouping columns the caller ranks apart (a budget column here means
        one ranking per budget).
    reference_methods : sequence of str, optional
        Single-budget methods compared at every budget: their rows are
        copied to each budget of the others. Default (None): the registry's
        baselines that keep every feature, ``reference_methods("all")``.
    caller : str
        The public function's name, for the error messages.
    suggest_by : bool
        Whether the caller takes ``by`` (the error then suggests it).
    stacklevel : int
        Stack level of the deprecation warning, counted from the caller.
    missing : {"refuse", "drop-blocks"}
        What to do with blocks in which some method has no value
        (:func:`check_blocks`).

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
    """
    check_missing(missing, caller)
    absent = [c for c in (DATASET, METHOD, VALUE) if c not in table.columns]
    if absent:
        raise ValueError(
            f"{caller}: the table has no column {', '.join(map(repr, absent))} "
            f"(it has {_preview(list(table.columns))}); expected the tidy results "
            "table of an experiment (dataset, method, ..., metric, value)"
        )
    by = list(by)
    table, metric = _one_metric(table, metric, caller)
    hib = _direction(metric, higher_is_better, caller, stacklevel + 1)
    if over_budgets is not None and over_budgets not in OVER_BUDGETS:
        raise ValueError(
            f"{caller}: over_budgets={over_budgets!r} is not one of "
            f"{', '.join(map(repr, OVER_BUDGETS))}"
        )
    if budget is not None and over_budgets is not None:
        raise ValueError(f"{caller}: pass budget= or over_budgets=, not both")
    column = _budget_column(table)
    if column is None:
        if budget is not None:
            raise ValueError(
                f"{caller}: budget={_plain(budget)!r} was given but the table has no "
                f"{BUDGET!r} or {BUDGET_PCT!r} column"
            )
        table = _complete(table, by, None, missing, caller, stacklevel)
        return Selection(table, hib, metric, None)

    grouped = [c for c in (column, BUDGET, BUDGET_PCT) if c in by]
    if grouped:
        if budget is not None or over_budgets is not None:
            raise ValueError(
                f"{caller}: by={by!r} ranks each budget apart; leave budget= and "
                "over_budgets= out"
            )
        table = broadcast_reference(table, grouped[0], reference_methods)
        table = _complete(table, by, None, missing, caller, stacklevel)
        return Selection(table, hib, metric, grouped[0])
    table = broadcast_reference(table, column, reference_methods)
    values = sorted(table[column].dropna().unique().tolist())
    methods = list(pd.unique(table[METHOD].dropna()))
    if budget is not None:
        chosen = table[table[column] == budget]
        if chosen.empty:
            raise ValueError(
                f"{caller}: budget={_plain(budget)!r} is not in the table's "
                f"{column!r} column, which holds {_preview(values)}"
            )
        blocks = [*by, column]
        chosen = _complete(chosen, blocks, None, missing, caller, stacklevel, methods)
        return Selection(chosen, hib, metric, column)
    if over_budgets == "mean":
        table = _complete(table, by, column, missing, caller, stacklevel)
        keys = [*by, DATASET, METHOD]
        per_budget = table.groupby([*keys, column], dropna=False, sort=True)[
            VALUE
        ].mean()
        means = per_budget.groupby(level=list(range(len(keys)))).mean()
        return Selection(means.reset_index(), hib, metric, column)
    if len(values) > 1:
        grouped = f", or by=[{column!r}] (one ranking per budget)" if suggest_by else ""
        raise ValueError(
            f"{caller}: the table holds {len(values)} budgets ({column} = "
            f"{_preview(values)}); pass budget= to choose one (e.g. "
            f"budget={values[0]!r}), over_budgets='mean' (each method's mean over "
            f"the budgets){grouped}"
        )
    table = _complete(table, [*by, column], None, missing, caller, stacklevel)
    return Selection(table, hib, metric, column)


def _complete(table, by, budget_column, missing, caller, stacklevel, methods=None):
    """:func:`check_blocks` over blocks (by..., dataset)."""
    blocks = [*dict.fromkeys([*by, DATASET])]
    if budget_column in blocks:
        budget_column = None
    return check_blocks(
        table,
        blocks,
        budget_column=budget_column,
        methods=methods,
        missing=missing,
        caller=caller,
        stacklevel=stacklevel + 2,
    )


def all_features_references(reference_methods: Sequence[str] | None) -> list[str]:
    """``reference_methods``, or by default the registered all-features baselines.

    None stands for the methods registered with ``reference="all"``
    (:func:`~mlfs_core.selectors.reference_methods`): the built-in one and
    any plug-in's, so the analysis knows no method by name.

    Examples
    --------
    >>> all_features_references(["Full"])
    ['Full']
    >>> all_features_references(None) == list(
    ...     __import__("mlfs_core").selectors.reference_methods("all"))
    True
    """
    if reference_methods is not None:
        return list(reference_methods)
    from ..selectors import reference_methods as registered

    return registered("all")


def broadcast_reference(
    table: pd.DataFrame, by: str, reference_methods: Sequence[str] | None = None
) -> pd.DataFrame:
    """Copy the rows of single-budget reference methods to every other budget.

    Rows of the reference methods (default: the registered all-features
    baselines, :func:`all_features_references`) are repeated with ``by``
    set to each budget value the other methods have; their own budget value
    is dropped unless another method also has it.
    """
    is_ref = table[METHOD].isin(all_features_references(reference_methods))
    if not is_ref.any():
        return table
    others = table[~is_ref]
    budgets = others[by].dropna().unique()
    if budgets.size == 0:
        return table
    ref = table[is_ref]
    copies = [ref.assign(**{by: b}) for b in budgets]
    return pd.concat([others, *copies], ignore_index=True)
