"""Studies resume anywhere: export a dataset's finished tasks, import them into a
fresh cache, and resume with only the missing tasks (``studies.partial``).
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import mlfs_core  # noqa: F401 - first: pins the BLAS kernel

# isort: split
import pandas as pd
import pytest

from mlfs_core.blas import kernel_id
from mlfs_core.cache import DiskCache
from mlfs_core.data.synthetic import make_planted_corpus, write_mulan
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.runner.execute import tasks as _tasks
from studies import data as report_data
from studies import partial, run_study, status

TINY_CONFIG = """\
name = "study-tiny"
seed = 0
methods = ["MaxCS", "RaRCS", "Random", "AF"]

[protocol]
name = "A"
split = "cv"
n_folds = 2
budgets = [20, 50, 80]
budget_unit = "percent"
scaling = "none"
n_repeats = 2
label_handling = "keep"
on_sparse_label = "warn"
metrics = ["micro_f1", "macro_f1"]

[protocol.classifier]
name = "linear_svc"
params = {{ C = 3.0, tol = 0.001 }}

[[datasets]]
path = "{path}"
"""
OUTPUTS = ("results.csv.gz", "selections.csv.gz", "similarity.csv")


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    """A small planted corpus as a Mulan dataset folder (seeded)."""
    folder = tmp_path_factory.mktemp("planted") / "planted"
    folder.mkdir()
    dataset, _ = make_planted_corpus(80, 40, 3, 2, random_state=0)
    write_mulan(dataset, folder, "planted")
    return folder


def _root(base: Path, dataset: Path) -> Path:
    """A project root holding only the tiny study's config (as ``paper000``)."""
    (base / "configs").mkdir(parents=True)
    text = TINY_CONFIG.format(path=dataset.as_posix())
    (base / "configs" / "study_paper000.toml").write_text(text)
    return base


class _Counter:
    """Counts the selections and classifier fits actually computed."""

    def __init__(self, monkeypatch, fail_after: int | None = None):
        self.ranks, self.fits = 0, 0
        rank, make = _tasks.compute_ranking, _tasks.make_classifier

        def counted_rank(*args, **kwargs):
            self.ranks += 1
            return rank(*args, **kwargs)

        def counted_make(*args, **kwargs):
            if fail_after is not None and self.fits >= fail_after:
                raise KeyboardInterrupt("machine switched off")
            self.fits += 1
            return make(*args, **kwargs)

        monkeypatch.setattr(_tasks, "compute_ranking", counted_rank)
        monkeypatch.setattr(_tasks, "make_classifier", counted_make)


def _run(root: Path, cache: Path, *extra: str) -> int:
    return run_study.main(
        ["paper000", "--root", str(root), "--cache", str(cache), *extra]
    )


@pytest.fixture(scope="module")
def reference(planted, tmp_path_factory):
    """The tiny study run in one go: its outputs and how many tasks it computed."""
    root = _root(tmp_path_factory.mktemp("reference"), planted)
    with pytest.MonkeyPatch.context() as mp:
        counter = _Counter(mp)
        assert _run(root, root / "cache") == 0
    out = root / "studies" / "paper000" / "data" / "planted"
    files = {name: (out / name).read_bytes() for name in OUTPUTS}
    return files, counter


