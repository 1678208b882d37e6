"""Compiled loop of the sparse-regression methods (numba, imported lazily).

:func:`lower_sample_gram` forms the lower triangle of ``X diag(w) X^T`` (n x n,
dense), one row at a time: for row ``i``, each of its non-zero features ``f``
(ascending) adds ``(x_if w_f) x_jf`` to ``K[i, j]`` for the non-zero samples
``j <= i`` of ``f``. That is ``O(sum_f nnz_f^2 / 2)`` operations, each written
into the row being built (which stays in cache); :func:`gram_rows` makes whole
rows of ``X X^T`` the same way, a block of rows at a time. On text data ``X
X^T`` is nearly dense, and scipy's sparse product builds it as a sparse matrix
first (hashing every entry), several times slower. Every ``K[i, j]`` is summed
over ``f`` ascending from 0, as scipy's sparse-times-dense product sums it, so
the two agree to the bit. The kernel is ``numba.njit(cache=True)`` without
``fastmath``: IEEE operations in program order, the same bits on every run.
"""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp


def _jit(function):
    """``numba.njit(cache=True)``; uncached where no cache folder is writable."""
    try:
        return numba.njit(cache=True)(function)
    except RuntimeError:  # no cache locator (read-only install)
        return numba.njit(function)


@_jit
def _lower_gram(rptr, rind, rdat, cptr, cind, cdat, weights, n):  # pragma: no cover
    K = np.zeros((n, n))
    for i in range(n):
        for a in range(rptr[i], rptr[i + 1]):
            f = rind[a]
            w = weights[f]
            if w == 0.0:
                continue
            value = rdat[a] * w
            for b in range(cptr[f], cptr[f + 1]):
                j = cind[b]
                if j > i:
                    break
                K[i, j] += value * cdat[b]
    return K


@_jit
def _rows_gram(rptr, rind, rdat, cptr, cind, cdat, start, stop):  # pragma: no cover
    K = np.zeros((stop - start, rptr.size - 1))
    for i in range(start, stop):
        for a in range(rptr[i], rptr[i + 1]):
            value = rdat[a]
            f = rind[a]
            for b in range(cptr[f], cptr[f + 1]):
                K[i - start, cind[b]] += value * cdat[b]
    return K


@_jit
def _mirror(K):  # pragma: no cover - compiled
    for i in range(K.shape[0]):
        for j in range(i + 1, K.shape[0]):
            K[i, j] = K[j, i]


def both_orders(X) -> tuple[sp.csr_matrix, sp.csc_matrix]:
    """``X`` as CSR and as CSC, float64, indices sorted (made once per fit)."""
    R = sp.csr_matrix(X, dtype=np.float64)
    R.sort_indices()
    C = R.tocsc()
    C.sort_indices()
    return R, C


def lower_sample_gram(R, C, weights: np.ndarray) -> np.ndarray:
    """The lower triangle of ``X diag(weights) X^T`` (dense; zeros above).

    Parameters
    ----------
    R, C : csr_matrix, csc_matrix
        The same ``X`` in both orders (:func:`both_orders`).
    weights : ndarray of shape (n_features,)
    """
    w = np.asarray(weights, np.float64)
    return _lower_gram(
        R.indptr, R.indices, R.data, C.indptr, C.indices, C.data, w, R.shape[0]
    )


def gram_rows(R, C, start: int, stop: int) -> np.ndarray:
    """Rows ``start:stop`` of ``X X^T``, dense (``R``, ``C``: :func:`both_orders`)."""
    return _rows_gram(
        R.indptr, R.indices, R.data, C.indptr, C.indices, C.data, start, stop
    )


def sample_gram(X, weights: np.ndarray) -> np.ndarray:
    """``X diag(weights) X^T`` as a dense symmetric array (``X``: any sparse)."""
    K = lower_sample_gram(*both_orders(X), weights)
    _mirror(K)
    return K
