"""Tests of mlfs_core.analysis.curves and recovery."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlfs_core.analysis import (
    dataset_means,
    load_planted_truth,
    metric_curves,
    precision_at_k,
    recovery_table,
    select,
)
from mlfs_core.errors import MLFSError

SAMPLE_TRUTH = Path(__file__).resolve().parents[3] / "sample_data/planted_truth.json"


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
    chosen = select(_results(), metric="hamming_loss", by=["budget"])
    out = metric_curves(chosen).set_index("budget")
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


def test_load_planted_truth_reads_the_shipped_sample_file():
    """Check that sample_data/planted_truth.json gives its all_informative list."""
    data = json.loads(SAMPLE_TRUTH.read_text(encoding="utf-8"))
    truth = load_planted_truth(SAMPLE_TRUTH)
    assert truth == data["all_informative"]
    assert len(truth) == 80 and truth[:3] == [204, 208, 221]
    per_label = {i for values in data["informative"].values() for i in values}
    assert set(truth) == per_label


def test_load_planted_truth_per_label_mapping_without_union(tmp_path):
    """Check that a per-label mapping without all_informative gives its union."""
    data = json.loads(SAMPLE_TRUTH.read_text(encoding="utf-8"))
    del data["all_informative"]
    path = tmp_path / "planted_truth.json"
    path.write_text(json.dumps(data))
    assert load_planted_truth(path) == sorted(
        {i for values in data["informative"].values() for i in values}
    )


def test_load_planted_truth_accepts_a_flat_list(tmp_path):
    """Check that a bare JSON list is read in file order."""
    path = tmp_path / "truth.json"
    path.write_text("[9, 3, 5]")
    assert load_planted_truth(path) == [9, 3, 5]
    assert load_planted_truth(io.StringIO("[]")) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"seed": 3}', "no informative indices"),
        ('{"informative": [1, "two"]}', "non-negative integer indices"),
        ('{"informative": {"l0": [1, -2]}}', "non-negative integer indices"),
        ('{"informative": 4}', "non-negative integer indices"),
        ("not json", "is not a readable JSON file"),
    ],
)
def test_load_planted_truth_malformed_files_name_the_file(tmp_path, text, message):
    """Check that malformed truth files raise MLFSError naming the file."""
    path = tmp_path / "odd_truth.json"
    path.write_text(text)
    with pytest.raises(MLFSError, match=f"odd_truth.json.*{message}"):
        load_planted_truth(path)


def test_load_planted_truth_missing_file_raises(tmp_path):
    """Check that a missing file raises MLFSError naming it."""
    with pytest.raises(MLFSError, match="gone.json is not a readable JSON file"):
        load_planted_truth(tmp_path / "gone.json")
