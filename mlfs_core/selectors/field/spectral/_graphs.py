"""MCLS's instance graphs: nearest neighbours, PKN weights, reconstruction weights.

Neighbour rule (every graph here): the ``k`` nearest neighbours of instance
i are the k instances j != i with the smallest squared Euclidean distance
‖x_i‖² + ‖x_j‖² − 2 x_iᵀx_j, where a value at most 1e-12 (‖x_i‖² +
‖x_j‖²) (the expansion's rounding, or below) counts as 0; the instance itself is
excluded by index, a duplicate row (distance 0) counts as a neighbour, and
equal distances go to the lowest index (a stable sort of each row).
Distances are computed in blocks of rows, so at most
:data:`BLOCK_CELLS` of them are held at once.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

BLOCK_CELLS = 4_000_000
"""Distances held at once by :func:`nearest` (32 MB of float64)."""
_ZERO = 1e-12
"""A distance at most this times ‖x_i‖² + ‖x_j‖² counts as 0 (rounding)."""
_GRAM_ROWS = 250
"""Neighbour differences whose Gram matrix is formed at once (0.5 MB: the
whole product is formed, only its k x k diagonal blocks are kept, so small
blocks waste less; the values do not depend on the block)."""
_EPS = float(np.finfo(np.float64).eps)
"""MATLAB's ``eps`` (2.2e-16), in the PKN weights' denominator."""


def _row_norms(A) -> np.ndarray:
    if sp.issparse(A):
        return np.asarray(A.multiply(A).sum(axis=1), dtype=np.float64).ravel()
    return np.einsum("ij,ij->i", A, A)


def nearest(A, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` nearest neighbours of every row of ``A`` and their distances.

    Parameters
    ----------
    A : ndarray or csr_matrix of shape (n, d)
    k : int
        Neighbours per row, ``1 <= k <= n - 1``.

    Returns
    -------
    index : ndarray of shape (n, k)
        Neighbours by rising distance (the module's rule: self excluded,
        ties to the lowest index).
    dist : ndarray of shape (n, k)
        Their squared Euclidean distances.
    """
    n = A.shape[0]
    sq = _row_norms(A)
    step = max(1, BLOCK_CELLS // max(n, 1))
    index = np.empty((n, k), dtype=np.int64)
    dist = np.empty((n, k))
    AT = A.T.tocsr() if sp.issparse(A) else A.T  # transposed once
    for start in range(0, n, step):  # blocks of rows, not features or labels
        rows = np.arange(start, min(start + step, n))
        inner = A[start : rows[-1] + 1] @ AT
        D = inner.toarray() if sp.issparse(inner) else np.asarray(inner)
        size = sq[rows, None] + sq[None, :]
        D *= -2.0  # D = size - 2 inner, in place (the same bits)
        D += size
        size *= _ZERO
        D[D <= size] = 0.0  # rounding of the expansion: a duplicate
        D[np.arange(rows.size), rows] = np.inf  # the instance itself
        index[rows] = _smallest(D, k)
        dist[rows] = np.take_along_axis(D, index[rows], axis=1)
    return index, dist


def _smallest(D: np.ndarray, k: int) -> np.ndarray:
    """Column indices of each row's ``k`` smallest values, by rising value,
    equal values by the lowest column: what a stable argsort's first ``k``
    columns are, from a partition and a sort of the candidates only."""
    kth = np.partition(D, k - 1, axis=1)[:, k - 1]
    row, col = np.nonzero(D <= kth[:, None])  # every tie of the k-th value
    order = np.lexsort((col, D[row, col], row))
    row, col = row[order], col[order]
    start = np.searchsorted(row, np.arange(D.shape[0]))
    take = start[:, None] + np.arange(k)
    return col[take]


def pkn_graph(index: np.ndarray, dist: np.ndarray) -> sp.csr_matrix:
    """The probabilistic-kNN graph of Nie et al. from ``k + 1`` neighbours.

    Row i gives its j-th neighbour (j <= k) the weight
    (d_{k+1} − d_j) / (k d_{k+1} − Σ_{j<=k} d_j + eps) (the (k+1)-th gets
    0); the graph returned is (W + Wᵀ) / 2, as ``constructW_PKN(X, k, 1)``.
    """
    n, k1 = index.shape
    k = k1 - 1
    last = dist[:, k]
    weights = (last[:, None] - dist[:, :k]) / (
        k * last - dist[:, :k].sum(axis=1) + _EPS
    )[:, None]
    rows = np.repeat(np.arange(n), k)
    W = sp.csr_matrix((weights.ravel(), (rows, index[:, :k].ravel())), shape=(n, n))
    return ((W + W.T) * 0.5).tocsr()


def binary_graph(index: np.ndarray) -> sp.csr_matrix:
    """The 0/1 kNN graph, symmetrised by ``max(A, Aᵀ)`` (Cai's ``constructW``
    with ``'KNN'`` and ``'Binary'``), no self-loops."""
    n, k = index.shape
    rows = np.repeat(np.arange(n), k)
    A = sp.csr_matrix((np.ones(n * k), (rows, index.ravel())), shape=(n, n))
    return A.maximum(A.T).tocsr()


def reconstruction_weights(A, index: np.ndarray) -> sp.csr_matrix:
    """Locally linear reconstruction weights of each row from its neighbours.

    For row i with neighbours N_i (``index[i]``, k of them), z = x_{N_i} − x_i
    and Z = zzᵀ (k x k); Z gets the ridge 1e-3·trace(Z)·I when k > d (the
    number of columns of ``A``) or when Z has rank < k (numpy's
    ``matrix_rank`` with its default tolerance, e.g. a duplicate row among
    the neighbours); then Zw = 1 is solved and w scaled to sum 1. When
    trace(Z) = 0 (every neighbour a duplicate of row i) the weights are
    uniform, 1/k.

    Returns
    -------
    csr_matrix of shape (n, n)
        Row i holds w on the columns N_i.
    """
    n, k = index.shape
    Z = _local_grams(A, index)
    trace = np.trace(Z, axis1=1, axis2=2)
    short = (k > A.shape[1]) | (np.linalg.matrix_rank(Z) < k)
    ridge = np.where(short, 1e-3 * trace, 0.0)
    Z = Z + ridge[:, None, None] * np.eye(k)
    empty = trace <= 0
    Z[empty] = np.eye(k)  # uniform weights below
    w = np.linalg.solve(Z, np.ones((n, k, 1)))[:, :, 0]
    w = w / w.sum(axis=1, keepdims=True)
    rows = np.repeat(np.arange(n), k)
    return sp.csr_matrix((w.ravel(), (rows, index.ravel())), shape=(n, n))


def _local_grams(A, index: np.ndarray) -> np.ndarray:
    """(n, k, k): Z_i = z zᵀ with z = x_{N_i} − x_i (rows), in blocks of rows."""
    n, k = index.shape
    Z = np.empty((n, k, k))
    step = max(1, _GRAM_ROWS // k)
    for start in range(0, n, step):  # blocks of instances
        rows = np.arange(start, min(start + step, n))
        z = A[index[rows].ravel()] - A[np.repeat(rows, k)]
        G = z @ z.T
        G = G.toarray() if sp.issparse(G) else np.asarray(G)
        G = G.reshape(rows.size, k, rows.size, k)
        Z[rows] = G[np.arange(rows.size), :, np.arange(rows.size), :]
    return Z


def normalize_rows(A):
    """Rows scaled to unit L2 norm, as Cai's ``NormalizeFea``: row / sqrt(max(1e-14,
    ‖row‖²)), so a zero row stays zero."""
    scale = 1.0 / np.sqrt(np.maximum(1e-14, _row_norms(A)))
    if sp.issparse(A):
        return sp.csr_matrix(sp.diags(scale) @ A)
    return np.asarray(A) * scale[:, None]
