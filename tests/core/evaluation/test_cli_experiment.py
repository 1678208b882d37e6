"""Tests of the ``mlfs experiment`` command pieces."""

from __future__ import annotations

import argparse

import pandas as pd
import pytest

from mlfs_core.cli_experiment import add_experiment_parser, run_experiment_command
from mlfs_core.errors import ConfigError

ARFF = """@relation toy
@attribute a numeric
@attribute b numeric
@attribute c numeric
@attribute d numeric
@attribute y1 {0,1}
@attribute y2 {0,1}
@data
"""


def _write_dataset(path, rng, n=30):
    rows = []
    for _ in range(n):
        x = rng.integers(0, 3, 4)
        rows.append(",".join(map(str, [*x, int(x[0] > 0), int(rng.random() < 0.5)])))
    path.write_text(ARFF + "\n".join(rows) + "\n")
    xml = (
        '<?xml version="1.0"?><labels xmlns="http://mulan.sourceforge.net/labels">'
        '<label name="y1"/><label name="y2"/></labels>'
    )
    path.with_suffix(".xml").write_text(xml)


def _parse(argv):
    parser = argparse.ArgumentParser()
    add_experiment_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_experiment_command_writes_tables(tmp_path, rng):
    """Check that the command writes results, analysis tables and a summary."""
    for name in ("one", "two"):
        _write_dataset(tmp_path / f"{name}.arff", rng)
    config = tmp_path / "c.toml"
    config.write_text(
        'methods = ["MaxCS", "MeanCS", "AF"]\n'
        "[protocol]\nn_folds = 2\nbudgets = [25, 50]\n"
        'metrics = ["micro_f1", "hamming_loss"]\n'
        '[[datasets]]\npath = "one.arff"\n[[datasets]]\npath = "two.arff"\n'
    )
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
