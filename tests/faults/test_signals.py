"""Clean stops: a stopped ``mlfs experiment --jobs 2`` leaves no process, no shm file.

Each test starts a run of the sample, waits until some tasks are cached, stops
it (SIGINT, SIGTERM, SIGHUP or kill -9 of the parent) and checks what is left
10 s later: no descendant process, no shared-memory file named after it, the
finished tasks still in the cache, one ``stopped:`` line and no traceback.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

SAMPLE_A = """name = "stop"
seed = 0
methods = ["MaxCS", "MeanBNS", "RaRCS", "Random", "AF"]

[protocol]
name = "A"
n_folds = 3
budgets = [10, 30, 50]
n_repeats = 2

[[datasets]]
path = "sample"
"""


def _cached(out) -> int:
    return len(list((out / "cache").glob("*/*.json")))


def _start_and_stop(tmp_path, helpers, mark, signum):
    config = tmp_path / "stop.toml"
    config.write_text(SAMPLE_A)
    out = tmp_path / "out"
    proc = helpers.mlfs("experiment", config, "--out", out, "--jobs", "2", mark=mark)
    end = time.monotonic() + 180  # generous: a loaded machine starts workers late

    def started() -> bool:  # some tasks cached, the parent and its two workers up
        return _cached(out) >= 4 and len(helpers.marked_pids(mark)) >= 3

    while not started() and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be stopped"
    assert len(helpers.marked_pids(mark)) >= 3  # the parent and its two workers
    os.kill(proc.pid, signum)
    stdout, stderr = proc.communicate(timeout=60)
    left = helpers.wait_gone(mark, 10.0)
    return proc, stderr, out, left


@pytest.mark.parametrize(
    ("signum", "status"),
    [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)],
)
def test_a_signal_stops_the_run_cleanly(tmp_path, helpers, mark, signum, status):
    """Check the status, the one line, no traceback, no process or shm file left."""
    proc, stderr, out, left = _start_and_stop(tmp_path, helpers, mark, signum)
    assert proc.returncode == status, stderr[-2000:]
    assert "Traceback" not in stderr
    stopped = [line for line in stderr.splitlines() if line.startswith("stopped:")]
    assert len(stopped) == 1, stderr[-2000:]
    done = int(stopped[0].split()[1])
    assert stopped[0].endswith("tasks done; rerun the same command to resume")
    assert " of 78 tasks done" in stopped[0]
    assert left == []
    assert helpers.shm_files(proc.pid) == []
    assert _cached(out) >= done >= 4  # every finished task is kept
    assert not (out / ".mlfs-lock").exists()


def test_kill_9_of_the_parent_leaves_no_worker(tmp_path, helpers, mark):
    """Check that the workers notice their parent's death and exit within seconds."""
    proc, stderr, out, left = _start_and_stop(tmp_path, helpers, mark, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert left == []
    # the resource tracker removes the joblib folders once the workers are gone
    assert helpers.shm_files(proc.pid) == []


def test_a_stopped_run_resumes(tmp_path, helpers, mark):
    """Check that rerunning the same command after a stop finishes from the cache."""
    proc, stderr, out, left = _start_and_stop(tmp_path, helpers, mark, signal.SIGTERM)
    kept = {p: p.stat().st_mtime_ns for p in (out / "cache").glob("*/*.json")}
    assert len(kept) >= 4
    config = tmp_path / "stop.toml"
    again = helpers.mlfs("experiment", config, "--out", out, "--jobs", "2", mark=mark)
    _, stderr = again.communicate(timeout=120)
    assert again.returncode == 0, stderr[-2000:]
    # the finished tasks were read back, not recomputed (their files untouched)
    assert {p: p.stat().st_mtime_ns for p in kept} == kept
    assert _cached(out) > len(kept)
    assert (out / "results.csv").is_file()
