"""Bit-identical results whatever the BLAS thread count or n_jobs; mlfs verify."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from threadpoolctl import threadpool_limits

from mlfs_core.cli import main
from mlfs_core.evaluation import run_experiment
from mlfs_core.evaluation.config import (
    ExperimentConfig,
    protocol_preset,
    save_config,
)
from mlfs_core.evaluation.runner.results.verify import verify_experiment


def _study(shared_datasets):
    a = ExperimentConfig(
        datasets=(str(shared_datasets / "flags"), str(shared_datasets / "medical")),
        methods=("MaxCS", "MeanBNS", "RoRCS", "RaRBNS", "Random", "AF"),
        protocol=protocol_preset(
            "A", n_folds=3, budgets=(10, 50), n_repeats=2, on_sparse_label="ignore"
        ),
        seed=3,
    )
    b = ExperimentConfig(
        datasets=(str(shared_datasets / "emotions"),),
        methods=("PMU", "ATR", "MaxCS"),
        protocol=protocol_preset("B", budgets=(1, 2, 5, 10)),
        seed=3,
    )
    return a, b


@pytest.mark.parametrize("which", [0, 1], ids=["protocol-A", "protocol-B"])
def test_threads_and_jobs_do_not_change_any_value(shared_datasets, which):
    """Check 1 BLAS thread + n_jobs 1 and 2 BLAS threads + n_jobs 2 agree exactly."""
    config = _study(shared_datasets)[which]
    with threadpool_limits(1, user_api="blas"):
        one = run_experiment(config, n_jobs=1)
    with threadpool_limits(2, user_api="blas"):
        two = run_experiment(config, n_jobs=2)
    pd.testing.assert_frame_equal(one.results, two.results, check_exact=True)
    for a, b in zip(one.selections["features"], two.selections["features"]):
        assert np.array_equal(a, b)


def test_verify_finds_no_difference_and_catches_a_changed_value(shared_datasets):
    """Check verify reports 0 on a fresh run and the exact change after tampering."""
    config = _study(shared_datasets)[0]
    result = run_experiment(config)
    check = verify_experiment(config, result.results, sample=15, seed=1)
    assert check.n_fits == 15 and check.identical and check.max_abs_diff == 0.0
    full = verify_experiment(config, result.results)
    n_fits = len(result.results) // len(config.protocol.metrics)
    assert full.n_fits == full.n_fits_total == n_fits and full.identical
    tampered = result.results.copy()
    tampered["value"] = tampered["value"] + 0.125
    bad = verify_experiment(config, tampered, sample=3)
    assert not bad.identical and bad.max_abs_diff == pytest.approx(0.125)


def test_cli_verify_exit_status(tmp_path, shared_datasets, capsys):
    """Check `mlfs experiment` writes config.toml and `mlfs verify` exits 0, then 1."""
    config = _study(shared_datasets)[0]
    path = tmp_path / "study.toml"
    save_config(config, path)
    out = tmp_path / "out"
    assert main(["experiment", str(path), "--out", str(out), "--no-cache"]) == 0
    assert (out / "config.toml").is_file()
    assert main(["verify", str(out), "--sample", "5"]) == 0
    assert "identical" in capsys.readouterr().out
    results = pd.read_csv(out / "results.csv")
    results.loc[0, "value"] += 1.0
    results.to_csv(out / "results.csv", index=False)
    assert main(["verify", str(out)]) == 1
    assert main(["verify", str(tmp_path / "nowhere")]) == 2


@pytest.mark.parametrize("protocol", ["protocol_a", "protocol_b"])
def test_shipped_sample_results_are_what_this_engine_computes(protocol):
    """Check the app's precomputed sample results reproduce exactly (6 fits)."""
    from mlfs_core.data.bundled import SAMPLE_DIR
    from mlfs_core.evaluation import load_config
    from mlfs_core.evaluation.io import EXACT_FLOATS

    folder = SAMPLE_DIR / "results"
    config = load_config(folder / f"{protocol}.toml")
    stored = pd.read_csv(folder / protocol / "results.csv", **EXACT_FLOATS)
    check = verify_experiment(config, stored, sample=6, seed=0)
    assert check.n_fits == 6 and check.identical, check.table
