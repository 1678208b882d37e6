"""Registry of feature-ranking methods: name -> implementation and metadata.

Every method of the two papers (and the baselines) registers a
:class:`MethodSpec` here; :func:`rank_features`, the scikit-learn selector,
the CLI, the experiment runner and the app all look methods up by name, so a
new method becomes available everywhere by registering it once.

A spec's ``rank`` callable has the signature::

    rank(X, Y, *, k, rng, **params) -> Ranking

where ``X`` is a CSR matrix (n_samples, n_features) of floats, ``Y`` a dense
0/1 ``int8`` array (n_samples, n_labels) (both already validated), ``k`` the
number of features wanted (``None`` = all), ``rng`` a
:class:`numpy.random.Generator` and ``params`` the method's keyword options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..errors import ConfigError


@dataclass(frozen=True)
class Ranking:
    """Result of one ranking.

    Attributes
    ----------
    order : ndarray of shape (k,)
        Feature indices, best first.
    scores : ndarray of shape (n_features,)
        One score per feature, higher is better. For score-based methods
        (Max/Mean) the aggregated score; for order-only methods (RoR, RaR,
        greedy filters, RFS) ``n_features - position`` for ranked features and
        0 for unranked ones, so ``scores`` always sorts like ``order``.
    label_scores : ndarray of shape (n_labels, n_features) or None
        Per-label scores where the method has them (CS/BNS family).
    criterion_path : ndarray of shape (k,) or None
        Greedy methods: the criterion value of each feature when it was selected.
    """

    order: np.ndarray
    scores: np.ndarray
    label_scores: np.ndarray | None = None
    criterion_path: np.ndarray | None = None


@dataclass(frozen=True)
class MethodSpec:
    """Metadata and implementation of one ranking method.

    Attributes
    ----------
    name : str
        Public name, e.g. ``"MaxCS"`` or ``"PMU"``.
    family : str
        ``"paper000"`` (CS/BNS + aggregation), ``"paper001"`` (information
        theoretic) or ``"baseline"`` (RFS, AF).
    rank : callable
        ``rank(X, Y, *, k, rng, **params) -> Ranking``.
    stochastic : bool
        Whether the result depends on the random generator (RaR, RFS).
    defaults : dict
        Default keyword parameters, listed so the UI/CLI can show them.
    description : str
        One sentence for the UI's About page.
    """

    name: str
    family: str
    rank: Callable[..., Ranking]
    stochastic: bool = False
    defaults: dict = field(default_factory=dict)
    description: str = ""


METHODS: dict[str, MethodSpec] = {}


def register(spec: MethodSpec) -> MethodSpec:
    """Add ``spec`` to :data:`METHODS` (a re-registration replaces the old one)."""
    METHODS[spec.name] = spec
    return spec


def get_method(name: str) -> MethodSpec:
    """Return the spec registered under ``name``.

    Raises
    ------
    ConfigError
        If no method has that name; the message lists the known names.
    """
    _ensure_loaded()
    try:
        return METHODS[name]
    except KeyError:
        known = ", ".join(METHODS)
        raise ConfigError(f"unknown method {name!r}; known methods: {known}") from None


def list_methods(family: str | None = None) -> list[str]:
    """Names of the registered methods, optionally of one family, in registry order."""
    _ensure_loaded()
    return [n for n, s in METHODS.items() if family is None or s.family == family]


def _ensure_loaded() -> None:
    # Importing the implementation modules registers their methods.
    from . import filter as _filter  # noqa: F401
    from . import greedy as _greedy  # noqa: F401
