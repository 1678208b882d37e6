"""Documented conventions of the ranking metrics (coverage + 1, empty rows)."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core.evaluation.metrics import METRICS, compute_metrics

EMPTY = np.array([[0, 0, 0]])
SCORES = np.array([[0.1, 0.2, 0.3]])


def test_coverage_is_zhang_zhou_plus_one():
    """Check coverage error of a perfect single-label ranking is 1 (Mulan's 0)."""
    Y = np.array([[0, 0, 1]])
    value = compute_metrics(Y, Y, SCORES, metrics=("coverage_error",))
    assert value["coverage_error"] == 1.0
    assert "coverage + 1" in METRICS["coverage_error"].description


@pytest.mark.parametrize(
    "metric, expected",
    [("coverage_error", 0.0), ("ranking_loss", 0.0), ("average_precision", 1.0)]
    + [("one_error", 0.0)],
)
def test_rows_without_true_labels(metric, expected):
    """Check how each ranking metric scores a sample with no true label."""
    value = compute_metrics(EMPTY, EMPTY, SCORES, metrics=(metric,))[metric]
    assert value == expected
