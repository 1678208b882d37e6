"""One writer per output folder: a lock naming the running run; a dead one's taken."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from mlfs_core.cli import main
from mlfs_core.evaluation.runner.guard.lock import LOCK_NAME, FolderBusy, output_lock


def test_a_second_run_into_a_locked_folder_is_refused(tmp_path, fast_config, capsys):
    """Check the message names the running one, and its folder is left alone."""
    out = tmp_path / "out"
    with output_lock(out, "mlfs experiment other.toml") as record:
        (out / "marker").write_text("theirs")
        status = main(["experiment", str(fast_config), "--out", str(out)])
        err = capsys.readouterr().err
        assert status == 2
        assert f"pid {record['pid']} on host {socket.gethostname()}" in err
        assert "mlfs experiment other.toml" in err
        assert (out / "marker").read_text() == "theirs"
        assert not (out / "results.csv").exists()
    assert not (out / LOCK_NAME).exists()  # released by its holder


def test_a_dead_runs_lock_is_taken_over_with_a_note(tmp_path, fast_config, capsys):
    """Check a lock left by kill -9: the run goes on, saying so."""
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    out = tmp_path / "out"
    out.mkdir()
    held = {"pid": dead.pid, "host": socket.gethostname(), "started": "then"}
    (out / LOCK_NAME).write_text(json.dumps(held))
    assert main(["experiment", str(fast_config), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"took over the lock of a run that is gone (pid {dead.pid}" in err
    assert (out / "results.csv").is_file()
    assert not (out / LOCK_NAME).exists()


def test_a_lock_of_another_host_is_not_taken(tmp_path):
    """Check that a lock this host cannot check is respected."""
    out = tmp_path / "out"
    out.mkdir()
    held = {"pid": 1, "host": "elsewhere.example", "started": "now"}
    (out / LOCK_NAME).write_text(json.dumps(held))
    with pytest.raises(FolderBusy, match="pid 1 on host elsewhere.example"):
        with output_lock(out):
            pass


def test_two_runs_started_together_one_refused(tmp_path, fast_config, helpers, mark):
    """Check two `mlfs experiment --out same/` at once: one writes, one is refused."""
    out = tmp_path / "same"
    runs = [
        helpers.mlfs("experiment", fast_config, "--out", out, mark=mark)
        for _ in range(2)
    ]
    results = [p.communicate(timeout=180) for p in runs]
    statuses = sorted(p.returncode for p in runs)
    assert statuses == [0, 2], [r[1][-500:] for r in results]
    refused = next(r[1] for p, r in zip(runs, results) if p.returncode == 2)
    # started together the second meets the lock; on a machine so loaded that it
    # starts after the first has finished, it meets the finished folder instead
    assert "is being written by another run" in refused or "holds files" in refused
    assert (out / "results.csv").is_file()
    assert not (out / LOCK_NAME).exists()


def test_the_lock_records_pid_host_and_start(tmp_path):
    """Check the lock file's content while held."""
    with output_lock(tmp_path / "o", "cmd") as record:
        stored = json.loads((tmp_path / "o" / LOCK_NAME).read_text())
        assert stored == record
        assert stored["pid"] == os.getpid()
        assert stored["host"] == socket.gethostname()
        assert time.strptime(stored["started"], "%Y-%m-%dT%H:%M:%SZ")


def test_the_apps_runs_take_the_same_lock(tmp_path, monkeypatch):
    """Check that the app's experiment run refuses a folder another run holds."""
    from mlfs_core.evaluation import ExperimentConfig
    from mlfs_core.evaluation.config import protocol_preset
    from ui.sections import experiment

    monkeypatch.setenv("MLFS_WORK_DIR", str(tmp_path / "work"))
    folder = tmp_path / "run"
    monkeypatch.setattr(experiment, "_run_folder", lambda config: folder)
    config = ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS",),
        protocol=protocol_preset("A", n_folds=2, budgets=(10,), metrics=("micro_f1",)),
    )
    with output_lock(folder, "mlfs experiment x.toml"):
        with pytest.raises(FolderBusy, match="mlfs experiment x.toml"):
            experiment.run(config, lambda *a: None)
        assert not (folder / "results.csv").exists()
    assert experiment.run(config, lambda *a: None) == folder
    assert (folder / "results.csv").is_file()
    assert not (folder / LOCK_NAME).exists()
