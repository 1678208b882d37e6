"""A dataset's finished tasks as committed partial data, so a study resumes anywhere.

A study writes its compact per-dataset files (``studies/<study>/data/<dataset>/``)
only when the dataset completes. A dataset that takes longer than one sitting
(paper 000's delicious: about ten core-hours) would otherwise live only in the
task cache of the machine that ran it. This module moves finished tasks
between a task cache and ``studies/<study>/partial/<dataset>/``:

- ``tasks.jsonl.gz``: one finished task per line, in plan order: its cache
  ``key``, what it is (``kind``, ``method``, ``fold``, ``repeat``, ``budget``),
  its cached ``value`` exactly as the runner stored it, and the ``engine``,
  ``commit`` and BLAS ``kernel`` of the run that computed it;
- ``progress.json``: how many of the dataset's tasks are done, their measured
  core-seconds, and each run's wall time.

:func:`export_partial` writes both from a cache; :func:`import_partial` writes
the exported values back into a (fresh) cache under the same keys, so the
runner finds them and computes only the missing tasks. The values are stored
as JSON, like the cache itself, so they come back bit for bit.

Which run computed a task: every run of ``run_study`` appends a *run record*
(:func:`record_run`: study, dataset, engine, commit, kernel, start time) to
``runs.jsonl`` in the cache folder. A task exported for the first time is
credited to the latest run of its dataset that started before the task's
cache entry was written; a task already in the partial data keeps the
provenance it was exported with.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from mlfs_core.cache import DiskCache
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import plan_experiment

TASKS_FILE = "tasks.jsonl.gz"
PROGRESS_FILE = "progress.json"
RUNS_FILE = "runs.jsonl"
UNRECORDED = "unrecorded"
PROVENANCE = ("engine", "commit", "kernel")


@dataclass(frozen=True)
class PlannedTask:
    """One task of a dataset's plan: its cache key and what it computes.

    Attributes
    ----------
    key : str
        The runner's cache key of the task.
    kind : str
        ``"selection"`` or ``"fit"``.
    method : str
        The method's label.
    fold, repeat : int
        The fold and the repeat (0 for deterministic methods).
    budget : int or None
        The number of features of a fit (None for a selection).
    """

    key: str
    kind: str
    method: str
    fold: int
    repeat: int
    budget: int | None


@dataclass(frozen=True)
class Progress:
    """How far a dataset of a study is, from its partial data.

    Attributes
    ----------
    done, total : int
        Finished tasks and tasks of the plan.
    compute_seconds : float
        The sum of the finished tasks' measured times (core-seconds).
    wall_seconds : float
        The sum over runs of the time from the run's start to its last task.
    fit_seconds : float
        The mean time of a computed (not reused) classifier fit.
    n_fits : int
        Computed (not reused) classifier fits among the finished tasks.
    n_fitted, n_not_converged : int
        Per-label classifier fits of those, and how many stopped at ``max_iter``.
    n_jobs : int
        The largest number of worker processes of a run.
    engine, commit, kernel : str
        The provenance of the finished tasks, ``+``-joined where runs differ.
    updated : str
        When the partial data was exported (UTC, ISO 8601).
    cpu_seconds : float or None
        CPU time of the computing processes, summed over the runs that
        measured it (None when none did); unlike the task times it leaves out
        the time a task waited for the CPU on a shared machine.
    selection_seconds : float
        The finished selections' measured times (part of ``compute_seconds``).
    n_runs : int
        How many runs computed the finished tasks.
    cpu_fit_seconds : float or None
        CPU seconds per computed classifier fit, over the runs whose CPU time
        is known (:func:`cpu_per_fit`); None when no such run computed a fit.
    n_cpu_fits : int
        The computed fits ``cpu_fit_seconds`` is taken over.
    """

    done: int
    total: int
    compute_seconds: float
    wall_seconds: float
    fit_seconds: float
    n_fits: int
    n_fitted: int
    n_not_converged: int
    n_jobs: int
    engine: str
    commit: str
    kernel: str
    updated: str
    cpu_seconds: float | None = None
    selection_seconds: float = 0.0
    n_runs: int = 0
    cpu_fit_seconds: float | None = None
    n_cpu_fits: int = 0


def plan_tasks(config) -> list[PlannedTask]:
    """Every task :func:`mlfs_core.run_experiment` runs for ``config``, in its order.

    Parameters
    ----------
    config : ExperimentConfig
        The config of one dataset (as ``run_study`` runs it).

    Returns
    -------
    list of PlannedTask
        The selections, then the fits, each with the key the runner caches it
        under (:func:`mlfs_core.evaluation.plan_experiment`'s own keys).
    """
    plan = plan_experiment(config)
    tasks = [
        PlannedTask(s.key, "selection", s.method.label, s.fold, s.repeat, None)
        for s in plan.selections
    ]
    for i, fit in enumerate(plan.fits):
        s = plan.selections[fit.selection]
        tasks.append(
            PlannedTask(plan.fit_key(i), "fit", s.method.label, s.fold, s.repeat, fit.k)
        )
    return tasks


def utc_now() -> str:
    """The current time, UTC, ISO 8601 to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def record_run(
    cache_dir: Path,
    *,
    study: str,
    dataset: str,
    engine: str,
    commit: str,
    kernel: str,
    jobs: int = 1,
    started: str | None = None,
) -> dict:
    """Append a run record to the cache folder's ``runs.jsonl`` and return it.

    Parameters
    ----------
    cache_dir : path
        The task cache the run writes to.
    study, dataset : str
        What the run computes.
    engine, commit, kernel : str
        The run's code version (``run_study.code_version()``) and BLAS kernel
        (:func:`mlfs_core.blas.kernel_id`).
    jobs : int, default=1
        The run's worker processes.
    started : str, optional
        Start time (UTC, ISO 8601); default now, to the microsecond: the start
        time identifies the run, also among runs started within one second.

    Returns
    -------
    dict
    """
    record = {
        "study": study,
        "dataset": dataset,
        "engine": engine,
        "commit": commit,
        "kernel": kernel,
        "jobs": int(jobs),
        "started": started or datetime.now(timezone.utc).isoformat(),
    }
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    with open(cache_dir / RUNS_FILE, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record, sort_keys=True) + "\n")
    return record


