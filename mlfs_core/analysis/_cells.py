"""One value per cell, one setting per table: what an analysis can compare.

A *cell* of a tidy results table is one measurement: the values of its
identity columns (:data:`_CELL_COLUMNS`: dataset, protocol, method, budget,
budget_pct, fold, repeat, metric, and any setting column) that the table
holds. Two rows of one cell with different values are two answers to one
question (two runs concatenated, a hand-edited file): averaging them moves a
method's rank without a word, so :func:`check_cells` refuses them, naming the
cells, unless ``duplicates="mean"`` says to average each cell first. Rows
that repeat a cell with the *same* value (a table concatenated with itself)
say nothing new: they are kept once, so a fold counted twice does not weigh
twice.

A table without a ``fold`` or ``repeat`` column lists each cell's
repetitions unlabelled (``dataset, method, value`` rows, several per
(dataset, method)): there every row is its own measurement, as before.

A table mixing settings (:data:`_SETTING_COLUMNS`: two protocols, or, where
a combined table carries them, two classifiers or evaluation settings) ranks
methods measured under different conditions against one another, and is
refused unless ``mix="allow"``.
"""

from __future__ import annotations

import pandas as pd

from ..columns import (
    BUDGET,
    BUDGET_PCT,
    CLASSIFIER,
    DATASET,
    EVALUATION,
    FEATURES,
    FOLD,
    METHOD,
    METRIC,
    PROTOCOL,
    REPEAT,
    VALUE,
)
from ..errors import ConflictingCellsError, MixedTableError
from ._blocks import plain, preview

_SHOWN = 3  # cells a message names (each with all its identity columns)

_DUPLICATES = ("refuse", "mean")
"""The accepted values of ``duplicates``: refuse a cell holding two different
values (default), or average each cell's values first."""

_MIX = ("refuse", "allow")
"""The accepted values of ``mix``: refuse a table holding several protocols,
classifiers or evaluation settings (default), or rank them together."""

_SETTING_COLUMNS = (PROTOCOL, CLASSIFIER, EVALUATION)
"""Columns that name the conditions a value was measured under: a run's
results carry ``protocol``; its classifier and evaluation settings are in
its ``config.toml``, and a table combining runs of different ones carries
them as ``classifier`` and ``evaluation`` columns."""

_CELL_COLUMNS = (
    DATASET,
    *_SETTING_COLUMNS,
    METHOD,
    BUDGET,
    BUDGET_PCT,
    FOLD,
    REPEAT,
    METRIC,
)
"""The columns whose values, where the table holds them, identify a cell."""


def check_options(duplicates: str, mix: str, caller: str) -> None:
    """Refuse a ``duplicates=`` or ``mix=`` outside ``_DUPLICATES``, ``_MIX``."""
    for name, value, accepted in (
        ("duplicates", duplicates, _DUPLICATES),
        ("mix", mix, _MIX),
    ):
        if value not in accepted:
            raise ValueError(
                f"{caller}: {name}={value!r} is not one of "
                f"{', '.join(map(repr, accepted))}"
            )


def check_settings(table: pd.DataFrame, mix: str, caller: str) -> None:
    """Refuse a table whose setting columns hold several values (unless allowed).

    Raises
    ------
    MixedTableError
        Naming the column, its values and their row counts.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["d", "d"], "protocol": ["A", "B"],
    ...                   "method": ["X", "X"], "value": [0.1, 0.2]})
    >>> check_settings(t, "refuse", "select")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mlfs_core.errors.MixedTableError: select: the table mixes 2 protocol values \
('A': 1 rows, 'B': 1 rows); ...
    """
    if mix == "allow":
        return
    for column in _SETTING_COLUMNS:
        if column not in table.columns:
            continue
        counts = table[column].value_counts(dropna=True, sort=False).sort_index()
        if len(counts) < 2:
            continue
        shown = ", ".join(f"{plain(k)!r}: {n:,} rows" for k, n in counts.items())
        raise MixedTableError(
            f"{caller}: the table mixes {len(counts)} {column} values ({shown}); "
            "values measured under different settings are not comparable: select "
            f"the rows of one {column} (e.g. results[results[{column!r}] == "
            f"{plain(counts.index[0])!r}]), or pass mix='allow' to rank them together"
        )


