"""Tests of mlfs_core.evaluation.metrics."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import METRICS, compute_metrics, get_metric, one_error

LOWER_IS_BETTER = {"hamming_loss", "ranking_loss", "coverage_error", "one_error"}


def test_metric_registry_directions():
    """Check that losses, coverage and one-error are lower-is-better, others higher."""
    assert len(METRICS) == 10
    for name, spec in METRICS.items():
        assert spec.higher_is_better == (name not in LOWER_IS_BETTER), name


def test_metric_directions_on_perfect_vs_bad_predictions(rng):
    """Check that a perfect prediction beats an inverted one in every metric."""
    Y = (rng.random((30, 4)) < 0.4).astype(int)
    Y[0] = [1, 0, 0, 0]
    good = compute_metrics(Y, Y, Y + 0.1 * rng.random(Y.shape))
    bad = compute_metrics(Y, 1 - Y, 1 - Y + 0.1 * rng.random(Y.shape))
    for name, spec in METRICS.items():
        better = (
            good[name] > bad[name] if spec.higher_is_better else good[name] < bad[name]
        )
        assert better, name


def test_one_error_hand_example():
    """Check one-error by hand, an empty-label sample counting as correct."""
    Y = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]])
    S = np.array([[0.9, 0.5, 0.1], [0.9, 0.5, 0.1], [0.2, 0.2, 0.3], [1.0, 0.0, 0.0]])
    assert one_error(Y, S) == pytest.approx(0.25)


def test_metrics_match_sklearn(rng):
    """Check that registry metrics equal the scikit-learn functions they wrap."""
    Y = (rng.random((25, 5)) < 0.4).astype(int)
    P = (rng.random((25, 5)) < 0.4).astype(int)
    S = rng.random((25, 5))
    out = compute_metrics(Y, P, S)
    assert out["micro_f1"] == pytest.approx(skm.f1_score(Y, P, average="micro"))
    assert out["ranking_loss"] == pytest.approx(skm.label_ranking_loss(Y, S))
    assert out["coverage_error"] == pytest.approx(skm.coverage_error(Y, S))
    assert out["subset_accuracy"] == pytest.approx(skm.accuracy_score(Y, P))


def test_metrics_finite_on_degenerate_data():
    """Check that all-zero, all-one and single-label inputs give finite values."""
    for Y, P in [
        (np.zeros((4, 3), int), np.zeros((4, 3), int)),
        (np.ones((4, 3), int), np.zeros((4, 3), int)),
        (np.array([[1], [0], [1]]), np.array([[1], [1], [0]])),
    ]:
        out = compute_metrics(Y, P, np.zeros(Y.shape))
        assert all(np.isfinite(v) for v in out.values())


def test_single_label_f1_is_the_label_f1():
    """Check that micro/macro F1 of a single label column is that label's F1."""
    out = compute_metrics([[1], [0], [1]], [[1], [1], [0]], np.zeros((3, 1)))
    assert out["micro_f1"] == pytest.approx(0.5)
    assert out["macro_f1"] == pytest.approx(0.5)


def test_label_mask_drops_labels():
    """Check that label_mask keeps only the chosen labels, NaN when none is kept."""
    Y = np.array([[1, 0], [0, 0]])
    P = np.array([[1, 1], [0, 1]])
    out = compute_metrics(Y, P, P, metrics=["hamming_loss"], label_mask=[True, False])
    assert out["hamming_loss"] == 0.0
    out = compute_metrics(Y, P, P, metrics=["hamming_loss"], label_mask=[False, False])
    assert np.isnan(out["hamming_loss"])


def test_unknown_metric_raises():
    """Check that an unknown metric name raises ConfigError listing the known ones."""
    with pytest.raises(ConfigError, match="micro_f1"):
        get_metric("f2")
