"""Registry of feature-ranking methods: name -> implementation and metadata.

:data:`METHODS` is one read-only table, complete as soon as this module is
imported, in a fixed order, family after family (:data:`FAMILIES`): score +
aggregation (CS, then BNS, each with Max, Mean, RoR, RaR), the
information-theoretic greedy filters, the baselines Random and AF, then the
extra measures (IG, OR, DF) with the same aggregations. The implementation
modules only *describe* their methods (:func:`~.filter.filter_specs`,
:func:`~.greedy.greedy_specs`);
importing them changes nothing. :func:`rank_features`, the scikit-learn
selector, the CLI, the experiment runner and the app all look methods up
here by name.

A method of your own is added with :func:`register` (a :class:`MethodSpec`
or a plain ranking function), which refuses a name already taken, and
removed with :func:`unregister`. Plug-ins (:mod:`mlfs_core.plugins`) call
:func:`register` when they are loaded; a name the registry does not know
triggers one load of the installed and ``MLFS_PLUGINS`` plug-ins before
:func:`get_method` gives up.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from .. import plugins
from ..errors import ConfigError
from ._spec import (
    REFERENCE_KINDS,
    SCORE_KINDS,
    MethodSpec,
    Ranking,
    checked_spec,
    spec_from_function,
)
from .field import field_specs
from .filter import filter_specs
from .greedy import greedy_specs

__all__ = [
    "FAMILIES",
    "METHODS",
    "MethodSpec",
    "REFERENCE_KINDS",
    "SCORE_KINDS",
    "Ranking",
    "default_methods",
    "families",
    "get_method",
    "is_built_in",
    "list_methods",
    "method_identity",
    "method_version",
    "reference_methods",
    "register",
    "unregister",
]

FAMILIES = MappingProxyType(
    {
        "score-aggregation": "Score + aggregation",
        "information-theoretic": "Information-theoretic greedy filters",
        "sparse-regression": "Sparse regression",
        "spectral": "Spectral",
        "instance-based": "Instance-based",
        "global-information": "Global information-theoretic",
        "baseline": "Baselines",
        "extra": "Extra measures + aggregation",
    }
)
"""The built-in families in registry order, each with its title (the app's
pickers and About page show these titles)."""
_TITLES = {**FAMILIES, "user": "Your methods"}  # "user": a plain function's family


def _built_in() -> dict[str, MethodSpec]:
    specs = [*filter_specs(), *greedy_specs(), *field_specs()]
    rank = {family: i for i, family in enumerate(FAMILIES)}
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


def register(spec: MethodSpec | Callable, **fields) -> MethodSpec:
    """Add a method of your own after the built-in ones.

    Parameters
    ----------
    spec : MethodSpec or callable
        A :class:`MethodSpec`, or a plain function
        ``rank(X, Y, *, k, random_state, **options)`` returning an order
        (with or without scores, see :func:`~._spec.spec_from_function`).
    **fields
        For a function: ``name`` (default its ``__name__``), ``family``
        (default ``"user"``), ``stochastic``, ``options``, ``description``,
        ``version``, ``family_label``, ``reference``, ``default_for``,
        ``formula``, ``stepwise`` (default False), ``score_kind`` (default
        ``"order"``: say ``"score"`` if the function returns scores of
        strength) and ``citation``: see :class:`MethodSpec`.

    Returns
    -------
    MethodSpec
        What was registered.

    Raises
    ------
    ConfigError
        If a method of that name already exists (nothing is overwritten), or
        the function's signature is not ``(X, Y, *, k, random_state,
        **options)`` (checked here, not at the first call; a function's
        keyword defaults are its options).

    Examples
    --------
    >>> import numpy as np
    >>> def by_column_sum(X, Y, *, k, random_state):
    ...     return np.argsort(-np.asarray(X.sum(axis=0)).ravel(), kind="stable")[:k]
    >>> spec = register(by_column_sum, version="1")
    >>> spec.family, spec.version
    ('user', '1')
    >>> unregister("by_column_sum")
    """
    if isinstance(spec, MethodSpec):
        if fields:
            raise ConfigError(
                f"register(MethodSpec) takes no other arguments, got {sorted(fields)}"
            )
        spec = checked_spec(spec)
    elif callable(spec):
        spec = spec_from_function(spec, **fields)
    else:
        raise ConfigError(
            f"register() takes a MethodSpec or a function, got {type(spec).__name__}"
        )
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

    An unknown name first triggers one load of the installed plug-ins and
    those of ``MLFS_PLUGINS`` (:func:`mlfs_core.plugins.load_plugins`).

    Raises
    ------
    ConfigError
        If no method has that name; the message lists the known names.
    """
    if name not in _TABLE and isinstance(name, str):
        from .._code import on_unknown_name

        on_unknown_name()
    try:
        return _TABLE[name]
    except (KeyError, TypeError):
        known = ", ".join(_TABLE)
        raise ConfigError(f"unknown method {name!r}; known methods: {known}") from None


