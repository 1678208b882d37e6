"""The report's one Markdown table writer, and its blocks of lines."""

from __future__ import annotations

import pandas as pd

from mlfs_core.columns import DATASET


def md_table(df: pd.DataFrame, floatfmt: str = "{:.3f}") -> str:
    """A Markdown table; float columns formatted with ``floatfmt``, NaN empty."""
    df = df.copy()
    for c in df.columns:
        if pd.api.types.is_float_dtype(df[c]):
            df[c] = df[c].map(lambda v: "" if pd.isna(v) else floatfmt.format(v))
    head = "| " + " | ".join(str(c) for c in df.columns) + " |"
    sep = "|" + "---|" * len(df.columns)
    rows = [
        "| " + " | ".join(str(v) for v in r) + " |" for r in df.itertuples(index=False)
    ]
    return "\n".join([head, sep, *rows])


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
