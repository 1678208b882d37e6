"""Tests of the vectorized contingency counts."""

import numpy as np
import pytest
from scipy.sparse import csc_array, csr_array, csr_matrix

from mlfs_core.measures.counts import contingency_counts

CONTAINERS = [np.asarray, csr_array, csc_array, csr_matrix]


def _literal_algorithm(X, Y):
    """Algorithm 3.1 of paper 000 written as the obvious loops over samples."""
    X = np.asarray(X)
    n, m = X.shape
    q = Y.shape[1]
    tp, fp, fn, tn = (np.zeros((q, m)) for _ in range(4))
    for s in range(n):
        for i in range(q):
            for j in range(m):
                present, positive = X[s, j] != 0, Y[s, i] == 1
                if present and positive:
                    tp[i, j] += 1
                elif present:
                    fp[i, j] += 1
                elif positive:
                    fn[i, j] += 1
                else:
                    tn[i, j] += 1
    return tp, fp, fn, tn


@pytest.mark.parametrize("to_container", CONTAINERS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_counts_match_literal_loop(to_container, seed):
    """Check that the sparse-product counts equal a literal loop over samples (dense and
    sparse).
    """
    rng = np.random.default_rng(seed)
    X = rng.poisson(0.5, size=(30, 9)) * rng.choice([-1.0, 1.0, 2.5], size=(30, 9))
    Y = (rng.random((30, 5)) < 0.3).astype(int)
    got = contingency_counts(csr_matrix(to_container(X)), Y)
    for g, e in zip(got.cells(), _literal_algorithm(X, Y)):
        np.testing.assert_array_equal(g, e)


def test_counts_ignore_explicit_zeros():
    """Check that explicitly stored zeros in a sparse matrix are not counted as
    presences.
    """
    X = csr_matrix(
        (np.array([0.0, 1.0]), np.array([0, 1]), np.array([0, 2])), shape=(1, 2)
    )
    c = contingency_counts(X, np.array([[1]]))
    assert c.tp.tolist() == [[0.0, 1.0]]
    assert c.fn.tolist() == [[1.0, 0.0]]


def test_cells_sum_to_n(small_xy):
    """Check that the four cells of every table add up to the number of samples."""
    X, Y = small_xy
    c = contingency_counts(csr_matrix(X), Y)
    np.testing.assert_array_equal(
        c.tp + c.fp + c.fn + c.tn, np.full(c.tp.shape, X.shape[0])
    )
