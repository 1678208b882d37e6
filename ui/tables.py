"""Display tables: "mean (std)" grids with the best cell in bold (pandas Styler)."""

from __future__ import annotations

import pandas as pd
from pandas.io.formats.style import Styler

from mlfs_core.columns import MEAN, METHOD, STD


def mean_std_styler(ranks: pd.DataFrame, *, by: str, best: str = "best") -> Styler:
    """Paper 000 Tables 4/5: rows budgets, columns methods, "mean (std)", best bold.

    ``ranks`` is the long output of ``rank_table`` (``<by>, method, mean, std,
    best``); the best cell per row is bold, as in the paper.
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
    return cells.style.apply(lambda _: styles, axis=None)


def best_bold(
    table: pd.DataFrame, *, higher_is_better: bool, digits: int = 4
) -> Styler:
    """Datasets x methods means, the best method of each row in bold."""
    best = table.max(axis=1) if higher_is_better else table.min(axis=1)
    styles = table.apply(
        lambda col: (col == best).map(lambda b: "font-weight: bold" if b else "")
    )
    return table.style.format(f"{{:.{digits}f}}").apply(lambda _: styles, axis=None)
