"""The RF-ML Learn page's engine: one reference instance, replayed exactly."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core import compute_ranking
from mlfs_core.errors import ConfigError
from mlfs_core.explain import relief_steps, relief_totals
from mlfs_core.plots import neighbour_scatter, weight_shift_figure
from mlfs_core.selectors.field._scaling import scale
from mlfs_core.selectors.field.relief import nearest_neighbours, relief_sums


def _data(seed=0, n=30, m=6, q=3):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m)) * (rng.random((n, m)) < 0.6)
    Y = (rng.random((n, q)) < 0.4).astype(int)
    return sp.csr_matrix(X), Y


@pytest.mark.parametrize("reference", [0, 7, 29])
def test_after_is_rf_ml_and_before_leaves_the_reference_out(reference):
    """Check that the weights "after" are RF-ML's scores, "before" RF-ML's
    weights from every other reference, and the neighbours the engine's."""
    X, Y = _data()
    steps = relief_steps(X, Y, reference, n_neighbors=4)
    by_feature = steps.weights.sort_values("feature")
    scores = compute_ranking(X, Y, "RF-ML", n_neighbors=4).scores
    np.testing.assert_allclose(by_feature["after"], scores, rtol=1e-12)
    Xs = scale(X)
    others = np.setdiff1d(np.arange(30), [reference])
    without = relief_sums(Xs, Y, nearest_neighbours(Xs, others, 4)).weights()
    np.testing.assert_allclose(by_feature["before"], without, rtol=1e-9, atol=1e-12)
    own = nearest_neighbours(Xs, np.array([reference]), 4)
    assert steps.neighbours["instance"].tolist() == own.index[0].tolist()
    assert steps.neighbours["rank"].tolist() == [1, 2, 3, 4]
    assert steps.weights["after"].is_monotonic_decreasing
    hamming = (Y[own.index[0]] != Y[reference]).mean(axis=1)
    assert steps.neighbours["label_distance"].tolist() == hamming.tolist()


def test_points_hold_every_neighbour_and_a_bounded_share_of_the_rest():
    X, Y = _data(n=60)
    steps = relief_steps(X, Y, 3, n_neighbors=5, max_points=20)
    assert steps.n_points == 59 and len(steps.points) <= 20
    shown = steps.points[steps.points["neighbour"]]
    assert sorted(shown["instance"]) == sorted(steps.neighbours["instance"])
    assert 3 not in steps.points["instance"].tolist()
    full = relief_steps(X, Y, 3, n_neighbors=5)
    assert len(full.points) == 59
    assert full.points["feature_distance"].is_monotonic_increasing


def test_a_given_total_is_used_and_bad_input_is_refused():
    X, Y = _data()
    total = relief_totals(X, Y, n_neighbors=3)
    a = relief_steps(X, Y, 2, n_neighbors=3, total=total)
    b = relief_steps(X, Y, 2, n_neighbors=3)
    assert a.weights.equals(b.weights)
    with pytest.raises(ConfigError, match="reference"):
        relief_steps(X, Y, 30)
    with pytest.raises(ConfigError, match="two instances"):
        relief_totals(X[:1], Y[:1])


def test_figures_draw_neighbours_and_weight_shifts():
    """Check the traces and axis titles of the page's two figures."""
    X, Y = _data()
    steps = relief_steps(X, Y, 1, n_neighbors=4)
    scatter = neighbour_scatter(steps.points)
    assert [t.name for t in scatter.data] == ["other instances", "k nearest neighbours"]
    assert len(scatter.data[1].x) == 4 and len(scatter.data[0].x) == 25
    assert scatter.layout.xaxis.title.text.startswith("feature distance")
    assert scatter.layout.yaxis.title.text.startswith("label distance")
    names = [f"f{i}" for i in range(6)]
    shift = weight_shift_figure(steps.weights, feature_names=names, top=3)
    assert len(shift.data) == 3
    assert [t.name for t in shift.data[1:]] == [
        "without this instance",
        "with this instance",
    ]
    assert list(shift.data[2].x) == steps.weights["after"].head(3).tolist()
    assert shift.layout.xaxis.title.text == "RF-ML weight"