def check_cells(
    table: pd.DataFrame, duplicates: str, caller: str, by=()
) -> pd.DataFrame:
    """``table`` with one row per cell: repeats once, conflicts refused or averaged.

    Parameters
    ----------
    table : DataFrame
        Tidy rows with a ``value`` column.
    duplicates : {"refuse", "mean"}
        What to do with a cell holding different values.
    caller : str
        The public function's name, for the messages.
    by : sequence of str
        Further grouping columns that identify a cell.

    Returns
    -------
    DataFrame
        ``table`` itself when every cell has one row (or the table labels no
        fold or repeat); else its rows with each exact repeat dropped, and
        with ``duplicates="mean"`` each cell's values averaged into one row.

    Raises
    ------
    ConflictingCellsError
        With ``duplicates="refuse"``, naming the first three cells
        holding different values and how many there are.

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": "d", "method": "X", "fold": [0, 0, 1],
    ...                   "value": [0.5, 0.5, 0.7]})
    >>> len(check_cells(t, "refuse", "select"))
    2
    """
    if FOLD not in table.columns and REPEAT not in table.columns:
        return table
    keys = [*dict.fromkeys(c for c in (*_CELL_COLUMNS, *by) if c in table.columns)]
    repeated = table.duplicated(keys, keep=False)
    if not repeated.any():
        return table
    table = table[~table.duplicated([*keys, VALUE])]
    conflicting = table.duplicated(keys, keep=False)
    if not conflicting.any():
        return table
    if duplicates == "mean":
        kept = table[~conflicting]
        means = table[conflicting].groupby(keys, dropna=False, sort=True)
        averaged = means.first().assign(**{VALUE: means[VALUE].mean()})
        return pd.concat([kept, averaged.reset_index()[list(table.columns)]])
    _refuse(table[conflicting], keys, caller)


def _refuse(rows: pd.DataFrame, keys: list, caller: str):
    cells = rows.groupby(keys, dropna=False, sort=True)[VALUE]
    values = cells.agg(lambda v: sorted(v.tolist(), key=str))
    described = [(k if isinstance(k, tuple) else (k,), v) for k, v in values.items()]
    shown = "; ".join(
        "(" + ", ".join(f"{c}={plain(x)!r}" for c, x in zip(keys, cell)) + ") "
        f"holds {preview([plain(x) for x in vals])}"
        for cell, vals in described[:_SHOWN]
    )
    extra = len(described) - _SHOWN
    more = f"; ... ({extra:,} more)" if extra > 0 else ""
    raise ConflictingCellsError(
        f"{caller}: {len(described):,} cell(s) of the table hold different values "
        f"in several rows: {shown}{more}; remove the rows that do not belong (e.g. "
        "a second run appended), or pass duplicates='mean' to average each cell",
        [cell for cell, _ in described],
    )


RANKING_COLUMNS = (DATASET, METHOD, FOLD, REPEAT)
"""The columns whose values, where the table holds them, identify a ranking
of a selections table."""


def check_rankings(selections: pd.DataFrame, caller: str) -> pd.DataFrame:
    """``selections`` with one row per ranking: repeats once, conflicts refused.

    A ranking is identified by :data:`RANKING_COLUMNS`; two rows of one
    ranking with the same features are kept once, with different features
    they are refused (no ``duplicates="mean"``: rankings do not average).

    Raises
    ------
    ConflictingCellsError
        Naming the first three rankings with different features and how many.

    Examples
    --------
    >>> import numpy as np
    >>> t = pd.DataFrame({"dataset": "d", "method": "X", "fold": 0, "repeat": 0,
    ...                   "features": [np.array([1, 2]), np.array([2, 1])]})
    >>> check_rankings(t, "similarity_matrix")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConflictingCellsError: similarity_matrix: 1 ranking(s) of \
the table are given in several rows with different features: (dataset='d', \
method='X', fold=0, repeat=0); ...
    """
    keys = [c for c in RANKING_COLUMNS if c in selections.columns]
    repeated = selections.duplicated(keys, keep=False)
    if not repeated.any():
        return selections
    # only the repeated rows' features become text (tuples do not hash arrays)
    text = selections.loc[repeated, FEATURES].map(lambda f: " ".join(map(str, f)))
    rows = selections.loc[repeated, keys].assign(_features=text)
    extra = rows.duplicated([*keys, "_features"])
    kept = selections.drop(index=rows.index[extra.to_numpy()])
    rows = rows[~extra]
    conflicting = rows[rows.duplicated(keys, keep=False)]
    if conflicting.empty:
        return kept
    unique = conflicting[keys].drop_duplicates()
    cells = [tuple(c) for c in unique.itertuples(index=False, name=None)]
    cells.sort(key=lambda c: tuple(map(str, c)))
    shown = "; ".join(
        "(" + ", ".join(f"{k}={plain(x)!r}" for k, x in zip(keys, cell)) + ")"
        for cell in cells[:_SHOWN]
    )
    more = f"; ... ({len(cells) - _SHOWN:,} more)" if len(cells) > _SHOWN else ""
    raise ConflictingCellsError(
        f"{caller}: {len(cells):,} ranking(s) of the table are given in several "
        f"rows with different features: {shown}{more}; remove the rows that do "
        "not belong (e.g. a second run appended)",
        cells,
    )
