"""Which datasets of each study config are done, left out or pending.

Part of ``studies/report.py`` (see there).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from report_data import ROOT

from mlfs_core._constants import DATASET

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# Datasets of a study config that are deliberately not run: (study, dataset) -> why.
LEFT_OUT = {
    ("paper000", "delicious"): "983 labels, so each BR + LinearSVC fit is 983 SVMs "
    "on 14.5k samples; `bench/bench_br_fit.py` measures 31-33 s per fit at 50 % of "
    "the features, and protocol A needs 1,360 fits (10 folds x (9 budgets x 15 "
    "runs + AF)): about 12 h on one core, 6 h on both. Resumable: `python "
    "studies/run_study.py paper000 --datasets delicious --jobs 2`",
}
# Datasets not done yet (still running or queued): (study, dataset) -> note.
PENDING_NOTES: dict[tuple[str, str], str] = {}
# Methods paper 001 reports as unable to finish (section 4 of METHODS.md).
PAPER001_UNFINISHED = {
    "PMU": ["enron", "medical", "genbase", "tmc2007-500", "bibtex"],
    "D2F": ["enron", "medical", "genbase", "tmc2007-500", "bibtex"],
    "MDMR": ["enron", "medical", "genbase", "tmc2007-500", "bibtex"],
    "LRFS": ["bibtex"],
    "LSMFS": ["bibtex"],
    "MLSMFS": ["bibtex"],
}


def status_section(study: str, data: dict, root: Path = ROOT) -> list[str]:
    """Which datasets of the study config are done (with compute time) and which not."""
    config = tomllib.loads((root / "configs" / f"study_{study}.toml").read_text())
    wanted = [Path(d["path"]).name for d in config["datasets"]]
    meta = data.get("meta", pd.DataFrame(columns=[DATASET, "wall_seconds"]))
    done = dict(zip(meta[DATASET], meta["wall_seconds"]))

    def row(d: str) -> str:
        if d in done:
            return f"| {d} | done | {done[d]:.0f} |"
        if (study, d) in LEFT_OUT:
            return f"| {d} | left out | {LEFT_OUT[study, d]} |"
        return f"| {d} | not run yet | {PENDING_NOTES.get((study, d), 'queued')} |"

    rows = [row(d) for d in wanted]
    total = sum(done.values())
    left = [d for d in wanted if (study, d) in LEFT_OUT and d not in done]
    return [
        f"**Status of `configs/study_{study}.toml`:** {len(done)} of {len(wanted)} "
        f"datasets done, {total / 60:.0f} min of compute (wall time of each "
        "dataset's first run, one or two worker processes on a 2-core machine "
        "shared with other jobs)"
        + (f"; left out: {', '.join(left)} (see the table)." if left else "."),
        "",
        "| dataset | status | wall seconds / note |",
        "|---|---|---|",
        *rows,
        "",
    ]


def unfinished_elsewhere(sel: pd.DataFrame) -> list[str]:
    """The line naming methods paper 001 could not finish that finished here."""
    finished = [
        f"{m} on {d} ({sel.loc[d, m]:.1f} s)"
        for m, ds in PAPER001_UNFINISHED.items()
        for d in ds
        if d in sel.index and m in sel.columns and pd.notna(sel.loc[d, m])
    ]
    return [
        "Methods the paper reports as unable to finish that finished here: "
        + (", ".join(finished) if finished else "none of those datasets done yet")
        + ".",
        "",
    ]
