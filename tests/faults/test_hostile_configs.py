"""Hostile configs: every number has a range; the work is bounded before it starts."""

from __future__ import annotations

import time

import pytest

from mlfs_core.cli import main
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import ExperimentConfig
from mlfs_core.evaluation.config import config_from_toml, protocol_preset
from mlfs_core.evaluation.runner import plan_experiment
from mlfs_core.evaluation.runner.plan.bounds import estimate_tasks

BASE = 'methods = ["MaxCS", "RaRCS"]\n[[datasets]]\npath = "sample"\n'


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("n_repeats = 1000000000", "protocol.n_repeats must be an int in [1, 1000]"),
        ("bins = 1000000000", "protocol.bins must be an int in [2, 1000]"),
        ("n_folds = 1000000000", "protocol.n_folds must be an int in [2, 1000]"),
    ],
)
def test_a_huge_count_is_refused_at_once(table, expected):
    """Check the range message, in well under a second (no planning)."""
    start = time.perf_counter()
    with pytest.raises(
        ConfigError, match=expected.replace("[", r"\[").replace("]", r"\]")
    ):
        config_from_toml(BASE + f"[protocol]\n{table}\n")
    assert time.perf_counter() - start < 1.0


def test_a_seed_beyond_64_bits_is_refused():
    """Check seed = 10**25 (read as a Python int; TOML cannot write it back)."""
    with pytest.raises(ConfigError, match=r"seed must fit in 64 bits"):
        config_from_toml(f"seed = {10**25}\n" + BASE)
    with pytest.raises(ConfigError, match=r"seed must fit in 64 bits"):
        ExperimentConfig(datasets=("sample",), methods=("MaxCS",), seed=2**64)
    ok = ExperimentConfig(datasets=("sample",), methods=("MaxCS",), seed=2**63 - 1)
    assert ok.seed == 2**63 - 1


def test_a_method_count_beyond_64_bits_is_refused():
    """Check an integer option of a method in a config (PPT-MI's tau)."""
    toml = (
        'methods = [{name = "PPT-MI", params = {tau = 100000000000000000000000}}]\n'
        '[[datasets]]\npath = "sample"\n'
    )
    with pytest.raises(ConfigError, match="64 bits"):
        config_from_toml(toml)


def test_the_task_count_is_estimated_and_refused_before_planning(monkeypatch):
    """Check --max-tasks: the estimate in the message, no dataset loaded."""
    from mlfs_core.evaluation.runner.plan import prepare as prepare_module

    config = ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS", "RaRCS"),
        protocol=protocol_preset("A", n_folds=10, n_repeats=1000),
    )
    assert estimate_tasks(config) == (10 + 10_000, 90 + 90_000)

    def no_prepare(*args, **kwargs):
        raise AssertionError("datasets were loaded")

    monkeypatch.setattr("mlfs_core.evaluation.runner.plan.grid.prepare", no_prepare)
    with pytest.raises(ConfigError, match=r"about 100,100 tasks .* limit of 1,000"):
        plan_experiment(config, max_tasks=1000)
    assert prepare_module is not None


def test_the_largest_allocation_is_estimated_before_the_grid(tmp_path, capsys):
    """Check --max-memory from the command line: the estimate and what it is."""
    config = tmp_path / "c.toml"
    config.write_text(
        'methods = ["MaxCS"]\n[protocol]\nname = "B"\n[[datasets]]\npath = "sample"\n'
    )
    out = tmp_path / "out"
    status = main(["experiment", str(config), "--out", str(out), "--max-memory", "1K"])
    err = capsys.readouterr().err
    assert status == 2
    assert "largest allocation is estimated at" in err and "above the limit" in err
    assert "--max-memory" in err
    assert not out.exists()  # nothing written, the folder the run made removed


def test_a_method_bins_option_is_counted_in_the_memory_estimate():
    """Check that a method's bins are counted before any work, with the size."""
    config = ExperimentConfig(
        datasets=("sample",),
        methods=({"name": "PMU", "params": {"bins": 1000}},),
        protocol=protocol_preset("A", n_folds=2, budgets=(10,)),
    )
    with pytest.raises(ConfigError, match=r"estimated at [\d.]+ MiB .*1,000 bins"):
        plan_experiment(config, max_memory=1 << 20)


def test_max_tasks_from_the_command_line(tmp_path, capsys):
    """Check that mlfs experiment --max-tasks refuses with the estimate."""
    config = tmp_path / "c.toml"
    config.write_text(BASE)
    status = main(
        ["experiment", str(config), "--out", str(tmp_path / "o"), "--max-tasks", "50"]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert "would have about" in err and "above the limit of 50" in err


@pytest.mark.parametrize("bins", ["1000000000", "1001"])
def test_a_greedy_method_bins_option_has_a_range(bins, capsys):
    """Check ``mlfs rank --bins 1e9`` (no experiment, no estimate) is refused."""
    assert main(["rank", "sample", "--method", "PMU", "--k", "3", "--bins", bins]) == 2
    assert f"bins must be an int in [2, 1000], got {bins}" in capsys.readouterr().err


def test_a_method_bins_option_at_its_bound_is_accepted():
    """Check the spec states the range the check enforces (the app bounds its box)."""
    import mlfs_core
    from mlfs_core.selectors.greedy import MAX_BINS

    (bins,) = [o for o in mlfs_core.get_method("PMU").options if o.name == "bins"]
    assert (bins.low, bins.high) == (2, MAX_BINS) == (2, 1000)
    bins.check(MAX_BINS)