def test_export_import_resume_computes_only_the_missing_tasks(
    planted, reference, tmp_path, monkeypatch
):
    files, full = reference
    root = _root(tmp_path / "first-machine", planted)
    # switch the machine off after 5 fits: what is done is exported on the way out
    with pytest.MonkeyPatch.context() as mp:
        _Counter(mp, fail_after=5)
        with pytest.raises(KeyboardInterrupt):
            _run(root, root / "cache")
    folder = run_study.partial_folder("paper000", "planted", root)
    progress = partial.read_progress(folder)
    assert progress.done == full.ranks + 5 + 2  # + AF's two selections (no ranking)
    assert progress.total > progress.done
    rows = partial.read_partial(folder)
    assert {r["kernel"] for r in rows} == {kernel_id()}
    assert progress.cpu_seconds is not None and progress.cpu_seconds > 0
    assert {r["engine"] for r in rows} == {run_study.code_version()["engine"]}
    assert not (
        root / "studies" / "paper000" / "data" / "planted" / "meta.json"
    ).exists()

    # another machine: a fresh checkout of the committed data, an empty cache
    other = _root(tmp_path / "second-machine", planted)
    shutil.copytree(folder, run_study.partial_folder("paper000", "planted", other))
    counter = _Counter(monkeypatch)
    assert _run(other, other / "cache") == 0
    assert counter.ranks == 0
    assert counter.fits == full.fits - 5
    out = other / "studies" / "paper000" / "data" / "planted"
    for name in OUTPUTS:
        assert (out / name).read_bytes() == files[name], name
    done = partial.read_progress(run_study.partial_folder("paper000", "planted", other))
    assert done.done == done.total == progress.total
    assert done.n_jobs == 1
    # both runs measured their CPU time under one provenance: every fit counts
    assert done.n_runs == 2
    assert done.n_cpu_fits == done.n_fits == full.fits
    assert done.cpu_fit_seconds is not None and done.cpu_fit_seconds > 0
    # finished, it enters the tables, and its status row keeps the parts' cost
    text = "\n".join(
        status.status_section(
            "paper000", report_data.load_study("paper000", root=other), other
        )
    )
    assert "| planted | done |" in text
    assert f"{done.wall_seconds:.0f} (1 worker), summed over 2 runs" in text
    assert "computed in parts: `studies/paper000/partial/planted`" in text
    assert "in progress" not in text and "so far" not in text
    assert status.in_progress("paper000", other) == {}


def test_every_runs_its_action_at_most_once_per_interval():
    calls = []
    hourly = run_study._every(3600.0, lambda: calls.append("hourly"))
    always = run_study._every(0.0, lambda: calls.append("always"))
    for _ in range(3):
        hourly()
        always()
    assert calls == ["always"] * 3


def test_import_fills_only_missing_entries_with_identical_values(
    planted, tmp_path, monkeypatch
):
    root = _root(tmp_path / "a", planted)
    assert _run(root, root / "cache") == 0
    assert _run(root, root / "cache", "--export-only") == 0
    config = run_study.study_config("paper000", root)
    tasks = partial.plan_tasks(config)
    folder = run_study.partial_folder("paper000", "planted", root)
    fresh = tmp_path / "fresh-cache"
    engine = run_study.code_version()["engine"]
    assert partial.import_partial(tasks, folder, fresh, engine=engine) == len(tasks)
    assert partial.import_partial(tasks, folder, fresh, engine=engine) == 0
    old, new = DiskCache(root / "cache"), DiskCache(fresh)
    for task in tasks:
        assert new.get(task.key) == old.get(task.key)


def test_export_only_keeps_the_runs_cpu_time_unless_told_a_process(
    planted, tmp_path, monkeypatch
):
    def clock(seconds: float, of_pid: float):
        return lambda pid=None: seconds if pid is None else of_pid

    def cpu(folder: Path) -> list:
        runs = json.loads((folder / partial.PROGRESS_FILE).read_text())["runs"]
        return [r["cpu_seconds"] for r in runs]

    root = _root(tmp_path / "a", planted)
    folder = run_study.partial_folder("paper000", "planted", root)
    monkeypatch.setattr(partial, "process_cpu_seconds", clock(1000.0, 0.0))
    assert _run(root, root / "cache") == 0
    assert cpu(folder) == [1000.0]  # the run measured itself
    # the exporting process is not the run: its own CPU time must not replace it
    monkeypatch.setattr(partial, "process_cpu_seconds", clock(5.0, 2000.0))
    assert _run(root, root / "cache", "--export-only") == 0
    assert cpu(folder) == [1000.0]
    # --cpu-of PID: that process's CPU time is recorded with the latest run
    assert _run(root, root / "cache", "--export-only", "--cpu-of", "42") == 0
    assert cpu(folder) == [2000.0]


def test_export_is_deterministic_and_keeps_provenance(planted, tmp_path):
    root = _root(tmp_path / "a", planted)
    cache = root / "cache"
    assert _run(root, cache) == 0
    folder = run_study.partial_folder("paper000", "planted", root)
    first = (folder / partial.TASKS_FILE).read_bytes()
    tasks = partial.plan_tasks(run_study.study_config("paper000", root))
    # a later run record must not re-attribute tasks already exported
    partial.record_run(
        cache,
        study="paper000",
        dataset="planted",
        engine="e",
        commit="later",
        kernel="k",
    )
    partial.export_partial(tasks, cache, folder, study="paper000", dataset="planted")
    assert (folder / partial.TASKS_FILE).read_bytes() == first
    with gzip.open(folder / partial.TASKS_FILE, "rt") as fh:
        kinds = [json.loads(line)["kind"] for line in fh]
    assert kinds == [t.kind for t in tasks]  # plan order


