"""Discretizers fitted on training data and applied to any other data.

:class:`Discretizer` turns raw feature values into integer bin codes, per
feature, with the rules of METHODS.md section 4:

* ``"uniform"`` (default, 3 bins): equal-width bins with
  ``edges = linspace(min, max, bins + 1)``; a value equal to an inner edge
  goes to the upper bin; values outside the fitted range go to the first or
  last bin; a constant feature is all bin 0. This equals scikit-learn's
  ``KBinsDiscretizer(n_bins=bins, encode="ordinal", strategy="uniform")``
  (whose output is the same codes as floats).
* ``"quantile"``: equal-frequency bins, edges at the quantiles of the
  training values (numpy's ``"averaged_inverted_cdf"`` method, the default of
  scikit-learn 1.9), bins narrower than 1e-8 removed, as
  ``KBinsDiscretizer(strategy="quantile")`` does.
* ``"binary"``: present (non-zero, code 1) or absent (code 0); ``bins`` is
  ignored.

``legacy_binning=True`` reproduces scikit-learn <= 1.0, which added
``1e-8 + 1e-5 * |x|`` to each value before binning, so values lying just below
an inner edge went to the upper bin.

Sparse input is never densified as a whole: zeros are binned once per feature
and only the stored values are binned individually.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from .._validation import check_int

__all__ = ["STRATEGIES", "Discretizer", "discretize"]

STRATEGIES = ("uniform", "quantile", "binary")

# scikit-learn <= 1.0 shifted values by atol + rtol * |x| before np.digitize.
_LEGACY_ATOL = 1.0e-8
_LEGACY_RTOL = 1.0e-5
# scikit-learn removes quantile bins narrower than this.
_MIN_WIDTH = 1.0e-8


class Discretizer:
    """Bin every feature into integer codes, fitted on training data.

    Parameters
    ----------
    bins : int, default=3
        Number of bins per feature (at least 2); ignored by ``"binary"``.
    strategy : {"uniform", "quantile", "binary"}, default="uniform"
        Equal-width, equal-frequency or present/absent bins.
    legacy_binning : bool, default=False
        Reproduce the edge rule of scikit-learn <= 1.0 (a value within about
        1e-5 relative below an inner edge goes to the upper bin).

    Attributes
    ----------
    inner_edges_ : ndarray of shape (n_features, bins - 1)
        Inner bin edges per feature, padded with ``+inf`` where a feature has
        fewer bins (constant features have only ``+inf``); for ``"binary"``
        one column of zeros (informative only: binary codes test ``!= 0``).
    n_bins_ : ndarray of shape (n_features,)
        Number of bins of each feature (1 for a constant feature).
    n_features_in_ : int
        Number of features seen in :meth:`fit`.

    See Also
    --------
    sklearn.preprocessing.KBinsDiscretizer : the reference for ``"uniform"``.

    Notes
    -----
    scikit-learn >= 1.5 fits on a bootstrap subsample when there are more than
    200,000 samples; this class always uses every sample, so equality with
    scikit-learn holds up to that size.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 5.0], [1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
    >>> Discretizer(bins=3).fit(X).transform(X).tolist()
    [[0, 0], [1, 0], [2, 0], [2, 0]]
    >>> Discretizer().fit(X).transform(np.array([[-9.0, 1.0], [9.0, 9.0]])).tolist()
    [[0, 0], [2, 0]]
    """

    def __init__(
        self, bins: int = 3, *, strategy: str = "uniform", legacy_binning: bool = False
    ) -> None:
        self.bins = bins
        self.strategy = strategy
        self.legacy_binning = legacy_binning

    def fit(self, X: ArrayLike | sp.spmatrix, y: object = None) -> Discretizer:
        """Learn the bin edges of every feature from ``X``.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Training values.
        y : ignored

        Returns
        -------
        self : Discretizer
        """
        self._check_params()
        X = _check_matrix(X)
        if self.strategy == "binary":
            inner = np.zeros((X.shape[1], 1))
        elif self.strategy == "uniform":
            inner = _uniform_inner_edges(X, self.bins)
        else:
            inner = _quantile_inner_edges(X, self.bins)
        self.inner_edges_ = inner
        self.n_bins_ = _count_bins(inner, self.strategy, X)
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X: ArrayLike | sp.spmatrix) -> np.ndarray:
        """Bin ``X`` with the edges learned in :meth:`fit`.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features), dtype int32
            Bin codes in ``0 .. n_bins_ - 1``.
        """
        if not hasattr(self, "inner_edges_"):
            raise ValueError("this Discretizer is not fitted yet; call fit first")
        X = _check_matrix(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features but the Discretizer was fitted "
                f"on {self.n_features_in_}"
            )
        if self.strategy == "binary":
            return _binary(X)
        return _transform(X, self.inner_edges_, self.legacy_binning)

    def fit_transform(self, X: ArrayLike | sp.spmatrix, y: object = None) -> np.ndarray:
        """Fit on ``X`` and return its bin codes (see :meth:`transform`)."""
        return self.fit(X).transform(X)

    def transform_stored(
        self, X: ArrayLike | sp.spmatrix
    ) -> tuple[sp.csc_matrix, np.ndarray]:
        """Bin only the stored values of ``X``; zeros get one code per feature.

        The dense n x M code matrix of :meth:`transform` is never built: the
        result has the sparsity pattern of ``X`` (dense input: its non-zeros).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        codes : csc_matrix of shape (n_samples, n_features)
            Codes of the stored values (explicit entries, possibly code 0), in
            the smallest unsigned integer type that holds them.
        zero_codes : ndarray of shape (n_features,)
            Code of the value 0 of each feature (for every implicit entry).

        Examples
        --------
        >>> X = np.array([[0.0, -1.0], [1.0, 0.0], [2.0, 1.0]])
        >>> codes, zero = Discretizer(2).fit(X).transform_stored(X)
        >>> codes.toarray().tolist(), zero.tolist()
        ([[0, 0], [1, 0], [1, 1]], [0, 1])
        """
        if not hasattr(self, "inner_edges_"):
            raise ValueError("this Discretizer is not fitted yet; call fit first")
        X = _check_matrix(X)
        if not sp.issparse(X):
            X = sp.csc_matrix(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features but the Discretizer was fitted "
                f"on {self.n_features_in_}"
            )
        n_features = X.shape[1]
        if self.strategy == "binary":
            data = X.data != 0
            zero_codes = np.zeros(n_features, dtype=np.int64)
        else:
            inner = self.inner_edges_
            legacy, n_inner = self.legacy_binning, inner.shape[1]
            zero_codes = _bin_values(
                np.zeros(n_features), lambda b: inner[:, b], n_inner, legacy
            ).astype(np.int64)
            owner = np.repeat(np.arange(n_features), np.diff(X.indptr))
            data = _bin_values(X.data, lambda b: inner[owner, b], n_inner, legacy)
        dtype = np.min_scalar_type(int(self.n_bins_.max(initial=1)) - 1)
        codes = sp.csc_matrix(
            (data.astype(dtype), X.indices.copy(), X.indptr.copy()), shape=X.shape
        )
        return codes, zero_codes

    def _check_params(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(
                f"discretize must be one of {', '.join(STRATEGIES)}; "
                f"got {self.strategy!r}"
            )
        check_int(self.bins, "bins", low=2)


def discretize(
    X: ArrayLike | sp.spmatrix,
    *,
    bins: int = 3,
    strategy: str = "uniform",
    legacy_binning: bool = False,
) -> np.ndarray:
    """Fit a :class:`Discretizer` on ``X`` and return the codes of ``X``.

    Examples
    --------
    >>> discretize([[0.0], [0.5], [1.0]], bins=2).ravel().tolist()
    [0, 1, 1]
    """
    disc = Discretizer(bins, strategy=strategy, legacy_binning=legacy_binning)
    return disc.fit_transform(X)


def _check_matrix(X: ArrayLike | sp.spmatrix) -> np.ndarray | sp.csc_matrix:
    if sp.issparse(X):
        X = sp.csc_matrix(X, dtype=np.float64)
        values = X.data
    else:
        X = np.asarray(X, dtype=np.float64)
        values = X
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D matrix, got shape {X.shape}")
    if not np.all(np.isfinite(values)):
        raise ValueError("X contains NaN or infinite values")
    return X


def _column_min_max(X: np.ndarray | sp.csc_matrix) -> tuple[np.ndarray, np.ndarray]:
    if sp.issparse(X):
        # scipy counts the implicit zeros, as the dense values would.
        return X.min(axis=0).toarray().ravel(), X.max(axis=0).toarray().ravel()
    return X.min(axis=0), X.max(axis=0)


def _uniform_inner_edges(X: np.ndarray | sp.csc_matrix, bins: int) -> np.ndarray:
    lo, hi = _column_min_max(X)
    # linspace with array end points is elementwise the scalar linspace.
    edges = np.linspace(lo, hi, bins + 1, axis=1)
    inner = edges[:, 1:-1].copy()
    inner[lo == hi] = np.inf  # constant feature: every value in bin 0
    return inner


def _quantile_inner_edges(X: np.ndarray | sp.csc_matrix, bins: int) -> np.ndarray:
    levels = np.linspace(0, 100, bins + 1)
    inner = np.full((X.shape[1], bins - 1), np.inf)
    for j in range(X.shape[1]):
        column = X[:, [j]].toarray().ravel() if sp.issparse(X) else X[:, j]
        if column.min() == column.max():
            continue
        edges = np.percentile(column, levels, method="averaged_inverted_cdf")
        keep = np.ediff1d(edges, to_begin=np.inf) > _MIN_WIDTH
        kept = edges[keep][1:-1]
        inner[j, : kept.size] = kept
    return inner


def _count_bins(
    inner: np.ndarray, strategy: str, X: np.ndarray | sp.csc_matrix
) -> np.ndarray:
    if strategy == "binary":
        return np.full(X.shape[1], 2)
    return 1 + np.isfinite(inner).sum(axis=1)


def _bin_values(values: np.ndarray, edge_of, n_inner: int, legacy: bool) -> np.ndarray:
    """Code of each value: the number of inner edges it reaches (edge -> upper bin).

    ``edge_of(b)`` gives the ``b``-th inner edge broadcastable against
    ``values``. Counting ``value >= edge`` equals
    ``searchsorted(edges, value, side="right")`` per feature.
    """
    if legacy:
        values = values + (_LEGACY_ATOL + _LEGACY_RTOL * np.abs(values))
    codes = np.zeros(values.shape, dtype=np.int32)
    for b in range(n_inner):
        codes += values >= edge_of(b)
    return codes


def _binary(X: np.ndarray | sp.csc_matrix) -> np.ndarray:
    """Present (non-zero) = 1, absent = 0."""
    if not sp.issparse(X):
        return (X != 0).astype(np.int32)
    out = np.zeros(X.shape, dtype=np.int32)
    owner = np.repeat(np.arange(X.shape[1]), np.diff(X.indptr))
    out[X.indices, owner] = X.data != 0
    return out


def _transform(
    X: np.ndarray | sp.csc_matrix, inner: np.ndarray, legacy: bool
) -> np.ndarray:
    """Bin every entry of ``X`` against per-feature inner edges."""
    n_inner = inner.shape[1]
    if not sp.issparse(X):
        return _bin_values(X, lambda b: inner[:, b], n_inner, legacy)
    n_samples, n_features = X.shape
    zero_codes = _bin_values(
        np.zeros(n_features), lambda b: inner[:, b], n_inner, legacy
    )
    out = np.empty((n_samples, n_features), dtype=np.int32)
    out[:] = zero_codes
    owner = np.repeat(np.arange(n_features), np.diff(X.indptr))
    out[X.indices, owner] = _bin_values(
        X.data, lambda b: inner[owner, b], n_inner, legacy
    )
    return out
