"""Study 1's sensitivity check: the primary study with L2-normalised rows.

Part of :mod:`studies.report` (see there). ``configs/study_paper000-l2.toml`` is
the primary with ``scaling = "l2-rows"``, with its own data folder and its own
section: a status table always, the analysis once current-engine data exist;
it is never mixed into the primary study's tables. Paper 000's claims (one
verdict rule, :func:`studies.paper000.claims_paper000`) on the datasets both
studies have, primary beside L2, and whether any verdict changes; the
non-converged share of each side.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlfs_core.columns import DATASET

from .data import load_study
from .markdown import block, md_table
from .paper000 import claims_leaving_out_each, claims_paper000, verdict_cell
from .status import convergence_by_dataset, status_section

L2 = "paper000-l2"


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
    loo = _changes_without_each(primary, l2, common)
    if loo is not None:
        both["changed_one_left_out"] = loo
        both["subsets_one_left_out"] = len(common)
    return both, _l2_sentence(both, common, loo)


def _l2_sentence(both: pd.DataFrame, common: list[str], loo: list[int] | None) -> str:
    """The sentence under :func:`l2_comparison`'s table: which conclusions change
    with L2-normalised rows on ``common``, and, with ``loo`` (the counts of
    :func:`_changes_without_each`), in how many subsets with one dataset left
    out."""
    names, n = ", ".join(common), len(common)
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
    return sentence


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
        "converges where raw word counts stop it at max_iter. "
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
