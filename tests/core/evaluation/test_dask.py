"""A small study on a Dask LocalCluster equals the one-process run, cache included."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pandas as pd
import pytest

from mlfs_core.cli import main
from mlfs_core.evaluation.config import ExperimentConfig, protocol_preset
from mlfs_core.evaluation.runner import run_experiment
from mlfs_core.evaluation.runner.execute.cluster import dask_backend

LIMIT_S = 300  # the whole test, cluster start-up included


@pytest.fixture
def time_limit():
    def expire(signum, frame):
        raise TimeoutError(f"Dask study took more than {LIMIT_S} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(LIMIT_S)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _cache_values(folder: Path) -> dict:
    """Cache key -> stored value without timings (these differ between runs)."""
    out = {}
    for path in sorted(folder.glob("*/*.json")):
        value = json.loads(path.read_text(encoding="utf-8"))["value"]  # checksummed
        out[path.stem] = {k: v for k, v in value.items() if "seconds" not in k}
    return out


def _configs(shared_datasets, toy):
    return [
        ExperimentConfig(
            datasets=[toy],
            methods=["MaxCS", "RaRCS", "Random", "AF"],
            protocol=protocol_preset("A", n_folds=2, budgets=(20, 50), n_repeats=2),
        ),
        ExperimentConfig(
            datasets=[str(shared_datasets / "emotions")],
            methods=["PPT-MI", "AF"],
            protocol=protocol_preset("B", budgets=(1, 5, 20, 72)),
        ),
    ]


def test_local_cluster_gives_the_one_process_results_and_cache(
    shared_datasets, toy, tmp_path, dask_cluster, time_limit
):
    """Check 2 worker processes give results and cache identical to n_jobs=1."""
    configs = _configs(shared_datasets, toy)
    local = [
        run_experiment(c, cache_dir=tmp_path / f"one{i}") for i, c in enumerate(configs)
    ]
    with dask_backend(dask_cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        remote = [
            run_experiment(c, cache_dir=tmp_path / f"dask{i}", n_jobs=-1)
            for i, c in enumerate(configs)
        ]
    for i, (a, b) in enumerate(zip(local, remote)):
        assert a.results.equals(b.results)
        assert a.selections.equals(b.selections)
        one, dask = (
            _cache_values(tmp_path / f"one{i}"),
            _cache_values(tmp_path / f"dask{i}"),
        )
        assert one.keys() == dask.keys() and len(one) > 0
        assert one == dask


def test_cli_scheduler_option_writes_the_same_results(
    shared_datasets, tmp_path, dask_cluster, time_limit
):
    """Check `mlfs experiment --scheduler ADDRESS` equals the local command."""
    config = tmp_path / "study.toml"
    config.write_text(
        'methods = ["PPT-MI", "AF"]\n[protocol]\nname = "B"\nsplit = "own"\n'
        'budgets = [1, 3]\nbudget_unit = "count"\n'
        'classifier = {name = "mlknn", params = {k = 10}}\n'
        'discretize = "uniform"\nlabel_handling = "drop_constant"\n'
        f'[[datasets]]\npath = "{shared_datasets / "emotions"}"\n',
        encoding="utf-8",
    )
    local, remote = tmp_path / "local", tmp_path / "remote"
    assert main(["experiment", str(config), "--out", str(local)]) == 0
    address = dask_cluster.scheduler_address
    argv = ["experiment", str(config), "--out", str(remote), "--scheduler", address]
    assert main(argv) == 0
    a = pd.read_csv(local / "results.csv")
    b = pd.read_csv(remote / "results.csv")
    assert len(a) > 0 and a.equals(b)
    assert _cache_values(local / "cache") == _cache_values(remote / "cache")


def test_unreachable_scheduler_is_a_clear_error():
    """Check a wrong address raises ConfigError naming it (no hang, no traceback)."""
    from mlfs_core.errors import ConfigError

    with pytest.raises(ConfigError, match="127.0.0.1:9"):
        with dask_backend("tcp://127.0.0.1:9", timeout=2):
            pass
