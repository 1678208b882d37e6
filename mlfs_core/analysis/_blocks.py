"""Complete blocks: every method has a value in every ranked block.

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

import pandas as pd

from ..columns import BUDGET, BUDGET_PCT, DATASET, METHOD, VALUE
from ..errors import DroppedBlocksWarning, IncompleteTableError

MISSING = ("refuse", "drop-blocks", "keep")
"""The accepted values of ``missing``: refuse an incomplete table (default),
rank only its complete blocks, or keep every row unchecked (for summaries
that rank nothing, such as :func:`~mlfs_core.analysis.metric_curves`)."""

_PREVIEW = 6
"""How many names or cells an error message lists before "..."."""


def preview(values: Sequence) -> str:
    """The first :data:`_PREVIEW` values, as reprs, for a message."""
    shown = ", ".join(repr(v) for v in list(values)[:_PREVIEW])
    return shown + (", ..." if len(values) > _PREVIEW else "")


def plain(value):
    """A numpy scalar as the Python value it holds (for messages)."""
    return value.item() if hasattr(value, "item") else value


def check_missing(missing: str, caller: str, *, ranked: bool = False) -> None:
    """Refuse a ``missing=`` value that is not one of :data:`MISSING` (nor
    ``"keep"`` where the caller ranks: ``ranked=True``)."""
    accepted = [m for m in MISSING if not (ranked and m == "keep")]
    if missing not in accepted:
        raise ValueError(
            f"{caller}: missing={missing!r} is not one of "
            f"{', '.join(map(repr, accepted))}"
        )


def budget_column(results: pd.DataFrame) -> str | None:
    """``budget_pct`` if every result carries a budget percentage, else ``budget``.

    Count budgets (protocol B) leave ``budget_pct`` empty except on AF's rows
    (100 %), so they are compared by ``budget``. None when the table has
    neither column.

    Examples
    --------
    >>> budget_column(pd.DataFrame({"budget": [5, 10], "budget_pct": [50.0, None]}))
    'budget'
    """
    if BUDGET_PCT in results and len(results) and results[BUDGET_PCT].notna().all():
        return BUDGET_PCT
    return BUDGET if BUDGET in results else None


def _cell_text(cell: tuple) -> str:
    return "(" + ", ".join(repr(plain(v)) for v in cell) + ")"


def _bad_cells(table, keys, names) -> pd.DataFrame:
    """The (keys..., method) cells with no row or a NaN value."""
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
    return cells, cells[cells["_ok"].ne(True)]


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
    missing : {"refuse", "drop-blocks", "keep"}
        Refuse an incomplete table, drop its incomplete blocks (with a
        :class:`~mlfs_core.errors.DroppedBlocksWarning` saying how many), or
        keep every row unchecked.
    caller : str
        The public function's name, for the messages.
    stacklevel : int
        Stack level of the warning, counted from this function's caller.

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
    check_missing(missing, caller)
    if table.empty or missing == "keep":
        return table
    blocks = list(blocks)
    names = list(methods) if methods is not None else None
    if names is None:
        names = list(pd.unique(table[METHOD].dropna()))
    extra = [budget_column] if budget_column is not None else []
    cells, bad = _bad_cells(table, [*blocks, *extra], names)
    if bad.empty:
        return table
    order = [DATASET, METHOD, *extra, *(c for c in blocks if c != DATASET)]
    described = sorted(
        (tuple(row) for row in bad[order].itertuples(index=False, name=None)),
        key=lambda c: tuple(map(str, c)),
    )
    named = "(" + ", ".join(order) + ")"
    n_blocks = len(table[blocks].drop_duplicates())
    bad_blocks = bad[blocks].drop_duplicates()
    if missing == "refuse":
        _refuse(described, len(cells), named, len(bad_blocks), n_blocks, caller)
    marked = table.merge(bad_blocks.assign(_bad=True), on=blocks, how="left")
    warnings.warn(
        f"{caller}: dropped {len(bad_blocks)} incomplete block(s) of {n_blocks} "
        f"({', '.join(blocks)}; {len(described)} {named} cells without a value); "
        f"{n_blocks - len(bad_blocks)} complete block(s) ranked",
        DroppedBlocksWarning,
        stacklevel=stacklevel + 1,
    )
    return table[marked["_bad"].ne(True).to_numpy()]


def _refuse(described, n_cells, named, n_bad, n_blocks, caller):
    shown = ", ".join(_cell_text(c) for c in described[:_PREVIEW])
    more = (
        f", ... ({len(described) - _PREVIEW} more)" if len(described) > _PREVIEW else ""
    )
    raise IncompleteTableError(
        f"{caller}: the table is incomplete: {len(described)} of {n_cells} "
        f"{named} cells have no value: {shown}{more}; pass "
        f"missing='drop-blocks' to leave the {n_bad} incomplete "
        f"block(s) of {n_blocks} out",
        described,
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
