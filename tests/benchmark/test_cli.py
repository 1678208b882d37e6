"""Tests of ``mlfs benchmark``: a plug-in file's method among paper 001's methods."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from mlfs_core.benchmark import get_suite

from .conftest import METHOD, PLUGIN


def mlfs(*argv, cwd=None):
    """Run ``python -m mlfs_core ARGV`` in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "mlfs_core", *argv],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=cwd,
    )


def test_mlfs_benchmark_quick_ranks_a_plugin_method(shared_datasets, tmp_path):
    """Check ``mlfs benchmark --plugin mine.py --method M --suite paper001 --quick``.

    A fresh process loads the method from the plug-in file; the built-in
    methods' values come from the committed study data on every quick dataset;
    the tables, the CD diagram and the manifest are written; the output says
    the rank, the test and the time.
    """
    out = tmp_path / "out"
    proc = mlfs(
        "benchmark",
        "--plugin",
        str(PLUGIN),
        "--method",
        METHOD,
        "--suite",
        "paper001",
        "--quick",
        "--out",
        str(out),
        "--cache",
        str(tmp_path / "cache"),
    )
    assert proc.returncode == 0, proc.stderr
    suite = get_suite("paper001")
    text = proc.stdout
    assert f"{METHOD} on {suite.title} (quick): 4 datasets" in text
    assert f"{METHOD}" in text.split("Average rank by micro_f1")[1]
    assert "Friedman chi2 = " in text and "Nemenyi CD = " in text
    assert "Built-in methods from the committed study data: ['emotions'" in text
    assert "built-in tasks 0.0 s (0 computed, 0 cached)" in text
    assert "(44 computed, 0 cached)" in text  # 4 selections, 40 fits
    manifest = json.loads((out / "benchmark.json").read_text())
    assert manifest["quick"] and manifest["method"] == METHOD
    assert sorted(manifest["datasets"]) == sorted(suite.quick.datasets)
    assert {v["from"] for v in manifest["builtin_values"].values()} == {"committed"}
    assert manifest["seconds"]["wall"] > manifest["seconds"]["method"] > 0
    assert any(spec.endswith("mine.py") for spec in manifest["plugins"])
    results = pd.read_csv(out / "results.csv.gz")
    assert set(results["method"]) == {*suite.methods, METHOD}
    assert sorted(results["budget"].unique()) == list(suite.quick.budgets)
    ranks = pd.read_csv(out / "average_ranks.csv")
    mine = ranks[(ranks["metric"] == "micro_f1") & (ranks["method"] == METHOD)]
    assert len(mine) == 1 and 1 <= mine["mean"].iloc[0] <= len(suite.methods) + 1
    assert METHOD in (out / "cd_micro_f1.html").read_text()


def test_mlfs_benchmark_writes_where_the_app_looks(
    shared_datasets, mine, tmp_path, monkeypatch, capsys
):
    """Check the default folder: ``results/benchmarks/SUITE-LABEL-quick`` here.

    In this process: ``mine`` removes the plug-in again after the module, and
    ``MLFS_PLUGINS`` (where ``--plugin`` hands it on) is restored."""
    from mlfs_core.cli import main

    # setenv, not delenv: delenv of an unset variable records nothing to undo
    monkeypatch.setenv("MLFS_PLUGINS", "")
    monkeypatch.chdir(tmp_path)
    argv = ["benchmark", "--plugin", str(PLUGIN), "--method", METHOD]
    argv += ["--label", "Mine", "--suite", "paper001", "--quick"]
    argv += ["--datasets", "emotions,birds", "--no-cache"]
    assert main(argv) == 0, capsys.readouterr().err
    folder = tmp_path / "results" / "benchmarks" / "paper001-Mine-quick"
    assert json.loads((folder / "benchmark.json").read_text())["method"] == "Mine"
    assert not (tmp_path / "results" / "cache").exists()  # --no-cache
    assert f"Written to {folder.relative_to(tmp_path)}" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["--method", "NoSuchMethod", "--suite", "paper001", "--quick"], "NoSuch"),
        (["--method", "IGMF", "--suite", "paper999"], "unknown suite 'paper999'"),
        (["--method", "IGMF", "--suite", "paper001", "--param", "x"], "NAME=VALUE"),
        (["--method", "IGMF", "--suite", "paper001", "--quick"], "'IGMF' is one of"),
    ],
)
def test_mlfs_benchmark_errors_are_one_line(argv, match, tmp_path, capsys):
    """Check that bad arguments give one line on stderr and exit status 2."""
    from mlfs_core.cli import main

    assert main(["benchmark", *argv, "--out", str(tmp_path / "o"), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and match in err, err
    assert err.startswith("mlfs benchmark: error: ")
    assert not (tmp_path / "o").exists()  # nothing written
