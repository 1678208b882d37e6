"""The ``scaling`` option the field's baselines share, applied before the method.

``"minmax"`` (the default) subtracts each feature's minimum and divides by its
range; a constant feature becomes 0. A sparse matrix whose every feature has
minimum 0 (every non-negative matrix, e.g. term counts) stays sparse: only its
stored values are divided. A sparse matrix with a negative value is shifted,
which fills it: it is densified only within :data:`DENSE_LIMIT_BYTES`, and
refused with the estimate above it. ``"standard"`` divides each feature by its
standard deviation and, for dense input only, subtracts its mean (sparse input
keeps its zeros, as scikit-learn's ``StandardScaler(with_mean=False)``); a
constant feature becomes 0. ``"none"`` leaves ``X`` as given.

The result is always float64 and never aliases the caller's array.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ...errors import ConfigError
from ...options import Option

SCALINGS = ("minmax", "standard", "none")

SCALING_OPTION = Option(
    "scaling",
    "minmax",
    choices=SCALINGS,
    help="Feature scaling before the method: to [0, 1] per feature, to unit "
    "standard deviation, or none.",
)

DENSE_LIMIT_BYTES = 2 * 1024**3
"""Largest dense copy of ``X`` a shift of sparse data may make (2 GiB)."""


def _column_min_max(X) -> tuple[np.ndarray, np.ndarray]:
    if sp.issparse(X):
        lo = np.asarray(X.min(axis=0).todense()).ravel()
        hi = np.asarray(X.max(axis=0).todense()).ravel()
    else:
        lo, hi = X.min(axis=0), X.max(axis=0)
    return lo.astype(np.float64), hi.astype(np.float64)


def _inverse(width: np.ndarray) -> np.ndarray:
    """``1 / width`` where ``width > 0``, else 0 (a constant feature becomes 0)."""
    out = np.zeros_like(width)
    np.divide(1.0, width, out=out, where=width > 0)
    return out


def _dense_or_refuse(X: sp.spmatrix, why: str) -> np.ndarray:
    need = X.shape[0] * X.shape[1] * 8
    if need > DENSE_LIMIT_BYTES:
        raise ConfigError(
            f"scaling: {why} needs a dense copy of X ({X.shape[0]} x {X.shape[1]}, "
            f"{need / 1024**3:.1f} GiB, above the {DENSE_LIMIT_BYTES / 1024**3:.0f} "
            "GiB limit); use scaling='none' or 'standard', or shift the data first"
        )
    return X.toarray()


def scale(X, scaling: str = "minmax"):
    """``X`` scaled per feature as the ``scaling`` option says.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        Feature values (finite).
    scaling : {"minmax", "standard", "none"}, default="minmax"
        See the module docstring.

    Returns
    -------
    ndarray or csr_matrix of shape (n_samples, n_features)
        A new float64 array, sparse where ``X`` is sparse and stays so.

    Raises
    ------
    ConfigError
        For an unknown ``scaling``, or a sparse ``X`` with negative values
        whose dense copy would pass :data:`DENSE_LIMIT_BYTES`.

    Examples
    --------
    >>> import numpy as np
    >>> scale(np.array([[0.0, 5.0], [2.0, 5.0], [4.0, 5.0]])).tolist()
    [[0.0, 0.0], [0.5, 0.0], [1.0, 0.0]]
    """
    scaling = SCALING_OPTION.check(scaling)
    if scaling == "none":
        if sp.issparse(X):
            return sp.csr_matrix(X, dtype=np.float64, copy=True)
        return np.array(X, dtype=np.float64)
    if scaling == "standard":
        return _standard(X)
    lo, hi = _column_min_max(X)
    factor = _inverse(hi - lo)
    if sp.issparse(X):
        if np.any(lo < 0):
            X = _dense_or_refuse(X, "min-max scaling a sparse matrix with negatives")
        else:
            X = sp.csr_matrix(X, dtype=np.float64, copy=True)
            X.data *= factor[X.indices]
            X.eliminate_zeros()
            return X
    return (np.asarray(X, dtype=np.float64) - lo) * factor


def _standard(X):
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64, copy=True)
        mean = np.asarray(X.mean(axis=0)).ravel()
        sq = np.asarray(X.multiply(X).mean(axis=0)).ravel()
        std = np.sqrt(np.maximum(sq - mean**2, 0.0))
        X.data *= _inverse(std)[X.indices]
        X.eliminate_zeros()
        return X
    X = np.asarray(X, dtype=np.float64)
    centred = X - X.mean(axis=0)
    return centred * _inverse(X.std(axis=0))
