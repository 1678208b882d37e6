"""Registry of feature-ranking methods: name -> implementation and metadata.

:data:`METHODS` is one read-only table, complete as soon as this module is
imported, in a fixed order: the paper-000 methods (CS, then BNS, each with
Max, Mean, RoR, RaR), the paper-001 methods, the baselines RFS and AF, then
the extra measures (IG, OR, DF). The implementation modules only *describe*
their methods (:func:`~.filter.filter_specs`, :func:`~.greedy.greedy_specs`);
importing them changes nothing. :func:`rank_features`, the scikit-learn
selector, the CLI, the experiment runner and the app all look methods up
here by name.

A method of your own is added with :func:`register`, which refuses a name
already taken, and removed with :func:`unregister`.
"""

from __future__ import annotations

from types import MappingProxyType

from ..errors import ConfigError
from ._spec import MethodSpec, Option, Ranking
from .filter import filter_specs
from .greedy import greedy_specs

__all__ = [
    "FAMILY_ORDER",
    "METHODS",
    "MethodSpec",
    "Option",
    "Ranking",
    "get_method",
    "list_methods",
    "register",
    "unregister",
]

FAMILY_ORDER = ("paper000", "paper001", "baseline", "extra")


def _built_in() -> dict[str, MethodSpec]:
    specs = [*filter_specs(), *greedy_specs()]
    rank = {family: i for i, family in enumerate(FAMILY_ORDER)}
    ordered = sorted(specs, key=lambda s: rank[s.family])  # stable within a family
    table: dict[str, MethodSpec] = {}
    for spec in ordered:
        if spec.name in table:
            raise RuntimeError(f"two built-in methods are called {spec.name!r}")
        table[spec.name] = spec
    return table


_TABLE = _built_in()
_BUILT_IN = frozenset(_TABLE)
METHODS = MappingProxyType(_TABLE)
"""Read-only view: method name -> :class:`MethodSpec`, in registry order."""


def register(spec: MethodSpec) -> MethodSpec:
    """Add a method of your own after the built-in ones.

    Raises
    ------
    ConfigError
        If a method of that name already exists (nothing is overwritten).
    """
    if not isinstance(spec, MethodSpec):
        raise ConfigError(f"register() takes a MethodSpec, got {type(spec).__name__}")
    if spec.name in _TABLE:
        raise ConfigError(
            f"a method called {spec.name!r} is already registered; "
            "choose another name (or unregister() yours first)"
        )
    _TABLE[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a method added by :func:`register` (built-in methods stay)."""
    if name in _BUILT_IN:
        raise ConfigError(f"{name!r} is a built-in method and cannot be removed")
    if name not in _TABLE:
        raise ConfigError(f"no method called {name!r} is registered")
    del _TABLE[name]


def get_method(name: str) -> MethodSpec:
    """Return the spec registered under ``name``.

    Raises
    ------
    ConfigError
        If no method has that name; the message lists the known names.
    """
    try:
        return _TABLE[name]
    except KeyError:
        known = ", ".join(_TABLE)
        raise ConfigError(f"unknown method {name!r}; known methods: {known}") from None


def list_methods(family: str | None = None) -> list[str]:
    """Names of the registered methods, optionally of one family, in registry order.

    Registry order: paper 000 (CS then BNS; Max, Mean, RoR, RaR), paper 001
    (PPT-MI, IGMF, PMU, D2F, MDMR, LRFS, LSMFS, MLSMFS, SCLS, ATR), the
    baselines (RFS, AF), the extra measures, then methods added by
    :func:`register` in the order they were added.

    Examples
    --------
    >>> list_methods("baseline")
    ['RFS', 'AF']
    """
    return [n for n, s in _TABLE.items() if family is None or s.family == family]
