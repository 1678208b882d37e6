"""No failure deletes finished work: a method's error, a full disk, a clean command.

A run that fails once tasks ran keeps every finished task in its cache (the
default ``DIR/cache`` included), says how many under its error line with the
command that resumes, and that command, once the cause is fixed, finishes from
them with the tables of a run that never failed. A full device is named (the
file being written and the space), on a 2 MB tmpfs mounted for the test (root
only: the tests skip, saying why, where mounting is refused).
"""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from mlfs_core.cli import main
from mlfs_core.data.synthetic import make_planted_corpus, write_mulan

CRASHY = """import numpy as np
from pathlib import Path

from mlfs_core.selectors import register

HERE = Path(__file__).parent


def Crashy(X, Y, *, k, random_state):
    with open(HERE / "calls.log", "a") as fh:
        fh.write(f"{X.shape[1]}\\n")
    if X.shape[1] == 140 and (HERE / "crash.flag").exists():
        raise RuntimeError("no good on the 140-word dataset")
    s = np.asarray(abs(X).sum(axis=0)).ravel()
    return np.argsort(-s, kind="stable")[:k], s


register(Crashy, version="1")
"""

THREE = """name = "three"
seed = 0
methods = ["MaxCS", "Crashy", "AF"]
plugins = ["crashy.py"]

[protocol]
name = "A"
n_folds = 2
budgets = [5, 10]
metrics = ["micro_f1", "hamming_loss"]

[[datasets]]
path = "data/d100.arff"
[[datasets]]
path = "data/d120.arff"
[[datasets]]
path = "data/d140.arff"
"""


@pytest.fixture
def three(tmp_path) -> Path:
    """A config of three small datasets and a plug-in that fails on the third
    while ``crash.flag`` exists (the plug-in's code never changes)."""
    for seed, words in enumerate((100, 120, 140)):
        ds, _ = make_planted_corpus(80, words, 3, 2, random_state=seed)
        write_mulan(ds, tmp_path / "data", f"d{words}")
    (tmp_path / "crashy.py").write_text(CRASHY)
    (tmp_path / "crash.flag").write_text("")
    config = tmp_path / "three.toml"
    config.write_text(THREE)
    return config


def _entries(cache: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in cache.glob("*/*.json")}


def _calls(folder: Path) -> list[int]:
    path = folder / "calls.log"
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _kept(err: str) -> int:
    (line,) = [x for x in err.splitlines() if "mlfs experiment: kept: " in x]
    return int(line.split("kept: ")[1].split()[0])


def test_a_method_failing_on_one_dataset_of_three_keeps_the_others(
    three, helpers, mark
):
    """Check the kept tasks (the two other datasets' selections), the message,
    and that the same command, once fixed, computes only what had not finished
    and writes the tables of a run that never failed."""
    folder, out = three.parent, three.parent / "out"
    run = helpers.mlfs("experiment", three, "--out", out, mark=mark, cwd=folder)
    _, err = run.communicate(timeout=300)
    assert run.returncode == 2, err[-2000:]
    assert "method 'Crashy' (crashy.py:" in err and "no good on the 140" in err
    kept = _entries(out / "cache")
    assert _kept(err) == len(kept) > 0
    resume = f"rerun the same command to resume from them: mlfs experiment {three}"
    assert resume in err and f"--out {out}" in err
    assert "Traceback" not in err and "cancelled" not in err
    assert not (out / "results.csv").exists()
    assert sorted(set(_calls(folder))) == [100, 120, 140]  # ran up to the third
    (folder / "crash.flag").unlink()
    (folder / "calls.log").unlink()
    again = helpers.mlfs("experiment", three, "--out", out, mark=mark, cwd=folder)
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0, err[-2000:]
    assert set(_calls(folder)) == {140}  # the others' selections came from the cache
    assert {p: _entries(out / "cache")[p] for p in kept} == kept  # not rewritten
    fresh = folder / "fresh"
    clean = helpers.mlfs(
        "experiment", three, "--out", fresh, "--no-cache", mark=mark, cwd=folder
    )
    _, err = clean.communicate(timeout=300)
    assert clean.returncode == 0, err[-2000:]
    for name in ("results.csv", "selections.csv"):
        pd.testing.assert_frame_equal(
            pd.read_csv(out / name), pd.read_csv(fresh / name)
        )


