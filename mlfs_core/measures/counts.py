"""Contingency counts of every (label, feature) pair from one sparse product."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..errors import ConfigError


@dataclass(frozen=True)
class Counts:
    """The 2x2 tables of every (label, feature) pair, stored as ``tp`` plus margins.

    ``tp`` = feature present and label positive, ``fp`` = present and
    negative, ``fn`` = absent and positive, ``tn`` = absent and negative.
    Only ``tp`` is a full (n_labels, n_features) array; the other cells are
    derived on demand from the margins, so measures that need only ``tp`` and
    the margins (chi-squared, BNS) never build them.

    Attributes
    ----------
    tp : ndarray of shape (n_labels, n_features)
    present : ndarray of shape (n_labels or 1, n_features)
        Samples in which each feature is present (``tp + fp``).
    positives : ndarray of shape (n_labels, 1 or n_features)
        Positive samples of each label (``tp + fn``).
    n : ndarray or float
        Number of samples (``tp + fp + fn + tn``), broadcastable to ``tp``.
    """

    tp: np.ndarray
    present: np.ndarray
    positives: np.ndarray
    n: np.ndarray | float

    @classmethod
    def from_cells(cls, tp, fp, fn, tn) -> Counts:
        """Build from the four cells (arrays of one shape), e.g. hand-made tables."""
        tp, fp, fn, tn = (np.asarray(c, dtype=np.float64) for c in (tp, fp, fn, tn))
        return cls(tp=tp, present=tp + fp, positives=tp + fn, n=tp + fp + fn + tn)

    @property
    def fp(self) -> np.ndarray:
        return self.present - self.tp

    @property
    def fn(self) -> np.ndarray:
        return self.positives - self.tp

    @property
    def tn(self) -> np.ndarray:
        return self.n - self.present - self.positives + self.tp

    def cells(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The four full cells ``(tp, fp, fn, tn)``."""
        return self.tp, self.fp, self.fn, self.tn


def presence(X: sp.csr_matrix) -> sp.csr_matrix:
    """0/1 presence matrix ``B`` of ``X`` (a feature is present when non-zero).

    Explicit zeros stored in a sparse matrix are not presences. The result
    gets its own index arrays and new 0/1 data: one copy of ``X``'s
    structure, not two (the old version copied ``X`` and then its data).
    """
    X = sp.csr_matrix(X)  # no copy when X is already CSR
    stored = X.data != 0
    if stored.all():
        indices, indptr = X.indices.copy(), X.indptr.copy()
    else:  # explicit zeros: keep only the non-zeros' positions
        indices = X.indices[stored]
        kept_before = np.concatenate([[0], np.cumsum(stored)])
        indptr = kept_before[X.indptr].astype(X.indptr.dtype)
    ones = np.ones(indices.size, dtype=np.float64)
    return sp.csr_matrix((ones, indices, indptr), shape=X.shape)


BINARIZE = ("presence", "median")
"""Rules turning a feature into present/absent for the 2x2 counts."""

_CHUNK = 512  # columns densified at once by the median rule


def binarize(X, rule: str = "presence") -> sp.csr_matrix:
    """0/1 matrix saying in which samples each feature counts as *present*.

    Parameters
    ----------
    X : sparse matrix of shape (n_samples, n_features)
        The data the scores are computed on (a training part).
    rule : {"presence", "median"}, default="presence"
        ``"presence"``: non-zero (the rule of Spolaôr and Tsoumakas, 2013,
        meant for sparse text).
        ``"median"``: strictly above the feature's median over the rows of
        ``X`` (np.median, zeros included), for dense numeric data, where
        almost every value is non-zero and presence makes every score tie. A
        0/1 feature whose median is 0 is then the same as under presence; a
        constant feature is never present.

    Returns
    -------
    csr_matrix of shape (n_samples, n_features), float64 0/1

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_matrix(np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 0.0]]))
    >>> binarize(X, "median").toarray().tolist()
    [[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]]
    """
    if rule == "presence":
        return presence(X)
    if rule != "median":
        raise ConfigError(f"binarize must be one of {BINARIZE}, got {rule!r}")
    X = sp.csc_matrix(X)
    n = X.shape[0]
    nnz = np.diff(X.indptr)
    negative = np.zeros(X.shape[1], dtype=bool)
    np.logical_or.at(negative, np.repeat(np.arange(X.shape[1]), nnz), X.data < 0)
    # A non-negative column that is zero in more than half the rows has median
    # 0, so "above the median" is "non-zero": no need to densify it.
    simple = (~negative) & (2 * nnz < n)
    B = presence(X).tocsc()
    hard = np.flatnonzero(~simple)
    if hard.size:
        parts = []
        for start in range(0, hard.size, _CHUNK):  # bounded memory: n x 512
            block = X[:, hard[start : start + _CHUNK]].toarray()
            parts.append(sp.csc_matrix(block > np.median(block, axis=0)))
        dense_part = sp.hstack(parts, format="csc").astype(np.float64)
        keep = sp.diags(simple.astype(np.float64))
        place = sp.csc_matrix(
            (np.ones(hard.size), (np.arange(hard.size), hard)),
            shape=(hard.size, X.shape[1]),
        )
        B = B @ keep + dense_part @ place
    return sp.csr_matrix(B)


def contingency_counts(
    X: sp.csr_matrix, Y: np.ndarray, *, rule: str = "presence"
) -> Counts:
    """Compute the 2x2 counts of all label/feature pairs.

    Algorithm 3.1 of Spolaôr and Tsoumakas (2013).

    ``tp = Y^T B`` is the only product; the other cells follow from the column
    sums of ``B`` (documents containing each feature) and of ``Y`` (positives
    of each label).

    Parameters
    ----------
    X : sparse matrix of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, n_labels), 0/1
    rule : {"presence", "median"}, default="presence"
        When a feature counts as present (:func:`binarize`).

    Returns
    -------
    Counts
        ``tp`` of shape (n_labels, n_features) with the margins.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> X = sp.csr_matrix(np.array([[1, 0], [2, 1], [0, 1]]))
    >>> Y = np.array([[1], [1], [0]])
    >>> c = contingency_counts(X, Y)
    >>> c.tp.tolist(), c.fp.tolist(), c.fn.tolist(), c.tn.tolist()
    ([[2.0, 1.0]], [[0.0, 1.0]], [[0.0, 1.0]], [[1.0, 0.0]])
    """
    B = binarize(X, rule).tocsc()
    Yf = np.asarray(Y, dtype=np.float64)
    n = B.shape[0]
    # B^T (CSR, n_features x n_samples) times dense Y: each output row is a sum
    # of rows of Y, read in order; every stored count is read once. The
    # transpose is an F-ordered view: no copy, and numpy keeps that layout
    # through the elementwise measure code.
    tp = (B.T @ Yf).T
    present = np.asarray(B.sum(axis=0)).ravel()[None, :]  # (1, M)
    positives = Yf.sum(axis=0)[:, None]  # (q, 1)
    return Counts(tp=tp, present=present, positives=positives, n=float(n))
