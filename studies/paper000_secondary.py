"""Paper 000's protocol on the other shared datasets: the secondary table.

Part of :mod:`studies.report` (see there). ``configs/study_paper000-secondary.toml``
runs the protocol on the shared datasets that are not paper 000's, with
``binarize = "median"``, in its own data folder and its own section, never
mixed into the primary study's tables: Tables 4/5 and 6 as for the primary,
labelled as not the paper's datasets, and one summary line: which method has
the best average micro-F1 rank at the most budgets in each table.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlfs_core.columns import DATASET

from .data import load_study, write_app_sources
from .paper000 import Output, rank_tables, table6, tables_4_5
from .status import status_section

SECONDARY = "paper000-secondary"


NOT_THE_PAPERS = ", not the paper's datasets"


def best_counts(ranks: pd.DataFrame) -> str:
    """``"RoR at 6 of 9 budgets (1 tied)"``: the method with the best average rank
    at the most budgets of one rank table (``budget_pct``, ``method``, ``best``).

    A budget where two or more methods share the best rank is a tie: it counts
    for none of them and is reported as tied. Equal counts name every leader
    (``"MaxCS, MeanCS at 3 of 9 budgets"``).
    """
    best = ranks[ranks["best"]]
    per_budget = best.groupby("budget_pct")["method"].agg(list)
    n_budgets = ranks["budget_pct"].nunique()
    sole = per_budget[per_budget.map(len) == 1].map(lambda m: m[0])
    tied = int((per_budget.map(len) > 1).sum())
    ties = f" ({tied} tied)" if tied else ""
    if sole.empty:
        return f"no single best at any of {n_budgets} budgets{ties}"
    counts = sole.value_counts()
    leaders = sorted(counts[counts == counts.max()].index)
    return f"{', '.join(leaders)} at {counts.max()} of {n_budgets} budgets{ties}"


def secondary_summary(data: dict) -> list[str]:
    """The summary's line on the secondary table (empty without current data)."""
    if "results" not in data:
        return []
    table4, table5 = rank_tables(data["results"], "micro_f1")
    cs, bns = (best_counts(table4[table4["measure"] == m]) for m in ("CS", "BNS"))
    n = len(data["meta"])
    return [
        f"Secondary table ({n} shared dataset{'s' * (n != 1)}, not paper 000's, "
        'binarize = "median"; never in Study 1\'s averages), best average '
        f"micro-F1 rank: CS aggregations {cs}; BNS aggregations {bns}; "
        f"Table 5 methods {best_counts(table5)}.",
        "",
    ]


def secondary_section(png: bool, root: Path) -> tuple[list[str], list[str]]:
    """Tables 4/5 and 6 on the other shared datasets (not the paper's), and
    the summary's line on them (:func:`secondary_summary`), from one load.
    """
    data = load_study(SECONDARY, root=root)
    lines = [
        "## Secondary table: paper 000's protocol on other datasets (not the "
        "paper's datasets)",
        "",
        f"`configs/study_{SECONDARY}.toml`: the same protocol on the shared "
        "datasets that are not among paper 000's, mostly dense numeric data, so "
        "every CS/BNS method counts a feature as present when it is above its "
        'median over the training fold (`binarize = "median"`). A separate '
        "table: these datasets are never averaged with Study 1's, and the "
        "paper's numbers are not set beside them.",
        "",
        *status_section(SECONDARY, data, root),
    ]
    if "results" not in data:
        return lines + [
            "No dataset of this table is done with this engine yet.",
            "",
        ], []
    write_app_sources(SECONDARY, data, root)  # the app's "other datasets" source
    tables = root / "studies" / SECONDARY / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    meta = data["meta"]
    lines += [f"Datasets done ({len(meta)}): " + ", ".join(meta[DATASET]) + ".", ""]
    prefix = SECONDARY.replace("-", "_")
    out = Output(tables, png, root, prefix=prefix, note=NOT_THE_PAPERS)
    for metric in ("micro_f1", "macro_f1"):
        lines += tables_4_5(data["results"], metric, out)
    lines += table6(data["similarity"], out)
    return lines, secondary_summary(data)
