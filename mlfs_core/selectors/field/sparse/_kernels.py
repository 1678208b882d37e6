"""Compiled loop of the sparse-regression methods (numba, imported lazily).

:func:`sample_gram` forms ``X diag(w) X^T`` (n x n, dense) from the columns
of a CSC ``X``: one pass per feature over the pairs of its non-zero samples,
``O(sum_f nnz_f^2 / 2)`` operations straight into the dense result. On text
data ``X X^T`` is nearly dense, and scipy's sparse product builds it as a
sparse matrix first (hashing every entry), several times slower. The kernel
is ``numba.njit(cache=True)`` without ``fastmath``: IEEE operations in
program order, the same bits on every run.
"""

from __future__ import annotations

import numba
import numpy as np


def _jit(function):
    """``numba.njit(cache=True)``; uncached where no cache folder is writable."""
    try:
        return numba.njit(cache=True)(function)
    except RuntimeError:  # no cache locator (read-only install)
        return numba.njit(function)


@_jit
def _lower_gram(indptr, indices, data, weights, n):  # pragma: no cover - compiled
    K = np.zeros((n, n))
    for f in range(indptr.size - 1):
        w = weights[f]
        if w == 0.0:
            continue
        for a in range(indptr[f], indptr[f + 1]):
            row = indices[a]
            value = data[a] * w
            for b in range(indptr[f], a + 1):
                K[row, indices[b]] += value * data[b]
    return K


@_jit
def _mirror(K):  # pragma: no cover - compiled
    for i in range(K.shape[0]):
        for j in range(i + 1, K.shape[0]):
            K[i, j] = K[j, i]


def sample_gram(X, weights: np.ndarray) -> np.ndarray:
    """``X diag(weights) X^T`` as a dense symmetric array (``X``: any sparse)."""
    C = X.tocsc()
    C.sort_indices()
    w = np.asarray(weights, np.float64)
    K = _lower_gram(C.indptr, C.indices, C.data, w, C.shape[0])
    _mirror(K)
    return K