def test_with_two_jobs_the_kept_count_is_what_the_cache_holds(three, helpers, mark):
    """Check --jobs 2: the count said is the entries kept, no joblib note shown."""
    folder, out = three.parent, three.parent / "out"
    run = helpers.mlfs(
        "experiment", three, "--out", out, "--jobs", "2", mark=mark, cwd=folder
    )
    _, err = run.communicate(timeout=300)
    assert run.returncode == 2, err[-2000:]
    assert _kept(err) == len(_entries(out / "cache")) > 0
    assert "cancelled" not in err and "joblib" not in err
    assert helpers.wait_gone(mark, 10.0) == []


def test_a_failure_with_the_cache_elsewhere_keeps_it_too(three, capsys, fresh_plugins):
    """Check --cache elsewhere: the same note, and no empty --out left behind."""
    folder = three.parent
    out, cache = folder / "out", folder / "elsewhere"
    argv = ["experiment", str(three), "--out", str(out), "--cache", str(cache)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert _kept(err) == len(_entries(cache)) > 0
    assert f"in the cache {cache};" in err and f"--cache {cache}" in err
    assert not out.exists()  # created by the run, left empty: removed


# ---- a full disk -----------------------------------------------------------------


@pytest.fixture
def small_fs(tmp_path):
    """A 2 MB tmpfs mounted for the test (skipped, saying why, where refused)."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(
            "a full disk needs a small file system: mounting a 2 MB tmpfs was "
            f"refused here ({done.stderr.strip() or done.returncode})"
        )
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(folder: Path) -> Path:
    """Fill ``folder``'s device (a file of zeros until ENOSPC); return the file."""
    filler = folder / "filler.bin"
    with open(filler, "wb", buffering=0) as fh:  # unbuffered: every byte lands
        for size in (65536, 512, 1):
            try:
                while True:
                    fh.write(b"\0" * size)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    return filler


def _fill_when(monkeypatch, folder: Path, done_at) -> list[Path]:
    """Fill ``folder``'s device once the run's progress reaches ``done_at(total)``."""
    import mlfs_core.cli.experiment as command

    filled: list[Path] = []
    show = command.progress

    def progress(done, total, message):
        show(done, total, message)
        if done >= done_at(total) and not filled:
            filled.append(_fill(folder))

    monkeypatch.setattr(command, "progress", progress)
    return filled


def test_no_space_for_the_output_files_is_refused_before_writing(
    small_fs, fast_config, monkeypatch, capsys
):
    """Check the space check: the folder, the need and the free space named,
    the kept count, the cache intact; freed, the same command finishes."""
    out = small_fs / "out"
    filled = _fill_when(monkeypatch, small_fs, lambda total: total)
    argv = ["experiment", str(fast_config), "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert filled, "the device was never filled"
    assert f"not enough space to write the output files to {out}" in err
    assert "they need about" in err and "free" in err
    kept = _entries(out / "cache")
    assert _kept(err) == len(kept) > 0
    assert f"in the cache {out / 'cache'}" in err
    assert not [p for p in out.iterdir() if p.name.startswith(".writing")]
    filled[0].unlink()
    monkeypatch.undo()
    assert main(argv) == 0
    assert (out / "results.csv").is_file()
    assert {p: _entries(out / "cache")[p] for p in kept} == kept


def test_a_device_filling_during_the_final_write_names_the_file(
    small_fs, fast_config, monkeypatch, capsys
):
    """Check ENOSPC in the write (the estimate let through): the file named,
    no half-written output in place, the scratch folder gone, the cache kept."""
    import mlfs_core.evaluation.outputs as outputs

    monkeypatch.setattr(outputs, "estimate_output_bytes", lambda result: 0)
    out = small_fs / "out"
    _fill_when(monkeypatch, small_fs, lambda total: total)
    assert main(["experiment", str(fast_config), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"no space left on device writing {out}" in err
    assert f"the files already in {out} are as they were" in err
    assert "Errno 28" not in err and "Traceback" not in err
    assert _kept(err) == len(_entries(out / "cache")) > 0
    assert sorted(p.name for p in out.iterdir()) == ["cache"]  # no output, no scratch


def test_a_device_filling_during_the_tasks_names_the_cache_entry(
    small_fs, fast_config, monkeypatch, capsys
):
    """Check ENOSPC writing a cache entry with --jobs 2: the entry's file named,
    the entries before it kept and counted, no joblib warning."""
    out = small_fs / "out"
    _fill_when(monkeypatch, small_fs, lambda total: 3)
    argv = ["experiment", str(fast_config), "--out", str(out), "--jobs", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"no space left on device writing the task cache entry {out}/cache/" in err
    assert _kept(err) == len(_entries(out / "cache")) == 3
    assert "cancelled" not in err and "Errno 28" not in err


def test_a_full_device_before_the_run_names_what_could_not_be_written(
    small_fs, fast_config, capsys
):
    """Check a device full from the start: one line naming the lock file it
    could not write, no errno text, the empty folder it made removed."""
    filler = _fill(small_fs)
    out = small_fs / "out"
    assert main(["experiment", str(fast_config), "--out", str(out)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    lock = out / ".mlfs-lock"
    said = f"no space left on device writing the lock file {lock}"
    assert line == f"mlfs experiment: error: {said}"
    assert sorted(p.name for p in small_fs.iterdir()) == ["filler.bin"]  # out removed
    filler.unlink()


# ---- mlfs clean --------------------------------------------------------------------


def test_clean_removes_a_run_folder_and_refuses_anything_else(
    fast_config, tmp_path, capsys
):
    """Check clean: --keep-cache, the whole folder, a foreign file refused."""
    out = tmp_path / "out"
    assert main(["experiment", str(fast_config), "--out", str(out)]) == 0
    n = len(_entries(out / "cache"))
    (out / "notes.txt").write_text("mine")
    capsys.readouterr()
    assert main(["clean", str(out)]) == 2
    err = capsys.readouterr().err
    assert "is not a run folder" in err and "notes.txt" in err
    assert (out / "results.csv").is_file() and len(_entries(out / "cache")) == n
    (out / "notes.txt").unlink()
    assert main(["clean", str(out), "--keep-cache"]) == 0
    said = capsys.readouterr().out
    assert f"kept the cache {out / 'cache'} ({n} tasks)" in said
    assert sorted(p.name for p in out.iterdir()) == ["cache"]
    assert main(["clean", str(out)]) == 0
    assert f"and the cache {out / 'cache'} ({n} tasks); {out} removed" in (
        capsys.readouterr().out
    )
    assert not out.exists()


def test_clean_refuses_a_folder_that_is_not_a_run_s(tmp_path, capsys):
    """Check a cache folder holding other files, and a folder a live run holds."""
    folder = tmp_path / "mine"
    (folder / "cache" / "ab").mkdir(parents=True)
    (folder / "cache" / "ab" / "thesis.tex").write_text("x")
    assert main(["clean", str(folder)]) == 2
    assert "cache" in capsys.readouterr().err
    assert (folder / "cache" / "ab" / "thesis.tex").exists()
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "results.csv").write_text("a\n")
    lock = {"pid": os.getpid(), "host": socket.gethostname(), "command": "x"}
    (busy / ".mlfs-lock").write_text(json.dumps(lock))
    assert main(["clean", str(busy)]) == 2
    assert "being written by another run" in capsys.readouterr().err
    assert (busy / "results.csv").exists()
