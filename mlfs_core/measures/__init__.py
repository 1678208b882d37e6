"""Per-label feature measures: ``f(X, Y) -> (n_labels, n_features)``.

:data:`MEASURES` maps a measure name to a function of the 2x2 contingency
counts; :func:`label_scores` computes the counts once with one sparse product
and applies the measure.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._validation import check_XY
from ..errors import ConfigError
from .bns import bns_from_counts
from .chi2 import chi2_from_counts
from .counts import Counts, contingency_counts
from .table2x2 import (
    document_frequency_from_counts,
    information_gain_from_counts,
    odds_ratio_from_counts,
)

MEASURES: dict[str, Callable[[Counts], np.ndarray]] = {
    "chi2": chi2_from_counts,
    "bns": bns_from_counts,
    "ig": information_gain_from_counts,
    "odds_ratio": odds_ratio_from_counts,
    "df": document_frequency_from_counts,
}
"""Measure name -> function of :class:`Counts` returning (n_labels, n_features)."""

MEASURE_LABELS = {
    "chi2": "CS",
    "bns": "BNS",
    "ig": "IG",
    "odds_ratio": "OR",
    "df": "DF",
}
"""Measure name -> the short suffix used in method names (``MaxCS``, ``MeanIG``)."""


MEASURE_ALIASES = {label.lower(): name for name, label in MEASURE_LABELS.items()}
"""The method-name suffixes as measure names, any case: ``"cs"`` (or ``"CS"``) is
``"chi2"``, ``"or"`` is ``"odds_ratio"``; ``"bns"``, ``"ig"`` and ``"df"`` are
their own names."""


def get_measure(measure: str) -> Callable[[Counts], np.ndarray]:
    """Return the measure function registered as ``measure`` (ConfigError if not).

    ``measure`` is a name of :data:`MEASURES` or an alias of
    :data:`MEASURE_ALIASES` (the suffix of the method names, e.g. ``"cs"``).

    Examples
    --------
    >>> get_measure("cs") is get_measure("chi2") is get_measure("CS")
    True
    """
    if isinstance(measure, str) and measure not in MEASURES:
        measure = MEASURE_ALIASES.get(measure.lower(), measure)
    try:
        return MEASURES[measure]
    except (KeyError, TypeError):
        aliases = ", ".join(f"{a}={n}" for a, n in MEASURE_ALIASES.items() if a != n)
        raise ConfigError(
            f"unknown measure {measure!r}; known measures: {', '.join(MEASURES)} "
            f"(aliases: {aliases})"
        ) from None


def label_scores(X, Y, measure: str = "chi2") -> np.ndarray:
    """Score every feature for every label with a 2x2-table measure.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        Feature values; non-zero means present. Never densified.
    Y : array-like of shape (n_samples, n_labels)
        Binary label matrix.
    measure : {"chi2", "bns", "ig", "odds_ratio", "df"}, default="chi2"
        ``"chi2"`` is the CS of Spolaôr and Tsoumakas (2013, Eq. 1),
        ``"bns"`` Forman's Bi-Normal Separation; both follow the conventions
        of METHODS.md section 2. The suffixes of the method names are
        accepted too, in any case (:data:`MEASURE_ALIASES`): ``"cs"`` for
        ``"chi2"``, ``"or"`` for ``"odds_ratio"``.

    Returns
    -------
    ndarray of shape (n_labels, n_features)
        Finite scores, higher = more informative.

    See Also
    --------
    mlfs_core.measures.counts.contingency_counts : the counts behind every measure.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]])
    >>> Y = np.array([[1, 0], [1, 1], [0, 1], [0, 0]])
    >>> label_scores(X, Y, "chi2").round(2).tolist()
    [[4.0, 0.0], [0.0, 4.0]]
    >>> bool((label_scores(X, Y, "cs") == label_scores(X, Y, "chi2")).all())
    True
    """
    fn = get_measure(measure)
    X, Y = check_XY(X, Y)
    return fn(contingency_counts(X, Y))


__all__ = [
    "MEASURES",
    "MEASURE_ALIASES",
    "MEASURE_LABELS",
    "Counts",
    "contingency_counts",
    "get_measure",
    "label_scores",
]
