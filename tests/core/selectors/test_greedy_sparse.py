"""Sparse codes give the rankings of dense codes, for every IT method.

The engine discretizes only the stored values of a sparse X and keeps the
non-mode codes in CSC form; these tests compare that path with the dense
code matrix of ``Discretizer.transform`` ranked by the same engine, and with
the naive oracle of ``test_greedy_oracle.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core import check_rng, compute_ranking
from mlfs_core.measures.discretize import Discretizer
from mlfs_core.selectors.greedy import IT_METHODS, rank_discrete
from mlfs_core.selectors.it.codes import prepare_codes

from .test_greedy_oracle import naive_rank


def _sparse_problem(seed: int) -> tuple[sp.csr_matrix, np.ndarray]:
    """Mostly-zero counts plus the awkward columns of a real upload."""
    rng = check_rng(seed)
    n, m, q = 48, 9, 3
    X = rng.poisson(0.4, size=(n, m)).astype(float)
    X[:, 3] = rng.normal(size=n)  # negative values: zero is not code 0
    X[:, 4] = rng.integers(1, 4, size=n)  # zero absent, three stored values
    X[: n // 4, 4] = 0.0  # ... and some zeros that are not the mode
    X[:, 5] = 0.0  # an empty column
    X[:, 6] = 2.5  # a constant column
    Y = (rng.random((n, q)) < 0.3).astype(np.int8)
    Y[:, 0] = X[:, 0] > 0
    return sp.csr_matrix(X), Y


@pytest.mark.parametrize("method", IT_METHODS)
@pytest.mark.parametrize("strategy", ["uniform", "quantile", "binary"])
def test_sparse_and_dense_input_give_the_same_ranking(method, strategy):
    """Check that sparse X ranks as its dense codes do, with the same path."""
    X, Y = _sparse_problem(3)
    dense_codes = Discretizer(3, strategy=strategy).fit_transform(X.toarray())
    tau = {"tau": 2} if method in ("ATR", "PPT-MI") else {}
    dense = rank_discrete(dense_codes, Y, method, **tau)
    sparse = compute_ranking(X, Y, method, discretize=strategy, **tau)
    assert sparse.order.tolist() == dense.order.tolist()
    np.testing.assert_allclose(sparse.criterion_path, dense.criterion_path, atol=1e-12)


@pytest.mark.parametrize("method", IT_METHODS)
def test_sparse_input_matches_the_naive_oracle(method):
    """Check the sparse path against the naive oracle on the dense codes."""
    X, Y = _sparse_problem(5)
    codes = Discretizer(3).fit_transform(X.toarray())
    order, path = naive_rank(codes, Y, method)
    fast = compute_ranking(X, Y, method)
    assert fast.order.tolist() == order
    np.testing.assert_allclose(fast.criterion_path, path, rtol=0, atol=1e-9)


def test_problem_codes_are_sparse_small_integers():
    """Check that the discrete problem stores only non-mode codes, as uint8."""
    X, Y = _sparse_problem(7)
    codes, zero_codes = Discretizer(3).fit(X).transform_stored(X)
    problem = prepare_codes(codes, Y, zero_codes=zero_codes)
    assert sp.issparse(problem.codes)
    assert problem.codes.dtype == np.uint8
    assert problem.codes.nnz <= X.nnz
    dense = Discretizer(3).fit_transform(X.toarray())
    modes = [np.bincount(dense[:, j]).argmax() for j in range(X.shape[1])]
    assert problem.codes.nnz == int((dense != np.array(modes)).sum())


def test_transform_stored_equals_transform():
    """Check that stored codes plus zero codes rebuild the dense transform."""
    X, _ = _sparse_problem(9)
    disc = Discretizer(4).fit(X)
    codes, zero_codes = disc.transform_stored(X)
    rebuilt = np.tile(zero_codes, (X.shape[0], 1))
    coo = codes.tocoo()
    rebuilt[coo.row, coo.col] = coo.data
    np.testing.assert_array_equal(rebuilt, disc.transform(X))


@pytest.mark.parametrize("seed", range(6))
def test_sparse_pair_sum_equals_the_dense_pair_blocks(seed, monkeypatch):
    """Check sum_{i<j} H(f, l_i, l_j) (sparse corrections) against the dense blocks."""
    from mlfs_core.selectors.it import pairs as _it_pairs
    from mlfs_core.selectors.it import pairs_sparse as _it_pairs_sparse

    rng = check_rng(seed)
    n, m, q, bins = 40 + seed, 7, 2 + seed % 4, 2 + seed % 3
    codes = rng.integers(0, bins, size=(n, m))
    codes[rng.random((n, m)) < 0.6] = 0  # sparse, with several codes >= 1
    Y = (rng.random((n, q)) < 0.4).astype(np.int8)
    problem = prepare_codes(codes, Y)
    dense = np.zeros(m)
    for fs, _, _, h3 in _it_pairs.triple_blocks(problem):
        dense[fs] += h3.sum(axis=1)
    if seed % 2:  # tiny chunks: many chunks, features split nowhere
        monkeypatch.setattr(_it_pairs_sparse, "_CHUNK", 2)
        monkeypatch.setattr(_it_pairs_sparse, "_PAIR_CHUNK", 3)
    np.testing.assert_allclose(
        _it_pairs.triple_entropy_sum(problem), dense, rtol=0, atol=1e-9
    )


@pytest.mark.parametrize("seed", range(6))
def test_unique_keys_equals_numpy_unique_on_both_paths(seed, monkeypatch):
    """Check the mask path and the np.unique path give np.unique's arrays."""
    from mlfs_core.selectors.it import data as _it_data

    rng = np.random.default_rng(seed)
    n_keys = int(rng.integers(1, 5000))
    keys = rng.integers(0, n_keys, size=int(rng.integers(0, 3000)))
    want_u, want_inv = np.unique(keys, return_inverse=True)
    for limit in (1 << 25, 0):  # mask path, then (range > 8 x keys) np.unique
        monkeypatch.setattr(_it_data, "DENSE_KEY_RANGE", limit)
        u, inv = _it_data.unique_keys(keys, max(n_keys, 1 if limit else 10**7))
        np.testing.assert_array_equal(u, want_u)
        np.testing.assert_array_equal(inv, want_inv.ravel())
