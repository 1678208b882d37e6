"""Which datasets of each study config are done, left out or pending.

Part of :mod:`studies.report` (see there).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from mlfs_core.columns import DATASET, N_FITTED, N_NOT_CONVERGED

from .data import ROOT, current_engine, stale_datasets
from .partial import Progress, read_progress

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# Protocol A's classifier fits per dataset: 10 folds x (9 budgets x 15 runs + AF).
FITS_PROTOCOL_A = 10 * (9 * 15 + 1)


def _delicious(study: str, seconds: tuple[float, float], measured: str) -> str:
    """Why delicious is left out, with the hours derived from a per-fit time
    range measured by ``bench/bench_br_fit.py --datasets delicious``.
    """
    low, high = (s * FITS_PROTOCOL_A / 3600 for s in seconds)
    hours = f"{low:.1f}" if high == low else f"{low:.1f}-{high:.1f}"
    return (
        "983 labels, so each BR + LinearSVC fit is 983 SVMs on 14.5k samples; "
        f"`bench/bench_br_fit.py --datasets delicious` measures {measured} per fit "
        f"at 50 % of the features, and protocol A needs {FITS_PROTOCOL_A:,} fits "
        f"(10 folds x (9 budgets x 15 runs + AF)): {hours} h on one core, half "
        f"that on both. Resumable: `python studies/run_study.py {study} "
        "--datasets delicious --jobs 2`"
    )


# Seconds per BR fit at 50 % of the features that ``bench/bench_br_fit.py``
# measured, for the datasets too costly to run in one sitting: (study, dataset) ->
# (low, high) and how it was measured.
BENCH_FIT_SECONDS = {
    ("paper000", "delicious"): (
        (23.4, 33.0),
        "23.4-33 s (two runs under different machine load)",
    ),
    # measured beside the raw fit in the same run: l2-rows 19.6 s vs 23.4 s (0.84x)
    ("paper000-l2", "delicious"): (
        (19.6, 19.6),
        "19.6 s with L2 rows (0.84x the raw fit measured in the same run)",
    ),
}
# Datasets of a study config that are deliberately not run: (study, dataset) -> why.
# A dataset with partial data (``studies/<study>/partial/<dataset>``) is in progress.
LEFT_OUT = {
    key: _delicious(key[0], seconds, measured)
    for key, (seconds, measured) in BENCH_FIT_SECONDS.items()
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


def study_datasets(study: str, root: Path = ROOT) -> list[str]:
    """Dataset folder names of ``configs/study_<study>.toml``, in config order."""
    config = tomllib.loads((root / "configs" / f"study_{study}.toml").read_text())
    return [Path(d["path"]).name for d in config["datasets"]]


def convergence_by_dataset(timings: pd.DataFrame) -> pd.Series:
    """Share of per-label classifier fits that stopped at max_iter, per dataset."""
    if N_NOT_CONVERGED not in timings.columns:
        return pd.Series(dtype=float)
    fits = timings[timings["stage"] == "fit"]
    sums = fits.groupby(DATASET)[[N_FITTED, N_NOT_CONVERGED]].sum()
    return (sums[N_NOT_CONVERGED] / sums[N_FITTED].where(sums[N_FITTED] > 0)).fillna(
        0.0
    )


def compute_by_dataset(timings: pd.DataFrame) -> pd.Series:
    """Core-seconds per dataset: the sum of every task's measured time.

    A task's time is stored with it in the runner's cache, so this counts each
    task once, whether the run was resumed, served from the cache or spread
    over several worker processes (unlike the wall time).
    """
    if "seconds" not in timings.columns or DATASET not in timings.columns:
        return pd.Series(dtype=float)
    return timings.groupby(DATASET)["seconds"].sum()


def with_partial_data(study: str, root: Path = ROOT) -> dict[str, Progress]:
    """Datasets of a study with partial data, done or not: name -> progress."""
    base = root / "studies" / study
    out = {}
    for folder in sorted(p for p in (base / "partial").glob("*") if p.is_dir()):
        progress = read_progress(folder)
        if progress is not None:
            out[folder.name] = progress
    return out


def in_progress(study: str, root: Path = ROOT) -> dict[str, Progress]:
    """Datasets of a study with partial data and no finished data: name -> progress."""
    base = root / "studies" / study
    return {
        name: progress
        for name, progress in with_partial_data(study, root).items()
        if not (base / "data" / name / "meta.json").exists()
    }


IN_PROGRESS_FILE = "in_progress.csv"


def write_in_progress(study: str, root: Path = ROOT) -> Path | None:
    """List the study's datasets in progress for the app, beside its results.

    ``studies/<study>/app/in_progress.csv`` (``dataset, done, total``): the app
    shows the study's results of the finished datasets only, and names these
    beside them as still running (``ui.results.in_progress_note``). The file is
    removed when no dataset is in progress.

    Returns
    -------
    Path or None
        The file written, or None when there is none.
    """
    path = root / "studies" / study / "app" / IN_PROGRESS_FILE
    running = in_progress(study, root)
    if not running:
        path.unlink(missing_ok=True)
        return None
    rows = [{DATASET: d, "done": p.done, "total": p.total} for d, p in running.items()]
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _cost_note(study: str, dataset: str, progress: Progress, when: str) -> str:
    """The measured cost of a dataset's computed fits beside the fit-cost
    benchmark's prediction; ``when`` qualifies the count ("so far" or "").
    """
    note = ""
    if progress.n_fits:
        hours = progress.fit_seconds * FITS_PROTOCOL_A / 3600
        note += (
            f"; {progress.fit_seconds:.1f} s of task time per BR fit over the "
            f"{progress.n_fits:,} computed{when}, {hours:.1f} h for protocol A's "
            f"{FITS_PROTOCOL_A:,} fits"
        )
        bench = BENCH_FIT_SECONDS.get((study, dataset))
        if bench is not None:
            low, high = (s * FITS_PROTOCOL_A / 3600 for s in bench[0])
            span = f"{low:.1f}" if high == low else f"{low:.1f}-{high:.1f}"
            note += (
                f" (`bench/bench_br_fit.py` predicted {bench[1]} per fit at 50 % "
                f"of the features: {span} h)"
            )
    if progress.cpu_seconds is not None:
        note += (
            f"; CPU time of the computing process {progress.cpu_seconds:.0f} s "
            "over the runs that measured it (the task times above also count "
            "waiting for a shared CPU)"
        )
        if progress.cpu_fit_seconds is not None:
            hours = progress.cpu_fit_seconds * FITS_PROTOCOL_A / 3600
            note += (
                f", {progress.cpu_fit_seconds:.1f} s per fit over the "
                f"{progress.n_cpu_fits:,} fits of those runs, after the "
                f"selections: {hours:.1f} core-hours for protocol A"
            )
    return note


def _workers(n_jobs: int) -> str:
    return "1 worker" if n_jobs == 1 else f"{n_jobs} workers"


def progress_note(study: str, dataset: str, progress: Progress) -> str:
    """The status table's note on a dataset in progress: its cost so far beside
    the fit-cost benchmark's prediction, and that it enters no table yet.
    """
    return (
        f"{progress.wall_seconds:.0f} ({_workers(progress.n_jobs)}) so far"
        f"{_cost_note(study, dataset, progress, ' so far')}; BLAS {progress.kernel}; "
        f"partial data in `studies/{study}/partial/{dataset}`, in no table or "
        "average until done"
    )


def parts_note(study: str, dataset: str, progress: Progress) -> str:
    """The status table's note on a finished dataset computed in parts (it has
    partial data): the wall time summed over its runs and its measured cost
    beside the fit-cost benchmark's prediction.

    The partial data stays committed after the dataset is done: it holds each
    run's provenance and CPU time, which the finished data does not.
    """
    runs = f"{progress.n_runs} runs" if progress.n_runs != 1 else "1 run"
    if not progress.n_runs:  # exported before runs were counted
        runs = "its runs"
    return (
        f"{progress.wall_seconds:.0f} ({_workers(progress.n_jobs)}), summed over "
        f"{runs}{_cost_note(study, dataset, progress, '')}; BLAS {progress.kernel}; "
        f"computed in parts: `studies/{study}/partial/{dataset}`"
    )


def _done_row(study: str, d: str, m: pd.Series, converged, compute, parts: dict) -> str:
    """The status table's row of the done dataset ``d`` (``m``: its meta)."""
    share = f"{converged[d]:.0%}" if d in converged.index else "n/a"
    version = f"{m['engine']} @ {str(m['commit'])[:7]}"
    core = f"{compute[d]:.0f}" if d in compute.index else "n/a"
    jobs = int(m.get("n_jobs", 1))  # load_study defaults it to 1
    wall = f"{m['wall_seconds']:.0f} ({_workers(jobs)})"
    if d in parts:
        wall = parts_note(study, d, parts[d])
    return f"| {d} | done | {core} | {wall} | {share} | {version} |"