def test_tasks_without_a_run_record_are_exported_as_unrecorded(planted, tmp_path):
    root = _root(tmp_path / "a", planted)
    cache = root / "cache"
    assert _run(root, cache) == 0
    (cache / partial.RUNS_FILE).unlink()
    folder = tmp_path / "partial"
    tasks = partial.plan_tasks(run_study.study_config("paper000", root))
    progress = partial.export_partial(
        tasks, cache, folder, study="paper000", dataset="planted"
    )
    assert progress.done == len(tasks)
    assert progress.kernel == progress.commit == partial.UNRECORDED


def _partial_rows(folder: Path, rows: list[dict]) -> None:
    folder.mkdir(parents=True)
    (folder / partial.TASKS_FILE).write_bytes(partial._gzip_lines(rows))


def test_import_refuses_another_engine(tmp_path):
    folder = tmp_path / "partial"
    _partial_rows(folder, [{"key": "ab", "engine": "0.1.0+cache1", "value": {}}])
    with pytest.raises(ConfigError, match="computed by engine 0.1.0"):
        partial.import_partial([], folder, tmp_path / "cache", engine="0.2.0+cache2")


def test_import_refuses_tasks_outside_the_plan(tmp_path):
    folder = tmp_path / "partial"
    row = {"key": "ab", "engine": "e", "kind": "fit", "method": "MaxCS", "fold": 3}
    _partial_rows(folder, [row | {"value": {}}])
    planned = [partial.PlannedTask("cd", "fit", "MaxCS", 0, 0, 2)]
    with pytest.raises(ConfigError, match="not in this study's plan"):
        partial.import_partial(planned, folder, tmp_path / "cache", engine="e")
    assert not (tmp_path / "cache").exists()


def test_export_every_rejects_a_non_positive_interval(tmp_path, capsys):
    with pytest.raises(SystemExit):
        run_study.main(["paper000", "--export-every", "0", "--root", str(tmp_path)])
    assert "--export-every must be positive" in capsys.readouterr().err


def _in_progress_root(tmp_path: Path, planted: Path) -> Path:
    """A root whose one dataset has partial data only (two of its tasks done)."""
    root = _root(tmp_path / "a", planted)
    assert _run(root, root / "cache") == 0
    shutil.rmtree(root / "studies" / "paper000" / "data" / "planted")
    folder = run_study.partial_folder("paper000", "planted", root)
    rows = partial.read_partial(folder)
    fits = [r for r in rows if r["kind"] == "fit"][:2]
    shutil.rmtree(folder)
    cache = tmp_path / "two-fits"
    for row in fits:
        DiskCache(cache).set(row["key"], row["value"])
    tasks = partial.plan_tasks(run_study.study_config("paper000", root))
    partial.export_partial(tasks, cache, folder, study="paper000", dataset="planted")
    return root


def test_status_lists_a_dataset_in_progress_and_no_table_uses_it(planted, tmp_path):
    root = _in_progress_root(tmp_path, planted)
    loaded = report_data.load_study("paper000", root=root)
    assert "results" not in loaded  # nothing to average
    text = "\n".join(status.status_section("paper000", loaded, root))
    total = len(partial.plan_tasks(run_study.study_config("paper000", root)))
    assert f"| planted | in progress: 2 of {total} tasks |" in text
    assert "0 of 1 datasets done" in text
    assert "in progress: planted (see the table)" in text
    assert "in no table or average until done" in text
    assert f"BLAS {partial.UNRECORDED}" in text  # the fits had no run record
    written = status.write_in_progress("paper000", root)
    listed = pd.read_csv(written)
    assert listed.to_dict("records") == [
        {"dataset": "planted", "done": 2, "total": total}
    ]
    # the app names it beside the study's results (ui.results)
    from ui.results import in_progress_note

    assert f"planted (2 of {total} tasks)" in in_progress_note(written.parent)
    shutil.rmtree(run_study.partial_folder("paper000", "planted", root))
    assert status.write_in_progress("paper000", root) is None
    assert not (root / "studies" / "paper000" / "app" / "in_progress.csv").exists()


