"""Plug-in information measures on discrete data, in bits.

Two layers:

* scalar measures of one or a few discrete variables (:func:`entropy`,
  :func:`joint_entropy`, :func:`mutual_information`,
  :func:`conditional_mutual_information`, :func:`interaction_information`),
  clear and used as the reference in tests;
* vectorized measures over all columns at once (:func:`column_entropies`,
  :func:`mutual_information_matrix`), computed from one-hot indicator
  products, never one entropy call per pair.

All estimates are maximum-likelihood ("plug-in") estimates from counts,
log base 2. A joint variable is the tuple of its parts.

References
----------
.. [1] T. M. Cover and J. A. Thomas, "Elements of Information Theory",
   2nd ed., Wiley, 2006.
.. [2] G. Brown, A. Pocock, M.-J. Zhao and M. Lujan, "Conditional likelihood
   maximisation: a unifying framework for information theoretic feature
   selection", JMLR 13, 2012.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

__all__ = [
    "column_entropies",
    "conditional_mutual_information",
    "entropy",
    "entropy_from_counts",
    "interaction_information",
    "joint_entropy",
    "mutual_information",
    "mutual_information_matrix",
    "xlog2x_table",
]


def xlog2x_table(n: int) -> np.ndarray:
    """Table ``T[c] = c * log2(c)`` for the integer counts ``c = 0 .. n``.

    The entropy of a table of integer counts with total ``n`` is
    ``log2(n) - sum(T[counts]) / n``; looking ``T`` up is faster than
    evaluating logarithms, which is why the greedy engine uses it.

    Parameters
    ----------
    n : int
        Largest count needed (the number of samples).

    Returns
    -------
    ndarray of shape (n + 1,)
        ``T[0] = 0`` by the convention ``0 log 0 = 0``.

    Examples
    --------
    >>> xlog2x_table(4).tolist()
    [0.0, 0.0, 2.0, 4.754887502163468, 8.0]
    """
    c = np.arange(n + 1, dtype=np.float64)
    table = np.zeros(n + 1)
    table[1:] = c[1:] * np.log2(c[1:])
    return table


def entropy_from_counts(counts: ArrayLike, *, axis: int = -1) -> np.ndarray:
    """Entropy in bits of count tables along ``axis``.

    Parameters
    ----------
    counts : array-like of non-negative numbers
        Counts of the cells of one or several distributions.
    axis : int, default=-1
        Axis holding the cells of one distribution.

    Returns
    -------
    ndarray
        ``counts`` reduced over ``axis``; 0 where a table is empty.

    Examples
    --------
    >>> float(entropy_from_counts([2, 2]))
    1.0
    """
    c = np.asarray(counts, dtype=np.float64)
    total = c.sum(axis=axis, keepdims=True)
    safe_total = np.where(total > 0, total, 1.0)
    p = c / safe_total
    terms = np.zeros_like(p)
    np.multiply(p, np.log2(p, where=p > 0, out=np.zeros_like(p)), out=terms)
    return -terms.sum(axis=axis)


def _codes(*variables: ArrayLike) -> np.ndarray:
    """Integer codes 0..K-1 of the tuples formed by the given variables."""
    cols = [np.asarray(v).reshape(len(np.asarray(v)), -1) for v in variables]
    lengths = {c.shape[0] for c in cols}
    if len(lengths) != 1:
        raise ValueError(
            f"variables have different numbers of samples: {sorted(lengths)}"
        )
    stacked = np.hstack(cols)
    if stacked.shape[1] == 0:
        return np.zeros(stacked.shape[0], dtype=np.intp)
    _, inverse = np.unique(stacked, axis=0, return_inverse=True)
    return inverse.ravel()


def joint_entropy(*variables: ArrayLike) -> float:
    """Joint entropy H(V1, ..., Vd) in bits of discrete variables.

    Parameters
    ----------
    *variables : array-like of shape (n_samples,) or (n_samples, d)
        Discrete variables observed on the same samples; a 2-D argument
        counts as the tuple of its columns.

    Returns
    -------
    float

    Examples
    --------
    >>> joint_entropy([0, 0, 1, 1], [0, 1, 0, 1])
    2.0
    """
    counts = np.bincount(_codes(*variables))
    return float(entropy_from_counts(counts))


def entropy(x: ArrayLike) -> float:
    """Entropy H(X) in bits of one discrete variable.

    Parameters
    ----------
    x : array-like of shape (n_samples,) or (n_samples, d)
        Discrete values (a 2-D ``x`` is the tuple of its columns).

    Returns
    -------
    float

    Examples
    --------
    >>> entropy([0, 1, 0, 1])
    1.0
    """
    return joint_entropy(x)


def mutual_information(x: ArrayLike, y: ArrayLike) -> float:
    """Mutual information I(X; Y) = H(X) + H(Y) - H(X, Y) in bits.

    Examples
    --------
    >>> mutual_information([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    return entropy(x) + entropy(y) - joint_entropy(x, y)


def conditional_mutual_information(x: ArrayLike, y: ArrayLike, z: ArrayLike) -> float:
    """Conditional mutual information I(X; Y | Z) in bits.

    ``I(X;Y|Z) = H(X,Z) + H(Y,Z) - H(X,Y,Z) - H(Z)``.

    Examples
    --------
    >>> a, b = [0, 0, 1, 1], [0, 1, 0, 1]
    >>> conditional_mutual_information(a, b, [0, 1, 1, 0])
    1.0
    """
    return (
        joint_entropy(x, z) + joint_entropy(y, z) - joint_entropy(x, y, z) - entropy(z)
    )


def interaction_information(x: ArrayLike, y: ArrayLike, z: ArrayLike) -> float:
    """Interaction information I(X; Y; Z) = I(X; Y) - I(X; Y | Z) in bits.

    Positive values mean redundancy, negative values synergy.

    Examples
    --------
    >>> a, b = [0, 0, 1, 1], [0, 1, 0, 1]
    >>> interaction_information(a, b, [0, 1, 1, 0])  # XOR: pure synergy
    -1.0
    """
    return mutual_information(x, y) - conditional_mutual_information(x, y, z)


def _one_hot(codes: np.ndarray) -> tuple[sp.csc_matrix, np.ndarray]:
    """Sparse one-hot matrix of integer code columns and the owner column per block."""
    codes = np.asarray(codes)
    n_samples, n_cols = codes.shape
    n_values = codes.max(axis=0) + 1 if n_samples else np.zeros(n_cols, dtype=int)
    offsets = np.concatenate([[0], np.cumsum(n_values)])
    indices = (codes + offsets[:-1]).ravel()
    indptr = np.arange(0, n_samples * n_cols + 1, n_cols)
    data = np.ones(indices.size)
    onehot = sp.csr_matrix((data, indices, indptr), shape=(n_samples, offsets[-1]))
    owner = np.repeat(np.arange(n_cols), n_values)
    return onehot.tocsc(), owner


def _check_codes(codes: ArrayLike, name: str) -> np.ndarray:
    arr = np.asarray(codes)
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    if arr.ndim != 2 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name} must be a 2-D array of integer codes")
    if arr.size and arr.min() < 0:
        raise ValueError(f"{name} must hold non-negative integer codes")
    return arr


def column_entropies(codes: ArrayLike) -> np.ndarray:
    """Entropy in bits of every column of a matrix of integer codes.

    Parameters
    ----------
    codes : array-like of shape (n_samples, n_features)
        Non-negative integer codes (e.g. from :class:`Discretizer`).

    Returns
    -------
    ndarray of shape (n_features,)

    Examples
    --------
    >>> column_entropies([[0, 0], [1, 0], [2, 0], [3, 0]]).tolist()
    [2.0, 0.0]
    """
    codes = _check_codes(codes, "codes")
    n_samples, n_features = codes.shape
    if n_samples == 0:
        raise ValueError("codes has no samples")
    onehot, owner = _one_hot(codes)
    counts = np.asarray(onehot.sum(axis=0)).ravel().astype(np.intp)
    k = np.bincount(
        owner, weights=xlog2x_table(n_samples)[counts], minlength=n_features
    )
    return np.log2(n_samples) - k / n_samples


def mutual_information_matrix(A: ArrayLike, B: ArrayLike) -> np.ndarray:
    """Mutual information I(A_a; B_b) in bits for every pair of columns.

    Counts of every joint value come from one product of one-hot indicator
    matrices, so the cost is one sparse product, not one call per pair.

    Parameters
    ----------
    A : array-like of shape (n_samples, n_a)
        Integer codes (e.g. labels as 0/1).
    B : array-like of shape (n_samples, n_b)
        Integer codes (e.g. discretized features).

    Returns
    -------
    ndarray of shape (n_a, n_b)
        With ``A = Y`` and ``B`` the discretized features this is the
        per-label relevance matrix of shape (n_labels, n_features).

    Examples
    --------
    >>> Y = [[0], [0], [1], [1]]
    >>> X = [[0, 5], [0, 6], [1, 5], [1, 6]]
    >>> mutual_information_matrix(Y, X).tolist()
    [[1.0, 0.0]]
    """
    A = _check_codes(A, "A")
    B = _check_codes(B, "B")
    if A.shape[0] != B.shape[0]:
        raise ValueError(f"A has {A.shape[0]} rows but B has {B.shape[0]}")
    n = A.shape[0]
    if n == 0:
        raise ValueError("A and B have no samples")
    oa, owner_a = _one_hot(A)
    ob, owner_b = _one_hot(B)
    table = xlog2x_table(n)
    joint = (oa.T @ ob).toarray().astype(np.intp)
    # Sum T over the cells of each (a, b) block: rows by owner_a, cols by owner_b.
    agg_a = sp.csr_matrix((np.ones(owner_a.size), (owner_a, np.arange(owner_a.size))))
    agg_b = sp.csr_matrix((np.ones(owner_b.size), (owner_b, np.arange(owner_b.size))))
    k_ab = agg_a @ (agg_b @ table[joint].T).T
    k_a = agg_a @ table[np.asarray(oa.sum(axis=0)).ravel().astype(np.intp)]
    k_b = agg_b @ table[np.asarray(ob.sum(axis=0)).ravel().astype(np.intp)]
    # I = H(a) + H(b) - H(a,b) with H = log2 n - K / n: the log2 n terms cancel once.
    mi = (np.asarray(k_ab) - k_a[:, None] - k_b[None, :]) / n + np.log2(n)
    return np.maximum(mi, 0.0)
