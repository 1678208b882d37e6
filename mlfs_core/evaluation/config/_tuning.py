"""Hyper-parameter grids in a config, and the inner split they are chosen on.

A method's option given as a list (``params = { alpha = [1e-3, 1e-2, 1e-1] }``)
is a *grid* when the option's own default is not a list: every combination of
the grids' values is a candidate (at most :data:`MAX_CANDIDATES`, in the order
given, the first option varying slowest). The runner
(:mod:`mlfs_core.evaluation.runner.plan.tuning`) chooses one candidate per dataset
and outer split on an inner hold-out of that split's training part
(:class:`TuningConfig`, the ``[tuning]`` table), never on a test part, and
reports the choices.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass

from ...errors import ConfigError
from ...options import Option, check_all

MAX_CANDIDATES = 100
"""The most candidates (grid combinations) one method may have."""
_TUNING_OPTIONS = (
    Option(
        "test_size",
        0.3,
        low=0.0,
        high=1.0,
        closed="neither",
        help="validation fraction of each outer training part",
    ),
)


@dataclass(frozen=True)
class TuningConfig:
    """How a method's grid is searched: the ``[tuning]`` table of a config.

    Attributes
    ----------
    test_size : float
        The inner split: a seeded stratified hold-out of each outer training
        part, this fraction for validation (in (0, 1), default 0.3). The
        candidates are ranked on the rest and evaluated on it with the
        protocol's classifier and budgets.
    metric : str, optional
        The metric the candidates are compared by (its mean over the
        budgets; the registry's direction); default the protocol's first.
        Ties go to the candidate listed first.
    """

    test_size: float = 0.3
    metric: str | None = None

    def __post_init__(self) -> None:
        values = check_all(
            _TUNING_OPTIONS, {"test_size": self.test_size}, prefix="tuning."
        )
        object.__setattr__(self, "test_size", values["test_size"])
        if self.metric is not None and not isinstance(self.metric, str):
            raise ConfigError(
                f"tuning.metric must be a metric's name, got {self.metric!r}"
            )


def grid_options(method_config, spec) -> tuple[str, ...]:
    """The options of ``method_config`` given as grids (lists whose option's
    default is not a list), in the order given."""
    defaults = spec.defaults
    return tuple(
        name
        for name, value in method_config.params.items()
        if isinstance(value, (list, tuple))
        and name in defaults
        and not isinstance(defaults[name], (list, tuple))
    )


def candidates(method_config, spec) -> list[dict]:
    """Every combination of the grids of ``method_config``: its params, one per
    candidate, in grid order (the first grid varying slowest).

    Raises
    ------
    ConfigError
        For an empty grid or more than :data:`MAX_CANDIDATES` combinations.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> spec = SimpleNamespace(defaults={"a": 1.0, "b": 2})
    >>> m = SimpleNamespace(params={"a": [1, 2], "b": [3, 4]}, display="X")
    >>> candidates(m, spec)
    [{'a': 1, 'b': 3}, {'a': 1, 'b': 4}, {'a': 2, 'b': 3}, {'a': 2, 'b': 4}]
    """
    names = grid_options(method_config, spec)
    if not names:
        return [dict(method_config.params)]
    empty = [n for n in names if not method_config.params[n]]
    if empty:
        raise ConfigError(f"methods: {method_config.display!r}: empty grid {empty}")
    grids = [list(method_config.params[n]) for n in names]
    count = 1
    for grid in grids:
        count *= len(grid)
    if count > MAX_CANDIDATES:
        raise ConfigError(
            f"methods: {method_config.display!r}: {count} grid combinations, "
            f"more than {MAX_CANDIDATES}"
        )
    out = []
    for point in itertools.product(*grids):
        out.append({**method_config.params, **dict(zip(names, point))})
    return out


def tuning_from(value) -> TuningConfig | None:
    """A :class:`TuningConfig` from a ``[tuning]`` table (or itself, or None)."""
    if value is None or isinstance(value, TuningConfig):
        return value
    if not isinstance(value, Mapping):
        raise ConfigError(f"tuning must be a table, got {type(value).__name__}")
    unknown = sorted(set(value) - {"test_size", "metric"})
    if unknown:
        raise ConfigError(
            f"tuning: unknown key(s) {unknown}; known: ['metric', 'test_size']"
        )
    return TuningConfig(**dict(value))
