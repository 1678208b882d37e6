"""Exact, deterministic k-nearest-neighbour label counts for ML-kNN.

The rule (METHODS.md section 5 B): neighbours by Euclidean distance ascending,
equal distances by the lower training index; a training sample is never its
own neighbour. The result must not depend on BLAS threads, ``n_jobs``, the
machine or the order of the training rows beyond that rule, so:

- Integer-valued data whose squared distances stay below 2^53 (the discretized
  codes of protocol B) get squared distances ``|x|^2 + |t|^2 - 2 x.t`` from a
  float64 matrix product: every partial sum is a whole number below 2^53, so
  the result is exact whatever the summation order or thread count.
- Sparse data use scipy's sparse product, which runs on one thread in a fixed
  order, so distances are the same on every run.
- Other dense data get squared distances summed column by column in a fixed
  order with elementwise numpy operations (no BLAS reduction), so every run
  gives the same floats.

Only the *set* of the k nearest matters to ML-kNN (it counts the labels among
them), so no sort is needed: the k-th smallest distance is found with a
partition, every strictly closer point is in, and the points at exactly that
distance are taken in training-index order until k are chosen.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

_EXACT = 2.0**53
_BLOCK_CELLS = 4_000_000  # distances held at once (32 MB of float64)


def neighbour_label_counts(
    X_query, X_train, Y_train: np.ndarray, k: int, *, exclude_self: bool = False
) -> np.ndarray:
    """Count, per query row and label, the positives among its k nearest neighbours.

    Parameters
    ----------
    X_query : ndarray or sparse matrix of shape (n_query, n_features)
    X_train : ndarray or sparse matrix of shape (n_train, n_features)
    Y_train : ndarray of shape (n_train, n_labels), 0/1
    k : int
        Number of neighbours, ``1 <= k`` and ``k <= n_train`` (``n_train - 1``
        with ``exclude_self``).
    exclude_self : bool, default=False
        Leave-one-out on the training set: ``X_query`` is ``X_train`` and row
        ``i`` is never its own neighbour.

    Returns
    -------
    ndarray of shape (n_query, n_labels), int64
        Neighbour label counts, each in ``[0, k]``.

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [1.0], [3.0]])
    >>> Y = np.array([[1], [0], [1], [0]])
    >>> neighbour_label_counts(np.array([[2.0]]), X, Y, 1).tolist()
    [[0]]
    """
    Yi = np.asarray(Y_train, dtype=np.int64)
    distances = _distance_function(X_query, X_train)
    n_query, n_train = X_query.shape[0], X_train.shape[0]
    rows = max(1, _BLOCK_CELLS // max(n_train, 1))
    out = np.empty((n_query, Yi.shape[1]), dtype=np.int64)
    for start in range(0, n_query, rows):
        stop = min(n_query, start + rows)
        D = distances(start, stop)
        if exclude_self:
            far = D.max() + 1 if D.dtype.kind == "i" else np.inf
            D[np.arange(stop - start), np.arange(start, stop)] = far
        columns = _nearest_indices(D, k)
        out[start:stop] = Yi[columns].sum(axis=1)
    return out


def nearest_mask(D: np.ndarray, k: int) -> np.ndarray:
    """Boolean mask of each row's k smallest entries, ties by lower column.

    The k-th smallest value comes from a partition; every strictly smaller
    entry is in; the entries equal to it are taken in column order, one
    ``argmax`` (the first remaining True) per missing neighbour, so at most
    ``k`` passes and no cumulative sum over whole rows.

    Examples
    --------
    >>> nearest_mask(np.array([[2.0, 1.0, 1.0, 0.0]]), 2).tolist()
    [[False, True, False, True]]
    """
    kth = _kth_smallest(D, k)
    chosen = D < kth
    equal = D == kth
    left = k - chosen.sum(axis=1)
    rows = np.arange(D.shape[0])
    while True:
        active = left > 0
        if not active.any():
            return chosen
        r = rows[active]
        first = equal[r].argmax(axis=1)  # lowest column still at the k-th value
        chosen[r, first] = True
        equal[r, first] = False
        left[active] -= 1


_MAX_COUNTED = 1 << 16  # integer distances up to this are counted, not partitioned


def _kth_smallest(D: np.ndarray, k: int) -> np.ndarray:
    """Each row's k-th smallest value, shape (n_rows, 1).

    Integer distances (exact squared distances of integer codes) take few
    distinct values, where a partition degrades badly on the many duplicates;
    they are counted instead: a histogram per row (one ``bincount``) and its
    running sum give the first value reached by k entries.
    """
    if D.dtype.kind != "i" or D.size == 0 or D.max() >= _MAX_COUNTED:
        return np.partition(D, k - 1, axis=1)[:, k - 1 : k]
    width = int(D.max()) + 1
    rows = D.shape[0]
    flat = (np.arange(rows)[:, None] * width + D).ravel()
    hist = np.bincount(flat, minlength=rows * width).reshape(rows, width)
    reached = np.cumsum(hist, axis=1) >= k
    return reached.argmax(axis=1)[:, None].astype(D.dtype)


def _nearest_indices(D: np.ndarray, k: int) -> np.ndarray:
    """Column indices (ascending) of each row's k nearest, shape (n_rows, k)."""
    return np.nonzero(nearest_mask(D, k))[1].reshape(D.shape[0], k)


