"""What a ranking method is: :class:`MethodSpec`, its :class:`Option` s, its result.

A spec's ``rank`` callable has the signature::

    rank(X, Y, *, k, rng, **params) -> Ranking

where ``X`` is a CSR matrix (n_samples, n_features) of floats, ``Y`` a dense
0/1 ``int8`` array (n_samples, n_labels) (both already validated), ``k`` the
number of features wanted (``None`` = all), ``rng`` a
:class:`numpy.random.Generator` and ``params`` the method's keyword options,
checked against the spec's :class:`Option` s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError
from ..options import Option  # noqa: F401  (the shared vocabulary; here since 0.1)


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
        theoretic), ``"baseline"`` (RFS, AF) or ``"extra"`` (IG, OR, DF).
    rank : callable
        ``rank(X, Y, *, k, rng, **params) -> Ranking``.
    stochastic : bool
        Whether the result depends on the random generator (RaR, RFS).
    options : tuple of Option
        The keyword options ``rank`` accepts, with defaults and allowed values.
    description : str
        One sentence for the UI's About page.
    """

    name: str
    family: str
    rank: Callable[..., Ranking]
    stochastic: bool = False
    options: tuple[Option, ...] = ()
    description: str = ""

    @property
    def defaults(self) -> dict[str, object]:
        """Option name -> default value (a fresh dict)."""
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        """The option called ``name`` (ConfigError naming the allowed ones)."""
        for o in self.options:
            if o.name == name:
                return o
        raise self._unknown([name])

    def resolve(self, params: Mapping[str, object]) -> dict[str, object]:
        """Defaults updated with ``params``, each value checked.

        Raises
        ------
        ConfigError
            For an unknown option (the message lists the allowed ones) or a
            value outside an option's choices or range.
        """
        unknown = [p for p in params if p not in self.defaults]
        if unknown:
            raise self._unknown(unknown)
        return {
            o.name: o.check(params[o.name]) if o.name in params else o.default
            for o in self.options
        }

    def _unknown(self, names: list[str]) -> ConfigError:
        allowed = ", ".join(sorted(self.defaults)) or "none"
        return ConfigError(
            f"method {self.name!r} got unknown parameter(s) {sorted(names)}; "
            f"allowed: {allowed}"
        )
