"""Contingency counts of every (label, feature) pair from one sparse product."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp


class Counts(NamedTuple):
    """The four cells of every label x feature 2x2 table, each of shape (n_labels, n_features).

    ``tp`` = feature present and label positive, ``fp`` = present and
    negative, ``fn`` = absent and positive, ``tn`` = absent and negative.
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray


def presence(X: sp.csr_matrix) -> sp.csr_matrix:
    """0/1 presence matrix ``B`` of ``X`` (a feature is present when non-zero).

    Explicit zeros stored in a sparse matrix are not presences.
    """
    B = sp.csr_matrix(X, copy=True)
    B.data = (B.data != 0).astype(np.float64)
    B.eliminate_zeros()
    return B


def contingency_counts(X: sp.csr_matrix, Y: np.ndarray) -> Counts:
    """Compute the 2x2 counts of all label/feature pairs (Algorithm 3.1 of paper 000, vectorized).

    ``tp = Y^T B`` is the only product; the other cells follow from the column
    sums of ``B`` (documents containing each feature) and of ``Y`` (positives
    of each label).

    Parameters
    ----------
    X : sparse matrix of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, n_labels), 0/1

    Returns
    -------
    Counts
        Named tuple of four float64 arrays of shape (n_labels, n_features).

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_matrix(np.array([[1, 0], [2, 1], [0, 1]]))
    >>> Y = np.array([[1], [1], [0]])
    >>> c = contingency_counts(X, Y)
    >>> c.tp.tolist(), c.fp.tolist(), c.fn.tolist(), c.tn.tolist()
    ([[2.0, 1.0]], [[0.0, 1.0]], [[0.0, 1.0]], [[1.0, 0.0]])
    """
    B = presence(X)
    Yf = np.asarray(Y, dtype=np.float64)
    n = B.shape[0]
    # (B^T Y)^T computed as a sparse-dense product: every stored count read once.
    tp = np.asarray((B.T @ Yf).T)
    present = np.asarray(B.sum(axis=0)).ravel()[None, :]  # (1, M)
    positives = Yf.sum(axis=0)[:, None]  # (q, 1)
    fp = present - tp
    fn = positives - tp
    tn = n - present - positives + tp
    return Counts(tp, fp, fn, tn)
