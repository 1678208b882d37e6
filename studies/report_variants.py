"""Study 1's variants: the L2-rows sensitivity check and the secondary table.

Part of ``studies/report.py`` (see there). Each variant is its own study
config (``configs/study_paper000-l2.toml``, ``configs/study_paper000-
secondary.toml``) with its own data folder, and its own section: a status
table always, the analysis once current-engine data exist. Neither is ever
mixed into the primary study's tables.

- ``paper000-l2`` (issue 11 item 2): the primary with ``scaling = "l2-rows"``.
  Paper 000's claims (one verdict rule, :func:`report_claims.claims_paper000`)
  on the datasets both studies have, primary beside L2, and whether any
  verdict changes; the non-converged share of each side.
- ``paper000-secondary`` (issue 11 item 1): the protocol on the other shared
  datasets with ``binarize = "median"``; Tables 4/5 and 6 as for the primary,
  labelled as not the paper's datasets, and one summary line: which method
  has the best average micro-F1 rank at the most budgets in each table.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from report_claims import (
    claims_leaving_out_each,
    claims_paper000,
    rank_tables,
    verdict_cell,
)
from report_data import load_study, write_app_sources
from report_render import _block as block
from report_render import md_table, table6, tables_4_5
from report_status import convergence_by_dataset, status_section

from mlfs_core.columns import DATASET

L2 = "paper000-l2"
SECONDARY = "paper000-secondary"
NOT_THE_PAPERS = ", not the paper's datasets"


def _only(data: dict, datasets: list[str]) -> dict:
    """``results``, ``similarity`` and ``timings`` of ``datasets`` only."""
    return {
        key: data[key][data[key][DATASET].isin(datasets)]
        for key in ("results", "similarity", "timings")
        if key in data
    }


def common_datasets(primary: dict, l2: dict) -> list[str]:
    """Datasets done (current engine) in both studies, sorted."""
    empty = pd.DataFrame(columns=[DATASET])
    done = set(l2.get("meta", empty)[DATASET])
    return sorted(done & set(primary.get("meta", empty)[DATASET]))


def l2_comparison(primary: dict, l2: dict) -> tuple[pd.DataFrame | None, str]:
    """Claim verdicts of the primary and the L2 study on the datasets both have.

    Returns
    -------
    (DataFrame or None, str)
        One row per claim (``claim, stated, primary, l2_rows, changed`` plus
        the holds/ties/fails counts of each side), or None when there is
        nothing to compare; and the sentence saying whether any conclusion
        changes.
    """
    common = common_datasets(primary, l2)
    if not common:
        return None, "No dataset is done in both studies yet: nothing to compare."
    a, b = _only(primary, common), _only(l2, common)
    mine = claims_paper000(a["results"], a["similarity"])
    theirs = claims_paper000(b["results"], b["similarity"])
    names = ", ".join(common)
    if mine is None or theirs is None:
        return None, (
            f"On {names}: not compared, a stated budget or method is missing."
        )
    both = mine.merge(theirs, on=["claim", "stated"], suffixes=("_primary", "_l2"))
    both["primary"] = [verdict_cell(r) for r in mine.itertuples()]
    both["l2_rows"] = [verdict_cell(r) for r in theirs.itertuples()]
    both["changed"] = both["verdict_primary"] != both["verdict_l2"]
    n = len(common)
    loo = _changes_without_each(primary, l2, common)
    if loo is not None:
        both["changed_one_left_out"] = loo
        both["subsets_one_left_out"] = n
    changed = both[both["changed"]]
    where = (
        f"On the {len(common)} datasets both studies have ({names})"
        if len(common) != 1
        else f"On the one dataset both studies have ({names})"
    )
    if changed.empty:
        sentence = (
            f"{where}, no conclusion changes: every claim gets the same "
            "verdict with and without L2-normalised rows."
        )
    else:
        moves = "; ".join(
            f"{r.claim}: {r.verdict_primary} -> {r.verdict_l2}"
            + (
                ""
                if loo is None
                else f" (changes in {r.changed_one_left_out} of {n} subsets with "
                "one dataset left out)"
            )
            for r in changed.itertuples()
        )
        sentence = (
            f"{where}, {len(changed)} of {len(both)} conclusions change with "
            f"L2-normalised rows: {moves}."
        )
    if loo is not None:
        flips = "; ".join(
            f"{r.claim} in {r.changed_one_left_out} of {n}"
            for r in both.itertuples()
            if r.changed_one_left_out and not r.changed
        )
        if flips:
            what = (
                "some subsets do change a conclusion"
                if changed.empty
                else "other conclusions change in some subsets"
            )
            sentence += f" With one dataset left out in turn, {what}: {flips}."
    return both, sentence


def _changes_without_each(
    primary: dict, l2: dict, common: list[str]
) -> list[int] | None:
    """Per claim, in how many leave-one-dataset-out subsets of ``common`` its
    verdict differs between the two studies; None below 3 common datasets or
    when a subset cannot be checked (then no count would be honest)."""
    if len(common) < 3:
        return None
    a, b = _only(primary, common), _only(l2, common)
    counts = None
    for (_, mine), (_, theirs) in zip(
        claims_leaving_out_each(a["results"], a["similarity"]),
        claims_leaving_out_each(b["results"], b["similarity"]),
        strict=True,
    ):
        if mine is None or theirs is None:
            return None
        diff = (mine["verdict"] != theirs["verdict"]).astype(int).to_numpy()
        counts = diff if counts is None else counts + diff
    return [int(c) for c in counts]


def _convergence(primary: dict, l2: dict, common: list[str]) -> str:
    raw = convergence_by_dataset(primary.get("timings", pd.DataFrame()))
    norm = convergence_by_dataset(l2.get("timings", pd.DataFrame()))
    cells = [
        f"{d} {raw[d]:.0%} -> {norm[d]:.0%}"
        for d in common
        if d in raw.index and d in norm.index
    ]
    if not cells:
        return ""
    return "Not converged (raw counts -> L2 rows): " + ", ".join(cells) + "."


def l2_section(primary: dict, root: Path) -> tuple[list[str], list[str]]:
    """The sensitivity check's section and its summary line(s)."""
    data = load_study(L2, root=root)
    lines = [
        "## Study 1, sensitivity check: L2-normalised rows",
        "",
        f"`configs/study_{L2}.toml` is the primary study with one change: every "
        "row of the classifier's input is divided by its L2 norm over the "
        'selected columns (`scaling = "l2-rows"`), under which liblinear '
        "converges where raw word counts stop it at max_iter (issue 11 item 2). "
        "The selections are the same; only the classifier's input differs. Its "
        "results stay in this section and never enter Study 1's tables.",
        "",
        *status_section(L2, data, root),
    ]
    if "results" not in data:
        text = "No dataset of the L2 study is done with this engine yet."
        return lines + [text, ""], [f"Sensitivity check (L2 rows): {text}", ""]
    both, sentence = l2_comparison(primary, data)
    if both is None:
        return lines + [sentence, ""], [f"Sensitivity check (L2 rows): {sentence}", ""]
    tables = root / "studies" / L2 / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    both.to_csv(tables / "claims_vs_primary.csv", index=False)
    common = common_datasets(primary, data)
    shown = both[["claim", "stated", "primary", "l2_rows", "changed"]].rename(
        columns={"stated": "stated for", "l2_rows": "L2 rows"}
    )
    shown["changed"] = shown["changed"].map({True: "**yes**", False: "no"})
    lines += block(
        "### Paper 000's claims (micro-F1): raw counts vs L2-normalised rows",
        md_table(shown),
        sentence,
        "",
        _convergence(primary, data, common),
        "",
    )
    return lines, [f"Sensitivity check (L2 rows): {sentence}", ""]


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
    for metric in ("micro_f1", "macro_f1"):
        lines += tables_4_5(
            data["results"],
            metric,
            tables,
            png,
            root,
            prefix=prefix,
            note=NOT_THE_PAPERS,
        )
    lines += table6(
        data["similarity"], tables, png, root, prefix=prefix, note=NOT_THE_PAPERS
    )
    return lines, secondary_summary(data)