def _progress(**changes) -> partial.Progress:
    """A delicious-like progress record: 40 fits of 30 s, one worker."""
    fields = {
        "done": 200,
        "total": 1520,
        "compute_seconds": 1500.0,
        "wall_seconds": 1600.0,
        "fit_seconds": 30.0,
        "n_fits": 40,
        "n_fitted": 39320,
        "n_not_converged": 0,
        "n_jobs": 1,
        "engine": "e",
        "commit": "c",
        "kernel": "openblas/Haswell",
        "updated": "2026-01-01T00:00:00+00:00",
    }
    return partial.Progress(**{**fields, **changes})


def test_progress_note_sets_the_benchmark_beside_the_measured_cost():
    progress = _progress()
    note = status.progress_note("paper000", "delicious", progress)
    hours = 30.0 * status.FITS_PROTOCOL_A / 3600
    assert (
        f"30.0 s of task time per BR fit over the 40 computed so far, {hours:.1f} h"
        in note
    )
    assert "predicted 23.4-33 s" in note and "8.8-12.5 h" in note
    assert note.startswith("1600 (1 worker) so far")
    assert "predicted" not in status.progress_note("paper000", "other", progress)
    timed = _progress(cpu_seconds=1240.0, cpu_fit_seconds=30.5, n_cpu_fits=32)
    hours = 30.5 * status.FITS_PROTOCOL_A / 3600
    assert (
        "30.5 s per fit over the 32 fits of those runs, after the selections: "
        f"{hours:.1f} core-hours for protocol A"
    ) in status.progress_note("paper000", "delicious", timed)
    finished = status.parts_note("paper000", "delicious", _progress(n_runs=3))
    assert finished.startswith("1600 (1 worker), summed over 3 runs")
    assert "computed, " in finished and "so far" not in finished
    assert "predicted 23.4-33 s" in finished


def _row(kind: str, commit: str, seconds: float, reused: bool = False) -> dict:
    value = {"seconds": seconds} if kind == "selection" else {"fit_seconds": seconds}
    if reused:
        value["reused"] = True
    return {"kind": kind, "engine": "e", "commit": commit, "kernel": "k"} | {
        "value": value
    }


def test_cpu_per_fit_counts_only_the_runs_that_measured_it():
    run = {"engine": "e", "kernel": "k"}
    runs = [
        run | {"commit": "a", "cpu_seconds": 100.0},
        run | {"commit": "a", "cpu_seconds": 62.0},  # resumed, same provenance
        run | {"commit": "b", "cpu_seconds": None},  # started unmeasured
        run | {"commit": "b", "cpu_seconds": 500.0},
    ]
    rows = [
        _row("selection", "a", 2.0),
        *[_row("fit", "a", 9.0) for _ in range(4)],
        _row("fit", "a", 0.0, reused=True),  # reused: not a computed fit
        *[_row("fit", "b", 90.0) for _ in range(3)],
    ]
    # provenance b has an unmeasured run, so its fits and CPU are left out whole
    assert partial.cpu_per_fit(rows, runs) == ((100.0 + 62.0 - 2.0) / 4, 4)
    progress = partial.summarize(
        rows,
        20,
        [
            r
            | {
                "started": "2026-01-01T00:00:00+00:00",
                "last": "2026-01-01T00:01:00+00:00",
            }
            for r in runs
        ],
    )
    assert (progress.n_runs, progress.cpu_fit_seconds, progress.n_cpu_fits) == (
        4,
        40.0,
        4,
    )
    assert progress.n_fits == 7
    unmeasured = [r | {"cpu_seconds": None} for r in runs]
    assert partial.cpu_per_fit(rows, unmeasured) == (None, 0)
    assert partial.cpu_per_fit([], runs) == (None, 0)


def test_process_cpu_seconds_reads_a_process_and_knows_a_missing_one():
    import os

    here = partial.process_cpu_seconds()
    read = partial.process_cpu_seconds(os.getpid())
    assert here > 0
    if read is not None:  # Linux: /proc agrees with this process's own clock
        assert abs(read - partial.process_cpu_seconds()) < 1.0
    assert partial.process_cpu_seconds(-1) is None


def test_progress_note_names_the_cpu_time_when_measured():
    progress = _progress(fit_seconds=0.0, n_fits=0, cpu_seconds=42.0)
    note = status.progress_note("paper000", "planted", progress)
    assert "CPU time of the computing process 42 s" in note
    assert "per BR fit" not in note  # no fit computed yet
    unmeasured = status.progress_note(
        "paper000",
        "planted",
        partial.Progress(**{**vars(progress), "cpu_seconds": None}),
    )
    assert "CPU time" not in unmeasured