def read_runs(cache_dir: Path, study: str, dataset: str) -> list[dict]:
    """The run records of ``study``/``dataset`` in ``cache_dir``, oldest first."""
    path = Path(cache_dir) / RUNS_FILE
    if not path.is_file():
        return []
    runs = [json.loads(line) for line in path.read_text().splitlines() if line]
    mine = [r for r in runs if r["study"] == study and r["dataset"] == dataset]
    return sorted(mine, key=lambda r: _time(r["started"]))


def _time(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def _iso(timestamp: float) -> str:
    moment = datetime.fromtimestamp(timestamp, timezone.utc).replace(microsecond=0)
    return moment.isoformat()


def read_partial(folder: Path) -> list[dict]:
    """The exported tasks of ``folder`` (empty when there are none).

    Parameters
    ----------
    folder : path
        ``studies/<study>/partial/<dataset>``.

    Returns
    -------
    list of dict
        One dict per task, as :func:`export_partial` wrote it.
    """
    path = Path(folder) / TASKS_FILE
    if not path.is_file():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def read_progress(folder: Path) -> Progress | None:
    """The :class:`Progress` of ``folder``'s ``progress.json``, or None if absent."""
    path = Path(folder) / PROGRESS_FILE
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return Progress(**{k: data[k] for k in Progress.__dataclass_fields__ if k in data})


def _provenance(mtime: float, runs: Sequence[dict]) -> dict:
    started = [r for r in runs if _time(r["started"]) <= mtime]
    if not started:
        return dict.fromkeys(PROVENANCE, UNRECORDED) | {"run": None}
    run = started[-1]
    return {k: run[k] for k in PROVENANCE} | {"run": run["started"]}


def _task_seconds(row: dict) -> float:
    value = row["value"]
    if row["kind"] == "selection":
        return float(value.get("seconds", 0.0))
    parts = ("fit_seconds", "predict_seconds", "metric_seconds")
    return float(sum(value.get(p) or 0.0 for p in parts))


def _joined(rows: Iterable[dict], field: str) -> str:
    return "+".join(sorted({str(r[field]) for r in rows})) or UNRECORDED


def _computed_fit(row: dict) -> bool:
    return row["kind"] == "fit" and not row["value"].get("reused", False)


def cpu_per_fit(rows: Sequence[dict], runs: Sequence[dict]) -> tuple[float | None, int]:
    """CPU seconds per computed classifier fit, over the runs that measured it.

    A task carries the provenance (engine, commit, kernel) of the run that
    computed it, not the run itself, so tasks and CPU times are matched by
    provenance: a provenance whose runs all recorded their CPU time counts
    with all its tasks; one with any run that did not (a run started without
    the measurement, or with more than one job) is left out whole. The
    selections' task times stand in for their CPU time and are subtracted.
    The CPU time of a run also holds its start (loading the dataset) and the
    fit it was stopped in, so a run stopped often costs a little more per fit.

    Parameters
    ----------
    rows : sequence of dict
        Exported tasks (:func:`read_partial`).
    runs : sequence of dict
        Run records with ``cpu_seconds`` (None where not measured).

    Returns
    -------
    (float or None, int)
        Seconds per fit (None when no measured run computed a fit) and the
        number of fits it is taken over.
    """
    groups: dict[tuple, list[dict]] = {}
    for run in runs:
        groups.setdefault(tuple(run.get(k) for k in PROVENANCE), []).append(run)
    measured = {
        key: sum(r["cpu_seconds"] for r in group)
        for key, group in groups.items()
        if all(r.get("cpu_seconds") is not None for r in group)
    }
    mine = [r for r in rows if tuple(r.get(k) for k in PROVENANCE) in measured]
    n_fits = sum(1 for r in mine if _computed_fit(r))
    if not n_fits:
        return None, 0
    cpu = sum(measured.values())
    cpu -= sum(_task_seconds(r) for r in mine if r["kind"] == "selection")
    return round(cpu / n_fits, 2), n_fits


def summarize(rows: Sequence[dict], total: int, runs: Sequence[dict]) -> Progress:
    """The :class:`Progress` of exported ``rows`` out of ``total`` planned tasks.

    ``runs`` are the run records with ``last`` (the time of the run's last
    task, ISO 8601) added; a run's wall time is from its start to its last task.
    """
    fits = [r for r in rows if _computed_fit(r)]
    cpu_fit, n_cpu_fits = cpu_per_fit(rows, runs)
    fit_total = sum(float(r["value"].get("fit_seconds") or 0.0) for r in fits)
    wall = sum(max(0.0, _time(r["last"]) - _time(r["started"])) for r in runs)
    cpu = [r["cpu_seconds"] for r in runs if r.get("cpu_seconds") is not None]
    solver = [r["value"] for r in fits]
    return Progress(
        done=len(rows),
        total=total,
        compute_seconds=round(sum(_task_seconds(r) for r in rows), 1),
        wall_seconds=round(wall, 1),
        fit_seconds=round(fit_total / len(fits), 2) if fits else 0.0,
        n_fits=len(fits),
        n_fitted=int(sum(v.get("n_fitted") or 0 for v in solver)),
        n_not_converged=int(sum(v.get("n_not_converged") or 0 for v in solver)),
        n_jobs=max((int(r.get("jobs", 1)) for r in runs), default=1),
        engine=_joined(rows, "engine"),
        commit=_joined(rows, "commit"),
        kernel=_joined(rows, "kernel"),
        updated=utc_now(),
        cpu_seconds=round(sum(cpu), 1) if cpu else None,
        selection_seconds=round(
            sum(_task_seconds(r) for r in rows if r["kind"] == "selection"), 1
        ),
        n_runs=len(runs),
        cpu_fit_seconds=cpu_fit,
        n_cpu_fits=n_cpu_fits,
    )


def _task_row(task: PlannedTask, value, origin: dict) -> dict:
    """The exported row of ``task``: its identity, its cached ``value`` and the
    provenance (:data:`PROVENANCE`) of the run in ``origin``."""
    return {
        "key": task.key,
        "kind": task.kind,
        "method": task.method,
        "fold": task.fold,
        "repeat": task.repeat,
        "budget": task.budget,
        "value": value,
        **{k: origin[k] for k in PROVENANCE},
    }


def export_partial(
    tasks: Sequence[PlannedTask],
    cache_dir: Path,
    folder: Path,
    *,
    study: str,
    dataset: str,
    cpu_seconds: float | None = None,
) -> Progress:
    """Write the finished tasks of ``tasks`` found in ``cache_dir`` to ``folder``.

    Tasks already in ``folder`` keep their exported value and provenance;
    the others are credited to the run that wrote their cache entry (see the
    module docstring). The files are rewritten only from complete data
    (temporary file, then rename), in plan order, gzip without a timestamp.

    Parameters
    ----------
    tasks : sequence of PlannedTask
        The dataset's plan (:func:`plan_tasks`).
    cache_dir : path
        The task cache.
    folder : path
        ``studies/<study>/partial/<dataset>``.
    study, dataset : str
        Which run records apply.
    cpu_seconds : float, optional
        CPU time so far of the latest run's process (:func:`process_cpu_seconds`),
        recorded with that run.

    Returns
    -------
    Progress
    """
    folder = Path(folder)
    cache = DiskCache(cache_dir)
    before = {row["key"]: row for row in read_partial(folder)}
    runs = read_runs(cache_dir, study, dataset)
    last: dict[str | None, float] = {}
    rows = []
    for task in tasks:
        row = before.get(task.key)
        if row is None:
            value = cache.get(task.key)
            if value is None:
                continue
            mtime = cache._path(task.key).stat().st_mtime
            origin = _provenance(mtime, runs)
            last[origin["run"]] = max(last.get(origin["run"], 0.0), mtime)
            row = _task_row(task, value, origin)
        rows.append(row)
    previous = read_progress(folder)
    earlier = _earlier_runs(folder, previous)
    current = [
        r | {"last": _iso(last[r["started"]])} for r in runs if r["started"] in last
    ]
    merged = {r["started"]: r for r in [*earlier, *current]}
    latest = runs[-1]["started"] if runs else None
    if cpu_seconds is not None and latest in merged:
        merged[latest] = {**merged[latest], "cpu_seconds": round(cpu_seconds, 1)}
    progress = summarize(rows, len(tasks), list(merged.values()))
    folder.mkdir(parents=True, exist_ok=True)
    _write_atomic(folder / TASKS_FILE, _gzip_lines(rows))
    payload = {
        **progress.__dict__,
        "runs": [
            {
                **{k: r[k] for k in ("started", "last", *PROVENANCE)},
                "jobs": r.get("jobs", 1),
                "cpu_seconds": r.get("cpu_seconds"),
            }
            for r in merged.values()
        ],
    }
    text = json.dumps(payload, indent=2, sort_keys=True) + "\n"
    _write_atomic(folder / PROGRESS_FILE, text.encode("utf-8"))
    return progress


def process_cpu_seconds(pid: int | None = None) -> float | None:
    """CPU time (user + system) of process ``pid`` so far, or None where unknown.

    Parameters
    ----------
    pid : int, optional
        Another process, read from Linux's ``/proc/<pid>/stat``; default this
        process (:func:`time.process_time`, any system).

    Returns
    -------
    float or None
        Seconds; None when ``/proc`` has no such process.
    """
    if pid is None:
        return time.process_time()
    try:
        fields = Path(f"/proc/{int(pid)}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError, ValueError):
        return None
    # after the command name: state is field 3, utime and stime are 14 and 15
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _earlier_runs(folder: Path, previous: Progress | None) -> list[dict]:
    if previous is None:
        return []
    data = json.loads((folder / PROGRESS_FILE).read_text(encoding="utf-8"))
    return list(data.get("runs", []))


def _gzip_lines(rows: Sequence[dict]) -> bytes:
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as fh:
        for row in rows:
            # keys in the order given: the value's keys (a fit's metrics) keep the
            # runner's order, which fixes the row order of the study's tables
            line = json.dumps(row, separators=(",", ":"))
            fh.write((line + "\n").encode("utf-8"))
    return buffer.getvalue()


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def import_partial(
    tasks: Sequence[PlannedTask], folder: Path, cache_dir: Path, *, engine: str
) -> int:
    """Write ``folder``'s exported tasks into the cache ``cache_dir``.

    Entries already in the cache are left as they are.

    Parameters
    ----------
    tasks : sequence of PlannedTask
        The dataset's plan under this engine (:func:`plan_tasks`).
    folder : path
        ``studies/<study>/partial/<dataset>``.
    cache_dir : path
        The task cache to fill.
    engine : str
        This engine's version (``run_study.code_version()["engine"]``).

    Returns
    -------
    int
        The number of entries written.

    Raises
    ------
    ConfigError
        When the partial data was computed by another engine version, or
        holds a task that is not in this plan (its keys were made by code
        that keys tasks differently): such values must not be resumed.
    """
    rows = read_partial(folder)
    other = sorted({r["engine"] for r in rows} - {engine})
    if other:
        raise ConfigError(
            f"partial data in {folder} was computed by engine {', '.join(other)}, "
            f"this is {engine}: it cannot be resumed here (rerun from scratch, or "
            "check out the commit it names)"
        )
    planned = {t.key for t in tasks}
    unknown = [r for r in rows if r["key"] not in planned]
    if unknown:
        first = unknown[0]
        raise ConfigError(
            f"{len(unknown)} task(s) of the partial data in {folder} are not in this "
            f"study's plan (first: {first['kind']} {first['method']} fold "
            f"{first['fold']}): the config or the task keys changed"
        )
    cache = DiskCache(cache_dir)
    written = 0
    for row in rows:
        if cache.get(row["key"]) is None:
            cache.set(row["key"], row["value"])
            written += 1
    return written
