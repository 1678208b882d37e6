"""The binarize rule of the paper-000 measures: presence (text) or median (dense)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core import load_dataset, rank_features
from mlfs_core.errors import ConfigError
from mlfs_core.measures.counts import binarize, contingency_counts


@pytest.mark.parametrize("seed", range(10))
def test_median_rule_equals_numpy_median(seed):
    """Check 'median' marks exactly the values above np.median, any sign or density."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(31, 8))
    X[:, 1] = 0.0  # constant
    X[:20, 2] = 0.0  # mostly zero, non-negative part
    X[:, 3] = np.abs(X[:, 3])
    X[:10, 4] = 0.0  # zeros above a negative median
    X[:, 5] = np.round(X[:, 5])  # ties at the median
    B = binarize(sp.csr_matrix(X), "median").toarray()
    assert np.array_equal(B, (X > np.median(X, axis=0)).astype(float))


def test_presence_is_the_default_and_unknown_rules_fail():
    """Check presence = non-zero is the default and a bad rule names the parameter."""
    X = sp.csr_matrix(np.array([[0.0, 2.0], [-1.0, 0.0]]))
    assert np.array_equal(binarize(X).toarray(), [[0, 1], [1, 0]])
    with pytest.raises(ConfigError, match="binarize"):
        binarize(X, "mean")


def test_median_counts_are_the_counts_of_the_thresholded_matrix():
    """Check the 2x2 counts under 'median' are those of (X > median) under presence."""
    rng = np.random.default_rng(4)
    X = rng.gamma(2.0, size=(50, 6))
    Y = (rng.random((50, 3)) < 0.4).astype(np.int8)
    above = sp.csr_matrix((X > np.median(X, axis=0)).astype(float))
    a = contingency_counts(sp.csr_matrix(X), Y, rule="median")
    b = contingency_counts(above, Y)
    assert np.array_equal(a.tp, b.tp) and np.array_equal(a.present, b.present)


def test_dense_yeast_presence_ties_everything_median_does_not(shared_datasets):
    """Check yeast: presence ties 102 of 103 MaxCS scores, median separates them."""
    from mlfs_core.selectors.api import compute_ranking

    ds = load_dataset(shared_datasets / "yeast")
    tied = {}
    for rule in ("presence", "median"):
        scores = compute_ranking(ds.X, ds.Y, "MaxCS", binarize=rule).scores
        tied[rule] = np.unique(scores, return_counts=True)[1].max()
    assert tied["presence"] >= 100 and tied["median"] <= 3
    top = rank_features(ds.X, ds.Y, "MaxCS", k=10, binarize="median").tolist()
    assert top != rank_features(ds.X, ds.Y, "MaxCS", k=10).tolist()
