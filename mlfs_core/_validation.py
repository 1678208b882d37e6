"""Input validation at the public boundary (private helpers assume clean input)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .errors import ConfigError


def _check_X(X, *, name: str = "X") -> sp.csr_matrix:
    """Return ``X`` as a CSR float64 matrix, raising ``ConfigError`` on bad input."""
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
        data = X.data
    else:
        try:
            arr = np.asarray(X, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{name} must be numeric: {exc}") from None
        if arr.ndim != 2:
            raise ConfigError(
                f"{name} must be 2-D (n_samples, n_features), got shape {arr.shape}"
            )
        data = arr
        X = sp.csr_matrix(arr)
    if X.shape[0] == 0:
        raise ConfigError(f"{name} has no samples")
    if X.shape[1] == 0:
        raise ConfigError(f"{name} has no features")
    if not np.all(np.isfinite(data)):
        raise ConfigError(f"{name} contains NaN or infinite values")
    return X


def check_Y(Y, n_samples: int, *, name: str = "Y") -> np.ndarray:
    """Return ``Y`` as a dense (n_samples, n_labels) int8 0/1 array."""
    Y = Y.toarray() if sp.issparse(Y) else np.asarray(Y)
    if Y.ndim == 1:
        Y = Y.reshape(-1, 1)
    if Y.ndim != 2:
        raise ConfigError(
            f"{name} must be 2-D (n_samples, n_labels), got shape {Y.shape}"
        )
    if Y.shape[0] != n_samples:
        raise ConfigError(f"{name} has {Y.shape[0]} rows but X has {n_samples} samples")
    if Y.shape[1] == 0:
        raise ConfigError(f"{name} has no labels")
    bad = ~np.isin(Y, (0, 1))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ConfigError(
            f"{name} must be binary 0/1; found {Y[i, j]!r} at row {i}, label {j}"
        )
    return Y.astype(np.int8)


def check_XY(X, Y) -> tuple[sp.csr_matrix, np.ndarray]:
    """Validate a feature matrix and a label matrix together."""
    X = _check_X(X)
    return X, check_Y(Y, X.shape[0])


def is_int(value: object) -> bool:
    """Whether ``value`` is an integer (Python or numpy), and not a bool.

    Examples
    --------
    >>> [is_int(v) for v in (3, np.int64(3), True, 3.0, "3")]
    [True, True, False, False, False]
    """
    return isinstance(value, (int, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    )


def check_int(
    value: object, name: str, *, low: int | None = None, high: int | None = None
) -> int:
    """Return ``value`` as an ``int`` if it is one (not a bool) in ``[low, high]``.

    Raises
    ------
    ConfigError
        Naming ``name``, the allowed range and the value given.

    Examples
    --------
    >>> check_int(np.int32(4), "bins", low=2)
    4
    >>> check_int(True, "bins", low=2)
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: bins must be an int >= 2, got True
    """
    if low is not None and high is not None:
        wanted = f"an int in [{low}, {high}]"
    elif low is not None:
        wanted = f"an int >= {low}"
    elif high is not None:
        wanted = f"an int <= {high}"
    else:
        wanted = "an int"
    if (
        not is_int(value)
        or (low is not None and value < low)
        or (high is not None and value > high)
    ):
        raise ConfigError(f"{name} must be {wanted}, got {value!r}")
    check_int64(value, name)
    return int(value)


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
"""The integers a seed or a count may take: what TOML and numpy's int64 hold."""


def check_int64(value: int, name: str) -> int:
    """Refuse an integer beyond 64 bits (TOML and numpy cannot hold it).

    Raises
    ------
    ConfigError
        Naming ``name`` and the range.

    Examples
    --------
    >>> check_int64(2**40, "seed")
    1099511627776
    >>> check_int64(10**25, "seed")
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: seed must fit in 64 bits ([-2**63, 2**63 - 1]), \
got 10000000000000000000000000
    """
    if not _INT64_MIN <= int(value) <= _INT64_MAX:
        raise ConfigError(
            f"{name} must fit in 64 bits ([-2**63, 2**63 - 1]), got {int(value)}"
        )
    return int(value)


def check_k(k, n_features: int) -> int:
    """Resolve ``k`` (None = all) to an int in [1, n_features].

    A ``k`` larger than ``n_features`` raises: silently returning fewer
    features than asked would corrupt budget curves.
    """
    if k is None:
        return n_features
    if not is_int(k):
        raise ConfigError(f"k must be a positive int or None, got {k!r}")
    if k < 1:
        raise ConfigError(f"k must be at least 1, got {k}")
    if k > n_features:
        raise ConfigError(
            f"k={k} is larger than the number of features (n_features={n_features})"
        )
    return int(k)


def budget_from_percent(percent: float, n_features: int) -> int:
    """Number of features for a budget of ``percent`` % of ``n_features``.

    The rule of Spolaôr and Tsoumakas (2013), METHODS.md section 5: round to
    nearest, halves up, and keep at least one feature.

    Examples
    --------
    >>> [budget_from_percent(p, 15) for p in (1, 10, 50, 90)]
    [1, 2, 8, 14]
    """
    return max(1, int(np.floor(percent * n_features / 100 + 0.5)))
