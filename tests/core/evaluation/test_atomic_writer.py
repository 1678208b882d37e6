"""One atomic result writer: a failure midway leaves a folder's previous results.

``mlfs experiment --out`` and the app's run folders both write through
:func:`mlfs_core.evaluation.outputs.write_atomically`; each test makes the
write fail after some files were written and checks every file of the earlier
run is still there, byte for byte, and no scratch folder is left behind.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mlfs_core.cli import main
from mlfs_core.evaluation import (
    ExperimentConfig,
    outputs,
    protocol_preset,
    run_experiment,
)
from mlfs_core.evaluation.outputs import (
    RUN_FILES,
    SCRATCH_PREFIX,
    write_atomically,
    write_table,
)

CONFIG = (
    'name = "atomic"\nmethods = ["MaxCS", "AF"]\n'
    "[protocol]\nn_folds = 2\nbudgets = [10, 50]\nn_repeats = 1\n"
    'metrics = ["micro_f1"]\n'
    '[[datasets]]\npath = "sample"\n'
)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def _scratch_left(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(SCRATCH_PREFIX)]


def test_a_failing_write_leaves_the_folder_as_it_was(tmp_path):
    """Check files written before the failure never reach the folder."""
    write_table(pd.DataFrame({"a": [1]}), tmp_path / "results.csv")
    before = _snapshot(tmp_path)

    def half(folder: Path) -> list[Path]:
        write_table(pd.DataFrame({"a": [2]}), folder / "results.csv")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomically(tmp_path, half, replaces=["results.csv", "timings.csv"])
    assert _snapshot(tmp_path) == before
    assert _scratch_left(tmp_path) == []


def test_a_finished_write_replaces_its_files_and_only_those(tmp_path):
    """Check the new files replace the old, a stale one of ``replaces`` goes
    and a file the writer does not own stays."""
    (tmp_path / "results.csv").write_text("old")
    (tmp_path / "recovery.csv").write_text("stale")
    (tmp_path / "notes.txt").write_text("mine")

    def one(folder: Path) -> list[Path]:
        return [write_table(pd.DataFrame({"a": [2]}), folder / "results.csv")]

    written = write_atomically(tmp_path, one, replaces=["results.csv", "recovery.csv"])
    assert written == [tmp_path / "results.csv"]
    assert (tmp_path / "results.csv").read_text() == "a\n2\n"
    assert not (tmp_path / "recovery.csv").exists()
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert _scratch_left(tmp_path) == []


def _fail_after_results(monkeypatch):
    """Make the run files' writer fail once results.csv is written."""

    def broken(*args, **kwargs):
        raise OSError("disk full while writing selections.csv")

    monkeypatch.setattr(outputs, "selections_table", broken)


def test_the_command_line_keeps_the_previous_results(tmp_path, monkeypatch, capsys):
    """Check ``mlfs experiment --overwrite`` failing midway keeps the old files."""
    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    out = tmp_path / "out"
    argv = ["experiment", str(path), "--out", str(out), "--no-cache"]
    assert main(argv) == 0
    before = _snapshot(out)
    assert "results.csv" in before and "summary.md" in before
    _fail_after_results(monkeypatch)
    path.write_text(CONFIG.replace("budgets = [10, 50]", "budgets = [20, 40]"))
    assert main([*argv, "--overwrite"]) == 2
    assert "disk full" in capsys.readouterr().err
    assert _snapshot(out) == before
    assert _scratch_left(out) == []


def test_the_app_keeps_the_previous_results(tmp_path, monkeypatch):
    """Check the app's save() failing midway keeps the run folder's old files."""
    from ui.sections.experiment import save

    config = ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS",),
        protocol=protocol_preset("A", n_folds=2, budgets=(10, 50), n_repeats=1),
    )
    folder = tmp_path / "run"
    save(run_experiment(config), folder)
    before = _snapshot(folder)
    assert set(RUN_FILES) - {"environment.json", "tuning.csv"} <= set(before)
    second = run_experiment(
        ExperimentConfig(
            datasets=("sample",),
            methods=("MaxCS",),
            protocol=protocol_preset("A", n_folds=2, budgets=(20, 40), n_repeats=1),
        )
    )
    _fail_after_results(monkeypatch)
    with pytest.raises(OSError, match="disk full"):
        save(second, folder)
    assert _snapshot(folder) == before
    assert _scratch_left(folder) == []
    monkeypatch.undo()
    save(second, folder)  # and a write that finishes replaces them
    after = pd.read_csv(folder / "results.csv")
    assert sorted(after["budget_pct"].unique()) == [20.0, 40.0]


def test_a_full_device_names_the_file_being_written(tmp_path):
    """Check ENOSPC midway: a DiskFullError naming the half-written file, the
    earlier files untouched, no scratch folder left."""
    import errno

    from mlfs_core.errors import DiskFullError

    table = pd.DataFrame({"a": [1]})
    write_atomically(tmp_path, lambda d: [write_table(table, d / "results.csv")])
    before = _snapshot(tmp_path)

    def fills(folder: Path) -> list[Path]:
        write_table(table, folder / "results.csv")
        (folder / "selections.csv").write_text("half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(DiskFullError) as info:
        write_atomically(tmp_path, fills)
    message = str(info.value)
    assert message.startswith(f"no space left on device writing {tmp_path}/")
    assert info.value.path.endswith("selections.csv")  # the last one written
    assert message.endswith(f"the files already in {tmp_path} are as they were")
    assert _snapshot(tmp_path) == before and _scratch_left(tmp_path) == []


def test_a_write_the_free_space_cannot_take_is_refused_first(tmp_path, monkeypatch):
    """Check ``need``: refused before writing, naming folder, need and free."""
    import shutil

    from mlfs_core.errors import DiskFullError

    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(
        outputs.shutil, "disk_usage", lambda p: usage._replace(free=1000)
    )
    wrote = []
    with pytest.raises(DiskFullError) as info:
        write_atomically(tmp_path, lambda d: wrote.append(d) or [], need=5000)
    assert str(info.value) == (
        f"not enough space to write the output files to {tmp_path}: they need "
        "about 4.88 KiB, the device has 1000 B free"
    )
    assert wrote == [] and _scratch_left(tmp_path) == []
    assert write_atomically(tmp_path, lambda d: [], need=1000) == []


def test_the_estimate_covers_the_files_written(tmp_path):
    """Check estimate_output_bytes against what the command writes: at least the
    three tables' bytes, at most a few times all files."""
    from mlfs_core.report import write_outputs

    config = ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS", "AF"),
        protocol=protocol_preset(
            "A", n_folds=2, budgets=(10, 50), metrics=("micro_f1",)
        ),
    )
    result = run_experiment(config)
    written = write_outputs(result, tmp_path)
    sizes = {p.name: p.stat().st_size for p in written}
    tables = sum(sizes[n] for n in ("results.csv", "selections.csv", "timings.csv"))
    estimate = outputs.estimate_output_bytes(result)
    assert tables <= estimate <= 3 * sum(sizes.values()) + outputs.SPACE_OVERHEAD