def _distance_function(X_query, X_train):
    """Return ``f(start, stop)`` giving squared distances of a block of queries."""
    if sp.issparse(X_query) or sp.issparse(X_train):
        return _sparse_distances(sp.csr_matrix(X_query), sp.csr_matrix(X_train))
    Xq = np.asarray(X_query, dtype=np.float64)
    Xt = np.asarray(X_train, dtype=np.float64)
    if _integer_exact(Xq, Xt):
        return _product_distances(Xq, Xt)
    return _columnwise_distances(Xq, Xt)


def _integer_exact(Xq: np.ndarray, Xt: np.ndarray) -> bool:
    if Xq.size == 0 or Xt.size == 0:
        return True
    if not (np.array_equal(Xq, np.rint(Xq)) and np.array_equal(Xt, np.rint(Xt))):
        return False
    biggest = max(np.abs(Xq).max(), np.abs(Xt).max())
    return 4.0 * Xq.shape[1] * biggest * biggest < _EXACT


def _product_distances(Xq: np.ndarray, Xt: np.ndarray):
    nq = np.einsum("ij,ij->i", Xq, Xq)
    nt = np.einsum("ij,ij->i", Xt, Xt)

    def block(start: int, stop: int) -> np.ndarray:
        D = Xq[start:stop] @ Xt.T
        D *= -2.0
        D += nq[start:stop, None]
        D += nt[None, :]
        return D.astype(np.int64)  # whole numbers, exactly: see the module notes

    return block


def _sparse_distances(Xq: sp.csr_matrix, Xt: sp.csr_matrix):
    nq = np.asarray(Xq.multiply(Xq).sum(axis=1)).ravel()
    nt = np.asarray(Xt.multiply(Xt).sum(axis=1)).ravel()
    XtT = Xt.T.tocsc()

    def block(start: int, stop: int) -> np.ndarray:
        D = (Xq[start:stop] @ XtT).toarray()
        D *= -2.0
        D += nq[start:stop, None]
        D += nt[None, :]
        np.maximum(D, 0.0, out=D)
        return D

    return block


def _columnwise_distances(Xq: np.ndarray, Xt: np.ndarray):
    def block(start: int, stop: int) -> np.ndarray:
        D = np.zeros((stop - start, Xt.shape[0]))
        for j in range(Xt.shape[1]):  # fixed order; elementwise, no BLAS
            diff = np.subtract.outer(Xq[start:stop, j], Xt[:, j])
            D += np.square(diff, out=diff)
        return D

    return block
