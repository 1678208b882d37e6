"""scikit-learn <= 1.0's edge rule as the papers' registered strategy."""

from __future__ import annotations

import numpy as np
import pytest

import mlfs_core
from mlfs_core.measures.binning import binning_names
from mlfs_core.measures.discretize import Discretizer
from mlfs_papers.paper001.binning import NAME


def test_the_strategy_is_registered_by_the_papers_package():
    """Check the papers' package registers it under a name of its own."""
    assert NAME == "uniform-sklearn-1.0" and NAME in binning_names()
    assert NAME in mlfs_core.get_method("PMU").option("discretize").choices


def test_it_nudges_values_below_an_edge_as_scikit_learn_1_0_did():
    """Check the old rule: np.digitize(x + 1e-8 + 1e-5 |x|, edges) clipped."""
    X = np.array([[0.0], [3.0]])  # inner edges 1 and 2
    probe = np.array([[1.0 - 1e-7], [2.0 - 5e-6], [1.0 - 1e-3]])
    modern = Discretizer(3).fit(X).transform(probe).ravel()
    legacy = Discretizer(3, strategy=NAME).fit(X).transform(probe).ravel()
    assert modern.tolist() == [0, 1, 0]
    assert legacy.tolist() == [1, 2, 0]
    eps = 1e-8 + 1e-5 * np.abs(probe.ravel())
    old = np.clip(np.digitize(probe.ravel() + eps, [1.0, 2.0, 3.0]), 0, 2)
    np.testing.assert_array_equal(legacy, old)


def test_it_reaches_a_greedy_method():
    """Check discretize = the old rule: a value 1e-7 below the edge 1 goes to the
    upper bin, so feature 0 separates the label perfectly (I(f; y) = H(y))."""
    x = np.array([0.0, 0.0, 1 - 1e-7, 1 - 1e-7, 3.0, 3.0])
    X = np.column_stack([x, [0, 1, 0, 1, 0, 1]])
    Y = np.array([[0], [0], [1], [1], [1], [1]])
    legacy = mlfs_core.compute_ranking(X, Y, "SCLS", discretize=NAME, k=1)
    entropy_y = -(1 / 3) * np.log2(1 / 3) - (2 / 3) * np.log2(2 / 3)
    assert legacy.criterion_path[0] == pytest.approx(entropy_y)
