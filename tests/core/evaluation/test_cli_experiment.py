"""Tests of the ``mlfs experiment`` command pieces."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlfs_core.cli.experiment import add_experiment_parser, run_experiment_command
from mlfs_core.data import Dataset
from mlfs_core.data.synthetic import write_mulan
from mlfs_core.errors import ConfigError


def _write_dataset(path, rng, n=30):
    X, Y = [], []
    for _ in range(n):
        x = rng.integers(0, 3, 4)
        X.append(x)
        Y.append([int(x[0] > 0), int(rng.random() < 0.5)])
    dataset = Dataset(np.array(X), np.array(Y), list("abcd"), ["y1", "y2"])
    write_mulan(dataset, path.parent, path.stem)


def _two_dataset_config(folder: Path, rng, methods: list[str], head: str = "") -> Path:
    """Datasets one and two, and a config ``c.toml`` running ``methods`` on them
    (2 folds, budgets 25 and 50 %, micro-F1 and Hamming loss)."""
    for name in ("one", "two"):
        _write_dataset(folder / f"{name}.arff", rng)
    config = folder / "c.toml"
    config.write_text(
        f"{head}methods = {json.dumps(methods)}\n"
        '[protocol]\nname = "A"\nn_folds = 2\nbudgets = [25, 50]\n'
        'metrics = ["micro_f1", "hamming_loss"]\n'
        '[[datasets]]\npath = "one.arff"\n[[datasets]]\npath = "two.arff"\n'
    )
    return config


def _parse(argv):
    parser = argparse.ArgumentParser()
    add_experiment_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_experiment_command_writes_tables(tmp_path, rng):
    """Check that the command writes results, analysis tables and a summary."""
    config = _two_dataset_config(tmp_path, rng, ["MaxCS", "MeanCS", "AF"])
    out = tmp_path / "out"
    args = _parse(["experiment", str(config), "--out", str(out)])
    assert run_experiment_command(args) == 0
    results = pd.read_csv(out / "results.csv")
    assert set(results["dataset"]) == {"one", "two"}
    for name in ("ranks", "friedman", "curves", "dataset_means", "similarity"):
        assert (out / f"{name}.csv").is_file(), name
    assert "Average rank by micro_f1" in (out / "summary.md").read_text()
    assert (out / "cache").is_dir()


def test_experiment_command_bad_config_raises(tmp_path):
    """Check that a config error propagates as ConfigError for the CLI to report."""
    config = tmp_path / "c.toml"
    config.write_text('methods = ["Nope"]\n[[datasets]]\npath = "missing.arff"\n')
    args = _parse(["experiment", str(config), "--out", str(tmp_path / "o")])
    with pytest.raises(ConfigError):
        run_experiment_command(args)


# ---- every file `mlfs experiment --out` writes, byte for byte -----------------

GOLDEN = Path(__file__).resolve().parent / "data" / "experiment_outputs"
"""What the command writes for :func:`_golden_config`: first recorded before the
output writers moved from the CLI into :mod:`mlfs_core.evaluation.outputs`, then
changed on purpose once (``README.md``, ``selections.csv``'s
``feature_names``, ``curves.csv``'s ``lower``/``upper``, the metric's direction
in ``summary.md`` and no ``test_size`` in a cross-validation ``config.toml``);
every value stayed the same."""

TIMED = {"timings.csv", "results.parquet"}  # seconds differ from run to run
MACHINE = {"environment.json"}  # the BLAS libraries of the machine that ran it


def _golden_config(folder: Path) -> Path:
    """Two toy datasets, three methods, two budgets: a config in ``folder``."""
    rng = np.random.default_rng(20261201)
    methods = ["MaxCS", "MeanBNS", "AF"]
    return _two_dataset_config(folder, rng, methods, head='name = "golden"\n')


def _stable_text(path: Path, folder: Path) -> str:
    """A written file's text with the run's folder and its timings masked."""
    text = path.read_text(encoding="utf-8").replace(str(folder.resolve()), "FOLDER")
    return re.sub(r"time \d+\.\d s", "time T s", text)


def test_experiment_outputs_are_unchanged_byte_for_byte(tmp_path):
    """Check each file against what the command wrote before the move."""
    config = _golden_config(tmp_path)
    out = tmp_path / "out"
    args = _parse(["experiment", str(config), "--out", str(out), "--no-cache"])
    assert run_experiment_command(args) == 0
    written = {p.name for p in out.iterdir()} - TIMED - MACHINE
    assert written == {p.name for p in GOLDEN.iterdir()}
    environment = json.loads((out / "environment.json").read_text(encoding="utf-8"))
    assert environment["kernel_dependent"] and environment["fit_kernels"]
    assert environment["blas"]["kernel"] == environment["fit_kernels"][0]
    for name in sorted(written):
        expected = (GOLDEN / name).read_text(encoding="utf-8")
        assert _stable_text(out / name, tmp_path) == expected, name
    assert "seconds" in pd.read_csv(out / "timings.csv").columns


def test_the_app_run_files_match_the_commands(tmp_path):
    """Check the app's run folder (write_run_files) holds the command's bytes."""
    from mlfs_core.evaluation.config import load_config
    from mlfs_core.evaluation.outputs import write_run_files
    from mlfs_core.evaluation.runner import run_experiment

    config = _golden_config(tmp_path)
    result = run_experiment(load_config(config))
    written = write_run_files(result, tmp_path / "app", resolve_paths=False)
    assert [p.name for p in written] == [
        "results.csv",
        "config.toml",
        "selections.csv",
        "timings.csv",
        "environment.json",
    ]
    for name in ("results.csv", "selections.csv"):
        assert (tmp_path / "app" / name).read_text() == (GOLDEN / name).read_text()
    assert '{ path = "one.arff" }' in (tmp_path / "app" / "config.toml").read_text()
