"""Handing plug-ins to worker processes (joblib/loky, Dask).

A task sent to a worker carries the specs of the plug-ins this process
loaded (:func:`~._loader.plugin_specs`) and, pickled, what this process
registered outside any plug-in (:func:`registered_here`, :func:`pack`): the
worker loads the one and registers the other before running the task
(:func:`run_with_plugins`). Each registry says how one of its entries is
exported and registered again (:class:`~._registries.Registry`).
"""

from __future__ import annotations

import pickle

from ._loader import _LOADED, ensure_plugins
from ._registries import registries


def registered_here() -> dict[str, dict[str, object]]:
    """What this process registered outside any plug-in (``register`` in a script).

    Returns
    -------
    dict
        Registry kind (``"methods"``, ``"classifiers"``, ``"metrics"``) ->
        {name: payload} of the entries that are neither built in nor from a
        loaded plug-in, each payload as its registry exports it (a method's
        :class:`~mlfs_core.selectors.MethodSpec`, ...). Empty when there are
        none. The runner sends them to worker processes with each task (they
        must pickle, as joblib's cloudpickle does for functions).
    """
    from_plugins: set[tuple[str, str]] = set()
    for info in _LOADED.values():
        from_plugins.update(("methods", n) for n, _ in info.methods)
        from_plugins.update(("classifiers", n) for n in info.classifiers)
        from_plugins.update(("metrics", n) for n in info.metrics)
        from_plugins.update(("variants", n) for n in info.variants)
        from_plugins.update(("presets", n) for n in info.presets)
        from_plugins.update(("binnings", n) for n in info.binnings)
    out: dict[str, dict[str, object]] = {}
    for kind, registry in registries().items():
        mine = {
            name: registry.export(name)
            for name in registry.table
            if name not in registry.built_in and (kind, name) not in from_plugins
        }
        if mine:
            out[kind] = mine
    return out


def _pickler():
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - older joblib vendors it
        from joblib.externals import cloudpickle
    return cloudpickle


def pack(additions: dict) -> tuple[bytes, ...]:
    """:func:`registered_here`'s entries, each pickled on its own (cloudpickle).

    Each goes with its registry's ``restore`` (pickled by reference, so that
    unpickling it in a worker imports the registry). An entry that cannot be
    pickled is left out; one that a worker cannot unpickle (defined in a
    module the worker cannot import) is skipped there, so it breaks only the
    tasks that need it (with "unknown method").
    """
    dumps = _pickler().dumps
    out = []
    for kind, entries in additions.items():
        restore = registries()[kind].restore  # by reference: imports its registry
        for name, payload in entries.items():
            try:
                out.append(dumps((kind, name, restore, payload)))
            except Exception:  # noqa: BLE001 - not picklable: the worker lacks it
                continue
    return tuple(out)


def _register_missing(packed) -> None:
    """Register in this (worker) process what :func:`pack` sent, where missing."""
    for blob in packed:
        try:
            kind, name, restore, payload = pickle.loads(blob)
        except Exception:  # noqa: BLE001 - its module is not importable here
            continue
        registry = registries().get(kind)  # declared: unpickling imported it
        if registry is None or name not in registry.table:
            restore(name, payload)


def run_with_plugins(specs, fn, args, kwargs, additions=None):
    """Load ``specs`` in this (worker) process, then return ``fn(*args, **kwargs)``.

    ``additions`` (:func:`pack` of :func:`registered_here`) are registered
    first where missing, so a method registered in the parent's script works
    in workers.
    """
    if specs:
        ensure_plugins(specs)
    if additions:
        _register_missing(additions)
    return fn(*args, **kwargs)
