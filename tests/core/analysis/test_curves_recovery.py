"""Tests of mlfs_core.analysis.curves and recovery."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from mlfs_core.analysis import (
    dataset_means,
    load_planted_truth,
    metric_curves,
    precision_at_k,
    recovery_table,
)


def _results():
    rows = []
    for budget, vals in [(1, [0.1, 0.3]), (2, [0.5, 0.7])]:
        for fold, v in enumerate(vals):
            rows.append(("d", "B", "M", budget, fold, 0, "hamming_loss", v))
    return pd.DataFrame(
        rows,
        columns=[
            "dataset",
            "protocol",
            "method",
            "budget",
            "fold",
            "repeat",
            "metric",
            "value",
        ],
    )


def test_metric_curves_mean_and_population_std():
    """Check that curves give the mean and population std over folds per budget."""
    out = metric_curves(_results(), metric="hamming_loss").set_index("budget")
    assert out.loc[1, "mean"] == pytest.approx(0.2)
    assert out.loc[2, "std"] == pytest.approx(0.1)
    assert out.loc[2, "n_runs"] == 2


def test_dataset_means_average_over_budgets():
    """Check that the per-dataset mean is the mean over budgets of the fold means."""
    out = dataset_means(_results())
    assert out.loc[0, "mean"] == pytest.approx(0.4)
    assert out.loc[0, "n_budgets"] == 2


def test_precision_at_k_and_table(tmp_path):
    """Check precision@k by hand and the recovery table built from selections."""
    assert precision_at_k([3, 0, 5, 1], [0, 1, 2], 4) == 0.5
    with pytest.raises(ValueError):
        precision_at_k([0], [0], 2)
    sel = pd.DataFrame(
        [("d", "M", 0, 0, np.array([0, 7, 1]))],
        columns=["dataset", "method", "fold", "repeat", "features"],
    )
    out = recovery_table(sel, [0, 1])
    assert out["precision"].tolist() == [1.0, 0.5]
    path = tmp_path / "truth.json"
    path.write_text(json.dumps({"informative": [4, 2]}))
    assert load_planted_truth(path) == [4, 2]
    path.write_text(json.dumps({"informative": {"l0": [4, 2], "l1": [2, 9]}}))
    assert load_planted_truth(path) == [2, 4, 9]
