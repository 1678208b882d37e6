"""The registries a plug-in can add to, as the loader sees them.

Each registry (methods in :mod:`mlfs_core.selectors`, classifiers and metrics
in :mod:`mlfs_core.evaluation`) declares itself with :func:`add_registry`
when imported: its live table, its built-in names and how to remove, export
and re-register one entry. The loader (:mod:`._loader`) and the worker
hand-over (:mod:`._workers`) use only these declarations, so the plug-in
machinery sits below every registry and imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Registry:
    """What the plug-in machinery needs to know about one registry.

    Attributes
    ----------
    kind : str
        ``"methods"``, ``"classifiers"``, ``"metrics"``, ``"variants"``,
        ``"presets"`` or ``"binnings"``: the field of
        :class:`~mlfs_core.plugins.PluginInfo` that lists what a plug-in
        registered here.
    table : mapping
        The live table, name -> entry.
    built_in : frozenset of str
        The names the engine ships.
    unregister : callable
        ``unregister(name)`` removes an entry a plug-in added.
    export : callable
        ``export(name) -> payload``: a picklable description of an entry,
        sent to worker processes.
    restore : callable
        ``restore(name, payload)`` registers an exported entry again.
    label : callable
        ``label(name)``: how :class:`~mlfs_core.plugins.PluginInfo` records
        an entry (default the name).
    """

    kind: str
    table: Mapping[str, object]
    built_in: frozenset
    unregister: Callable[[str], None]
    export: Callable[[str], object]
    restore: Callable[[str, object], None]
    label: Callable[[str], object] = str


_REGISTRIES: dict[str, Registry] = {}


def add_registry(registry: Registry) -> None:
    """Declare a registry to the plug-in machinery (its module does so on import).

    Parameters
    ----------
    registry : Registry
    """
    _REGISTRIES[registry.kind] = registry


def registries() -> dict[str, Registry]:
    """The registries declared so far (imported modules only), by kind."""
    return dict(_REGISTRIES)


def snapshot() -> dict[str, frozenset | None]:
    """Names in each declared registry now (None: a kind not imported yet, which
    then holds only its built-ins)."""
    return {kind: frozenset(r.table) for kind, r in _REGISTRIES.items()}


def added(before: Mapping[str, frozenset | None], kind: str) -> list[str]:
    """Names registered in ``kind`` since the :func:`snapshot` ``before``."""
    registry = _REGISTRIES.get(kind)
    if registry is None:
        return []
    old = before.get(kind)
    old = registry.built_in if old is None else old
    return [n for n in registry.table if n not in old]


def remove_added(before: Mapping[str, frozenset | None]) -> None:
    """Unregister whatever was registered since the :func:`snapshot` ``before``."""
    for kind, registry in list(_REGISTRIES.items()):
        for name in added(before, kind):
            registry.unregister(name)
