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

from .._validation import check_int
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
class Option:
    """One keyword option of a method: its default and what values it allows.

    The type of ``default`` (bool, int, float or str) is the option's type.

    Attributes
    ----------
    name : str
        Keyword name, e.g. ``"bins"``.
    default : bool, int, float or str
        Value used when the option is not given.
    choices : tuple of str, optional
        The allowed values of a text option.
    low, high : int or float, optional
        Inclusive bounds of a numeric option.
    help : str
        One sentence for the UI and ``mlfs methods``.

    Examples
    --------
    >>> Option("bins", 3, low=2).check(5)
    5
    >>> Option("weighting", "inverse", choices=("inverse", "uniform")).check("x")
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: weighting must be one of inverse, uniform; got 'x'
    """

    name: str
    default: bool | int | float | str
    choices: tuple[str, ...] | None = None
    low: float | None = None
    high: float | None = None
    help: str = ""

    def __post_init__(self) -> None:
        self.check(self.default)  # a spec with an invalid default is a bug

    def describe(self) -> str:
        """``name=default`` and what is allowed, for ``mlfs methods`` and the app.

        Examples
        --------
        >>> Option("bins", 3, low=2).describe()
        'bins=3 (int >= 2)'
        >>> Option("weighting", "inverse", choices=("inverse", "uniform")).describe()
        'weighting=inverse (inverse|uniform)'
        """
        if self.choices is not None:
            allowed = "|".join(self.choices)
        elif self.kind is bool:
            allowed = "True|False"
        else:
            bounds = [f">= {self.low:g}"] if self.low is not None else []
            bounds += [f"<= {self.high:g}"] if self.high is not None else []
            allowed = " ".join([self.kind.__name__, *bounds])
        return f"{self.name}={self.default} ({allowed})"

    @property
    def kind(self) -> type:
        """``bool``, ``int``, ``float`` or ``str``: the type of the default."""
        return type(self.default)

    def check(self, value: object) -> object:
        """``value`` as the option's type if allowed; else raise ConfigError."""
        if self.choices is not None:
            if value not in self.choices:
                allowed = ", ".join(self.choices)
                raise ConfigError(
                    f"{self.name} must be one of {allowed}; got {value!r}"
                )
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, (bool, np.bool_)):
                raise ConfigError(f"{self.name} must be True or False, got {value!r}")
            return bool(value)
        if isinstance(self.default, int):
            return check_int(value, self.name, low=self.low, high=self.high)
        if isinstance(self.default, float):
            return self._check_float(value)
        if not isinstance(value, str):
            raise ConfigError(f"{self.name} must be text, got {value!r}")
        return value

    def _check_float(self, value: object) -> float:
        ok = isinstance(value, (int, float, np.integer, np.floating)) and not (
            isinstance(value, (bool, np.bool_))
        )
        if (
            not ok
            or not np.isfinite(value)
            or (self.low is not None and value < self.low)
            or (self.high is not None and value > self.high)
        ):
            bounds = f" in [{self.low}, {self.high}]" if self.low is not None else ""
            raise ConfigError(f"{self.name} must be a number{bounds}, got {value!r}")
        return float(value)


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
