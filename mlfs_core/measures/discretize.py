"""Discretizers fitted on training data and applied to any other data.

:class:`Discretizer` turns raw feature values into integer bin codes, per
feature, with the rules of METHODS.md section 4, under a strategy of
:mod:`mlfs_core.measures.binning` (the built-in ones, or one a package
registered):

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

Whatever the strategy, a value's code is the number of the feature's inner
edges it reaches (after the strategy's map of the values, if it has one).
Sparse input is never densified as a whole: zeros are binned once per feature
and only the stored values are binned individually.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import ArrayLike

from .._validation import check_int
from ..errors import ConfigError
from .binning import binning_strategy

__all__ = ["Discretizer", "discretize"]


class Discretizer:
    """Bin every feature into integer codes, fitted on training data.

    Parameters
    ----------
    bins : int, default=3
        Number of bins per feature (at least 2); ignored by ``"binary"``.
    strategy : str, default="uniform"
        A strategy of :mod:`mlfs_core.measures.binning`: ``"uniform"``,
        ``"quantile"``, ``"binary"`` or the name of one a package registered
        (:func:`~mlfs_core.measures.binning.register_binning`).

    Attributes
    ----------
    inner_edges_ : ndarray of shape (n_features, bins - 1)
        Inner bin edges per feature, padded with ``+inf`` where a feature has
        fewer bins (constant features have only ``+inf``); for ``"binary"``
        one column of 0.5 (its values are first mapped to ``value != 0``).
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

    def __init__(self, bins: int = 3, *, strategy: str = "uniform") -> None:
        self.bins = bins
        self.strategy = strategy

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
        rule = self._check_params()
        X = _check_matrix(X)
        inner = _check_edges(rule.edges(X, int(self.bins)), X.shape[1], rule.name)
        self.inner_edges_ = inner
        self.n_bins_ = 1 + np.isfinite(inner).sum(axis=1)
        self.n_features_in_ = X.shape[1]
        self._values = rule.values
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
        return _transform(X, self.inner_edges_, self._values)

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
        inner, values = self.inner_edges_, self._values
        n_inner = inner.shape[1]
        zero_codes = _bin_values(
            np.zeros(n_features), lambda b: inner[:, b], n_inner, values
        ).astype(np.int64)
        owner = np.repeat(np.arange(n_features), np.diff(X.indptr))
        data = _bin_values(X.data, lambda b: inner[owner, b], n_inner, values)
        dtype = np.min_scalar_type(int(self.n_bins_.max(initial=1)) - 1)
        codes = sp.csc_matrix(
            (data.astype(dtype), X.indices.copy(), X.indptr.copy()), shape=X.shape
        )
        return codes, zero_codes

    def _check_params(self):
        """The strategy (a ConfigError, a ValueError, naming an unknown one)."""
        rule = binning_strategy(self.strategy)
        check_int(self.bins, "bins", low=2)
        return rule


def discretize(
    X: ArrayLike | sp.spmatrix,
    *,
    bins: int = 3,
    strategy: str = "uniform",
) -> np.ndarray:
    """Fit a :class:`Discretizer` on ``X`` and return the codes of ``X``.

    Examples
    --------
    >>> discretize([[0.0], [0.5], [1.0]], bins=2).ravel().tolist()
    [0, 1, 1]
    """
    return Discretizer(bins, strategy=strategy).fit_transform(X)


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


def _check_edges(inner: object, n_features: int, name: str) -> np.ndarray:
    """A strategy's inner edges, checked: (n_features, n_inner) floats, no NaN,
    non-decreasing along each row."""
    inner = np.asarray(inner, dtype=np.float64)
    if inner.ndim != 2 or inner.shape[0] != n_features or inner.shape[1] < 1:
        raise ConfigError(
            f"discretization strategy {name!r}: its edges must have shape "
            f"({n_features}, n_inner >= 1), got {inner.shape}"
        )
    if np.isnan(inner).any() or (inner[:, 1:] < inner[:, :-1]).any():
        raise ConfigError(
            f"discretization strategy {name!r}: its edges must be non-decreasing "
            "along each feature, without NaN"
        )
    return inner


def _bin_values(values: np.ndarray, edge_of, n_inner: int, mapped) -> np.ndarray:
    """Code of each value: the number of inner edges it reaches (edge -> upper bin).

    ``edge_of(b)`` gives the ``b``-th inner edge broadcastable against
    ``values``; ``mapped`` (the strategy's map, or None) is applied to the
    values first. Counting ``value >= edge`` equals
    ``searchsorted(edges, value, side="right")`` per feature.
    """
    if mapped is not None:
        values = np.asarray(mapped(values), dtype=np.float64)
    codes = np.zeros(values.shape, dtype=np.int32)
    for b in range(n_inner):
        codes += values >= edge_of(b)
    return codes


def _transform(X: np.ndarray | sp.csc_matrix, inner: np.ndarray, mapped) -> np.ndarray:
    """Bin every entry of ``X`` against per-feature inner edges."""
    n_inner = inner.shape[1]
    if not sp.issparse(X):
        return _bin_values(X, lambda b: inner[:, b], n_inner, mapped)
    n_samples, n_features = X.shape
    zero_codes = _bin_values(
        np.zeros(n_features), lambda b: inner[:, b], n_inner, mapped
    )
    out = np.empty((n_samples, n_features), dtype=np.int32)
    out[:] = zero_codes
    owner = np.repeat(np.arange(n_features), np.diff(X.indptr))
    out[X.indices, owner] = _bin_values(
        X.data, lambda b: inner[owner, b], n_inner, mapped
    )
    return out