def as_spec(method) -> MethodSpec:
    """``method`` (a registered name, a :class:`MethodSpec` or a function) as a spec."""
    if isinstance(method, MethodSpec):
        return method
    if isinstance(method, str):
        return get_method(method)
    if callable(method):
        return spec_from_function(method)
    raise ConfigError(
        "method must be a registered name, a MethodSpec or a function, "
        f"got {type(method).__name__}"
    )


def is_built_in(name: str) -> bool:
    """Whether ``name`` is one of the methods that ship with mlfs_core."""
    return name in _BUILT_IN


def method_version(name: str) -> str:
    """The ``version`` of the method registered as ``name`` ("" if it has none)."""
    return get_method(name).version


def method_identity(spec: MethodSpec | str) -> dict | None:
    """The part of a selection's cache key that identifies the method's code.

    None for the built-in methods (their keys stay as they were: the engine's
    ``CACHE_VERSION`` covers them). For any other method: its ``version`` and
    the SHA-256 of the file defining its ``rank`` (a plug-in file, a module),
    so editing that file or bumping the version gives new keys.
    """
    if isinstance(spec, str):
        spec = get_method(spec)
    if spec.name in _BUILT_IN and _TABLE.get(spec.name) is spec:
        return None
    from .._code import source_digest

    return {"version": spec.version, "code": source_digest(spec.rank)}


def families() -> list[tuple[str, str]]:
    """``(family, title)`` of every family with a registered method, in order.

    The built-in families first (:data:`FAMILIES`, with their titles), then
    those of methods added later, in the order they appeared, titled by
    their first method's ``family_label`` (default: the family's name;
    ``"user"``, a plain function's family, is "Your methods").

    Examples
    --------
    >>> families()[0]
    ('score-aggregation', 'Score + aggregation')
    """
    seen: dict[str, str] = {}
    for spec in _TABLE.values():
        if spec.family not in seen:
            label = _TITLES.get(spec.family) or spec.family_label or spec.family
            seen[spec.family] = label
    rank = {f: i for i, f in enumerate(FAMILIES)}
    ordered = sorted(seen, key=lambda f: rank.get(f, len(rank)))
    return [(f, seen[f]) for f in ordered]


def list_methods(family: str | None = None) -> list[str]:
    """Names of the registered methods, optionally of one family, in registry order.

    Registry order: score + aggregation (CS then BNS; Max, Mean, RoR, RaR),
    the information-theoretic greedy filters (PPT-MI, IGMF, PMU, D2F, MDMR,
    LRFS, LSMFS, MLSMFS, SCLS, ATR), the baselines (Random, AF), the extra
    measures, then methods added by :func:`register` in the order they were
    added.

    Examples
    --------
    >>> list_methods("baseline")
    ['Random', 'AF']
    """
    return [n for n, s in _TABLE.items() if family is None or s.family == family]


def default_methods(place: str) -> list[str]:
    """Names of the methods whose ``default_for`` holds ``place``, in registry order.

    Parameters
    ----------
    place : str
        Where the app picks methods before the user does, e.g.
        ``"experiment-A"``, ``"control"`` or ``"learn"`` (see
        :attr:`MethodSpec.default_for`).

    Examples
    --------
    >>> default_methods("nowhere")
    []
    """
    return [n for n, s in _TABLE.items() if place in s.default_for]


def reference_methods(kind: str | None = None) -> list[str]:
    """Names of the baselines (methods with a ``reference``), in registry order.

    Parameters
    ----------
    kind : str, optional
        Only baselines of that kind: ``"all"`` (keeps every feature) or
        ``"random"`` (see :data:`REFERENCE_KINDS`). Default: every baseline.

    Raises
    ------
    ConfigError
        For a kind that is not one of :data:`REFERENCE_KINDS`.
    """
    if kind is not None and (not kind or kind not in REFERENCE_KINDS):
        kinds = ", ".join(repr(k) for k in REFERENCE_KINDS if k)
        raise ConfigError(f"unknown reference kind {kind!r}; known: {kinds}")
    return [
        n
        for n, s in _TABLE.items()
        if s.reference and (kind is None or s.reference == kind)
    ]


def _restore(name: str, spec: MethodSpec) -> None:
    """Register ``spec`` again in a worker process (:mod:`mlfs_core.plugins`)."""
    register(spec)


plugins.add_registry(
    plugins.Registry(
        "methods",
        _TABLE,
        _BUILT_IN,
        unregister,
        export=_TABLE.__getitem__,
        restore=_restore,
        label=lambda name: (name, method_version(name)),
    )
)
