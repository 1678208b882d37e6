"""Display tables: "mean (std)" grids with the best cell in bold (pandas Styler)."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

from mlfs_core.columns import MEAN, METHOD, STD

MAX_COLUMNS = 6
"""Method columns per table: 6 fit half of a 1024 px projector's page."""


def column_chunks(columns: list, size: int = MAX_COLUMNS) -> list[list]:
    """``columns`` cut into runs of at most ``size`` (a wide table in parts).

    Examples
    --------
    >>> column_chunks(list("abcdefgh"), 3)
    [['a', 'b', 'c'], ['d', 'e', 'f'], ['g', 'h']]
    """
    return [columns[i : i + size] for i in range(0, len(columns), size)] or [[]]


def show_wide(make: Callable[[list | None], Styler], columns: list) -> None:
    """Show a methods table as one ``st.table`` per run of :data:`MAX_COLUMNS`
    method columns, so 12 methods never run past a projector's page; ``make``
    builds the styled table of the given columns (the bold best of each row
    is still chosen among all methods)."""
    chunks = column_chunks(list(columns))
    for chunk in chunks:
        st.table(make(chunk if len(chunks) > 1 else None))


def mean_std_styler(
    ranks: pd.DataFrame, *, by: str, best: str = "best", columns: list | None = None
) -> Styler:
    """Mean ranks as in Spolaôr and Tsoumakas (2013), Tables 4/5: rows budgets,
    columns methods, "mean (std)", best bold.

    ``ranks`` is the long output of ``rank_table`` (``<by>, method, mean, std,
    best``); the best cell per row is bold, as in the paper. ``columns``
    keeps only those methods (the best is still the best of all).
    """
    text = ranks.assign(
        cell=ranks[MEAN].map("{:.2f}".format)
        + " ("
        + ranks[STD].map("{:.1f}".format)
        + ")"
    )
    order = list(dict.fromkeys(ranks[METHOD]))
    cells = text.pivot(index=by, columns=METHOD, values="cell")[order]
    flags = ranks.pivot(index=by, columns=METHOD, values=best)[order].fillna(False)
    styles = flags.map(lambda b: "font-weight: bold" if b else "")
    cells.index = styles.index = [f"{v:g}" for v in cells.index]
    if columns is not None:
        cells, styles = cells[columns], styles[columns]
    return cells.style.apply(lambda _: styles, axis=None)


def best_bold(
    table: pd.DataFrame,
    *,
    higher_is_better: bool,
    digits: int = 4,
    columns: list | None = None,
) -> Styler:
    """Datasets x methods means, the best method of each row in bold.

    ``columns`` keeps only those methods (the best is still the best of all).
    """
    best = table.max(axis=1) if higher_is_better else table.min(axis=1)
    styles = table.apply(
        lambda col: (col == best).map(lambda b: "font-weight: bold" if b else "")
    )
    if columns is not None:
        table, styles = table[columns], styles[columns]
    return table.style.format(f"{{:.{digits}f}}").apply(lambda _: styles, axis=None)
