"""ML-kNN neighbours: distance ascending, ties by lower training index, exact."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from mlfs_core import load_dataset
from mlfs_core.evaluation.classifiers.mlknn import MLkNN
from mlfs_core.evaluation.classifiers.neighbors import (
    nearest_mask,
    neighbour_label_counts,
)
from mlfs_core.measures.discretize import Discretizer


def _oracle_counts(Xq, Xt, Yt, k, exclude_self=False):
    """Brute force: sort every row by (squared distance, training index)."""
    out = []
    for i, x in enumerate(Xq):
        d = ((Xt - x) ** 2).sum(axis=1).astype(float)
        if exclude_self:
            d[i] = np.inf
        order = np.lexsort((np.arange(len(Xt)), d))
        out.append(Yt[order[:k]].sum(axis=0))
    return np.array(out)


def test_equal_distances_keep_the_lower_training_index():
    """Check that of three training points at one distance the first two are kept."""
    Xt = np.array([[1.0], [-1.0], [1.0], [5.0]])
    Yt = np.array([[0], [1], [1], [1]])
    # Query 0: points 0, 1, 2 all at distance 1; k = 2 keeps 0 and 1.
    assert neighbour_label_counts(np.array([[0.0]]), Xt, Yt, 2).tolist() == [[1]]
    assert nearest_mask(np.array([[1.0, 1.0, 1.0, 0.5]]), 2).tolist() == [
        [1.0, 0.0, 0.0, 1.0]
    ]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("container", [np.asarray, sp.csr_matrix])
def test_counts_equal_a_sorting_oracle_on_tied_codes(seed, container):
    """Check counts equal a (distance, index) sort on 3-bin codes full of ties."""
    rng = np.random.default_rng(seed)
    Xt = rng.integers(0, 3, size=(60, 3)).astype(float)
    Xq = rng.integers(0, 3, size=(25, 3)).astype(float)
    Yt = (rng.random((60, 4)) < 0.4).astype(np.int64)
    got = neighbour_label_counts(container(Xq), container(Xt), Yt, 10)
    assert np.array_equal(got, _oracle_counts(Xq, Xt, Yt, 10))
    loo = neighbour_label_counts(
        container(Xt), container(Xt), Yt, 10, exclude_self=True
    )
    assert np.array_equal(loo, _oracle_counts(Xt, Xt, Yt, 10, exclude_self=True))


def test_real_valued_distances_follow_the_rule():
    """Check the column-wise path on real values (with duplicated rows) too."""
    rng = np.random.default_rng(7)
    Xt = np.round(rng.normal(size=(40, 4)), 1)
    Xt[20:] = Xt[:20]  # exact duplicates at equal distances
    Xq = np.round(rng.normal(size=(15, 4)), 1) + 0.05
    Yt = (rng.random((40, 3)) < 0.5).astype(np.int64)
    got = neighbour_label_counts(Xq, Xt, Yt, 7)
    assert np.array_equal(got, _oracle_counts(Xq, Xt, Yt, 7))


def _emotions_codes(shared_datasets, columns):
    ds = load_dataset(shared_datasets / "emotions")
    rows = np.random.default_rng(0).permutation(ds.X.shape[0])
    train, test = rows[:356], rows[356:]
    X = ds.X.toarray()[:, columns]
    disc = Discretizer(bins=3).fit(X[train])
    return disc.transform(X[train]), disc.transform(X[test]), ds.Y[train]


def test_mlknn_is_independent_of_blas_threads(shared_datasets):
    """Check posteriors are bit-equal under 1 and 2 BLAS threads (tied codes)."""
    Xtr, Xte, Ytr = _emotions_codes(shared_datasets, [0, 1])
    with threadpool_limits(1, user_api="blas"):
        one = MLkNN().fit(Xtr, Ytr).predict_proba(Xte)
    with threadpool_limits(2, user_api="blas"):
        two = MLkNN().fit(Xtr, Ytr).predict_proba(Xte)
    assert np.array_equal(one, two)


def test_dense_and_sparse_codes_give_the_same_posteriors(shared_datasets):
    """Check the sparse and the dense distance paths choose the same neighbours."""
    Xtr, Xte, Ytr = _emotions_codes(shared_datasets, list(range(30)))
    dense = MLkNN().fit(Xtr, Ytr).predict_proba(Xte)
    sparse = MLkNN().fit(sp.csr_matrix(Xtr), Ytr).predict_proba(sp.csr_matrix(Xte))
    assert np.array_equal(dense, sparse)


def test_minmax_scaling_equals_scaling_by_hand():
    """Check scaling='minmax' equals 'none' on data scaled by the training range."""
    rng = np.random.default_rng(1)
    Xt = rng.normal(size=(50, 3)) * [1.0, 100.0, 0.01]
    Xt[:, 2] = 4.0  # constant feature -> 0
    Xq = rng.normal(size=(10, 3)) * [1.0, 100.0, 0.01]
    Y = (rng.random((50, 2)) < 0.5).astype(int)
    lo, span = Xt.min(axis=0), np.ptp(Xt, axis=0)
    span[2] = np.inf
    by_hand = MLkNN().fit((Xt - lo) / span, Y).predict_proba((Xq - lo) / span)
    scaled = MLkNN(scaling="minmax").fit(Xt, Y).predict_proba(Xq)
    assert np.allclose(scaled, by_hand, rtol=0, atol=1e-12)
    raw = MLkNN().fit(Xt, Y).predict_proba(Xq)
    assert not np.array_equal(raw, scaled)


def test_unknown_scaling_is_a_config_error():
    """Check an unknown scaling names the parameter."""
    from mlfs_core.errors import ConfigError

    with pytest.raises(ConfigError, match="scaling"):
        MLkNN(scaling="zscore").fit(np.zeros((3, 1)), np.zeros((3, 1)))
