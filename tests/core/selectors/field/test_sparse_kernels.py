"""The compiled Gram kernels and the Cholesky solve of the sparse-regression methods.

Each kernel is checked against plain loops over the matrix entries, and
against scipy's sparse-times-dense product, which sums every entry in the same
order (features ascending), to the bit. The solve is checked against numpy,
for the triangle it reads, its fallback, and the number of BLAS threads.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from mlfs_core.selectors.field import sparse as fs
from mlfs_core.selectors.field.sparse import _kernels
from mlfs_core.selectors.field.sparse._common import spd_solve


def _sparse(n, m, seed=0, density=0.3):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m)) * (rng.random((n, m)) < density)
    return sp.csr_matrix(X)


def _weighted_gram_by_loops(X, w):
    n, m = X.shape
    K = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            for f in range(m):
                K[i, j] += X[i, f] * w[f] * X[j, f]
    return K


def test_lower_sample_gram_is_the_lower_triangle_of_x_w_xt():
    """Check the kernel's lower triangle (zero weights included) against loops,
    zeros above the diagonal, and sample_gram's full symmetric matrix."""
    X = _sparse(17, 23, seed=1)
    w = np.random.default_rng(2).random(23)
    w[[0, 5]] = 0.0
    K = _kernels.lower_sample_gram(*_kernels.both_orders(X), w)
    oracle = _weighted_gram_by_loops(X.toarray(), w)
    np.testing.assert_allclose(np.tril(K), np.tril(oracle), rtol=1e-13, atol=1e-14)
    assert not np.triu(K, 1).any()
    full = _kernels.sample_gram(sp.csc_matrix(X), w)
    np.testing.assert_array_equal(full, full.T)
    np.testing.assert_array_equal(np.tril(full), K)


def test_gram_rows_agree_with_scipys_product_to_the_bit():
    """Check a block of rows of X X^T (and the lower kernel with unit weights)
    equals scipy's sparse-times-dense product bit for bit (same order of sums)."""
    X = _sparse(40, 300, seed=3)
    R, C = _kernels.both_orders(X)
    scipy_rows = np.asarray(X @ X[5:19].T.toarray()).T
    np.testing.assert_array_equal(_kernels.gram_rows(R, C, 5, 19), scipy_rows)
    whole = np.asarray(X @ X.T.toarray())
    lower = _kernels.lower_sample_gram(R, C, np.ones(300))
    np.testing.assert_array_equal(lower, np.tril(whole))
    np.testing.assert_allclose(
        whole, _weighted_gram_by_loops(X.toarray(), np.ones(300))
    )


def _spd(d, seed):
    rng = np.random.default_rng(seed)
    A = rng.random((d, d + 3))
    return A @ A.T + np.eye(d), rng.random((d, 4))


def test_spd_solve_reads_the_triangle_it_says():
    """Check the whole-matrix solve and the lower-triangle solve (NaN above the
    diagonal, never read) give numpy's solution."""
    S, rhs = _spd(30, 4)
    expected = np.linalg.solve(S, rhs)
    np.testing.assert_allclose(spd_solve(S.copy(), rhs), expected, rtol=1e-10)
    lower = np.tril(S)
    lower[np.triu_indices(30, 1)] = np.nan
    called = []
    got = spd_solve(lower, rhs, lambda: called.append(1))
    np.testing.assert_allclose(got, expected, rtol=1e-10)
    assert not called  # rebuild() only for the fallback


def test_spd_solve_falls_back_to_least_squares_on_a_singular_matrix():
    """Check a positive semi-definite (singular) matrix gets lstsq's solution of
    the whole matrix, remade from the untouched triangle or by rebuild()."""
    import scipy.linalg as sl

    rng = np.random.default_rng(5)
    A = rng.random((8, 3))
    S = A @ A.T  # rank 3
    rhs = S @ rng.random((8, 2))  # consistent
    expected = sl.lstsq(S, rhs)[0]
    np.testing.assert_allclose(spd_solve(S.copy(), rhs), expected, atol=1e-8)
    got = spd_solve(np.tril(S), rhs, lambda: S.copy())
    np.testing.assert_allclose(got, expected, atol=1e-8)


@pytest.mark.parametrize("method", ["RFS", "MIFS", "LLSF"])
def test_the_same_bits_on_one_and_on_two_blas_threads(method):
    """Check the n x n form (n = 240, above OpenBLAS's threading threshold for
    its Cholesky) gives the same W whatever the number of BLAS threads."""
    X = _sparse(240, 400, seed=6, density=0.05)
    Y = (np.random.default_rng(7).random((240, 5)) < 0.3).astype(float)
    fits = []
    for threads in (1, 2):
        with threadpool_limits(limits=threads, user_api="blas"):
            fits.append(fs.fit_sparse(method, X, Y, max_iter=4, tol=0))
    assert fits[0].W.tobytes() == fits[1].W.tobytes()
    assert fits[0].objective_path.tobytes() == fits[1].objective_path.tobytes()
