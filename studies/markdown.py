"""The report's Markdown: tables (through the engine's one table writer) and the
blocks of lines around them."""

from __future__ import annotations

import pandas as pd

from mlfs_core.columns import DATASET
from mlfs_core.report import markdown_table


def md_table(df: pd.DataFrame, floatfmt: str = "{:.3f}") -> str:
    """A Markdown table; float columns formatted with ``floatfmt``, NaN empty.

    The table itself is written by the engine's one writer,
    :func:`mlfs_core.report.markdown_table`; here only the cells
    are formatted (every cell as text, so the writer formats nothing again).

    Examples
    --------
    >>> print(md_table(pd.DataFrame({"k": [1, 2], "p": [0.5, float("nan")]})))
    | k | p |
    |---|---|
    | 1 | 0.500 |
    | 2 |  |
    """
    cells = df.copy()
    for c in cells.columns:
        if pd.api.types.is_float_dtype(cells[c]):
            cells[c] = cells[c].map(lambda v: "" if pd.isna(v) else floatfmt.format(v))
    return markdown_table(cells.map(str))


def block(title: str, table: str, *intro: str) -> list[str]:
    """A heading, optional intro lines, then a table, each block ending blank."""
    return [title, "", *intro, table, ""]


def heading(title: str, meta: pd.DataFrame) -> list[str]:
    """A study's heading and the list of its datasets done."""
    return [
        title,
        "",
        f"Datasets done ({len(meta)}): " + ", ".join(meta[DATASET]) + ".",
        "",
    ]