def _running_row(study: str, d: str, p: Progress) -> str:
    """The status table's row of ``d``, in progress (``p``: its partial data)."""
    tasks = f"in progress: {p.done:,} of {p.total:,} tasks"
    share = f"{p.n_not_converged / p.n_fitted:.0%}" if p.n_fitted else "n/a"
    version = f"{p.engine} @ {p.commit[:7]}"
    note = progress_note(study, d, p)
    return f"| {d} | {tasks} | {p.compute_seconds:.0f} | {note} | {share} | {version} |"


def _waiting_row(study: str, d: str, stale: dict) -> str:
    """The status table's row of ``d`` without current data: left out, stale
    (data of another engine) or not run yet (with its pending note)."""
    if (study, d) in LEFT_OUT:
        return f"| {d} | left out | | {LEFT_OUT[study, d]} | | |"
    if d in stale:
        note = f"data from engine {stale[d]} not used: rerun with this engine"
        return f"| {d} | stale | | {note} | | |"
    note = PENDING_NOTES.get((study, d), "queued")
    return f"| {d} | not run yet | | {note} | | |"


def status_section(study: str, data: dict, root: Path = ROOT) -> list[str]:
    """Which datasets of the study config are done (with compute time, solver
    convergence and the code version that produced them) and which not.

    *compute s* is the sum of the tasks' measured times (core-seconds, see
    :func:`compute_by_dataset`); *wall s* is the last run's wall time with its
    number of worker processes (the first run's when a rerun only re-read the
    cache), or, for a dataset computed in parts (it has partial data), the sum
    over its runs with the cost note of :func:`parts_note`.
    """
    wanted = study_datasets(study, root)
    meta = data.get("meta", pd.DataFrame(columns=[DATASET, "wall_seconds"]))
    meta = meta.set_index(DATASET) if DATASET in meta.columns else meta
    timings = data.get("timings", pd.DataFrame())
    converged = convergence_by_dataset(timings)
    compute = compute_by_dataset(timings)
    stale = stale_datasets(study, root)
    running = in_progress(study, root)
    parts = with_partial_data(study, root)

    def row(d: str) -> str:
        if d in meta.index:
            return _done_row(study, d, meta.loc[d], converged, compute, parts)
        if d in running:
            return _running_row(study, d, running[d])
        return _waiting_row(study, d, stale)

    rows = [row(d) for d in wanted]
    done = [d for d in wanted if d in meta.index]
    total = float(compute.reindex(done).fillna(0.0).sum())
    left = [
        d
        for d in wanted
        if (study, d) in LEFT_OUT and d not in meta.index and d not in running
    ]
    going = [d for d in wanted if d in running]
    return [
        f"**Status of `configs/study_{study}.toml`:** {len(meta)} of {len(wanted)} "
        f"datasets done with engine {current_engine()}, {total / 3600:.1f} core-hours "
        "of compute (*compute s*: the sum of every task's measured time, counted "
        "once however the run was resumed or split over workers; *wall s*: the "
        "wall time of the run that finished the dataset, with its worker "
        "processes, on a 2-core machine shared with other jobs; a run resumed "
        "from the cache counts only its own part, so compute s can exceed wall s "
        "times the workers; a dataset computed in parts shows its runs' sum)"
        + (f"; in progress: {', '.join(going)} (see the table)" if going else "")
        + (f"; left out: {', '.join(left)} (see the table)." if left else ".")
        + " *Not converged* is the share of per-label LinearSVC fits that stopped "
        "at liblinear's max_iter (1000) without converging (ML-kNN has no solver).",
        "",
        "| dataset | status | compute s | wall s (workers) / note | not converged "
        "| engine @ commit |",
        "|---|---|---|---|---|---|",
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
