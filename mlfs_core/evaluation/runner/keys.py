"""The cache keys of the runner's tasks: a description plus the code it runs.

The runner describes each task (dataset content hash, split, method,
parameters, fold, seed, budget, classifier, metrics) and keys it with
:func:`task_key`: :func:`mlfs_core.cache.hash_key` of the description and of
:func:`code_identity`, the identity of every method, classifier or metric it
names that is not built in (a plug-in's, or one registered in Python): its
``version`` and the SHA-256 identity of its code
(:func:`mlfs_core._code.source_digest`): the file defining it and every file
of the user's own code it reaches, or an installed distribution's name,
version and file hashes. So editing a plug-in or a helper it imports never
returns stale values. Code that cannot be identified (a lambda typed in a
notebook, a function without a source file) gets a key that is new in every
process, with a warning, so its cached results are not reused unless asked
(:data:`REUSE_ENV` set to ``1``). Keys of the built-in ones carry no code
identity and are unchanged by it.

The registries are read here, in the runner, so that the cache itself
(:mod:`mlfs_core.cache`) knows none of them.
"""

from __future__ import annotations

import os
import secrets
import warnings
from collections.abc import Mapping
from typing import Any

from ...cache import hash_key
from ...measures.binning import binning_identity
from ...selectors._registry import METHODS, method_identity
from ...selectors.variants import variant_identity
from ..classifiers import classifier_identity
from ..metrics import metric_identity

REUSE_ENV = "MLFS_REUSE_UNIDENTIFIED"
"""Set to ``1`` to reuse cached results of code whose identity is unknown."""

_PROCESS_NONCE = secrets.token_hex(8)
_WARNED: set[tuple[str, str]] = set()


def task_key(description: Mapping[str, Any]) -> str:
    """The cache key of a task: its description and the user code it names.

    Parameters
    ----------
    description : mapping
        The task's description (JSON-serialisable).

    Returns
    -------
    str
        :func:`mlfs_core.cache.hash_key` of ``description`` and of its
        :func:`code_identity`.

    Examples
    --------
    >>> from mlfs_core.cache import hash_key
    >>> task_key({"method": "MaxCS"}) == hash_key({"method": "MaxCS"})
    True
    """
    return hash_key(description, code_identity(description))


def _unidentified(kind: str, name: str, ident: dict) -> dict:
    """``ident``, made unique to this process when its code is unknown."""
    if ident.get("code") is not None or os.environ.get(REUSE_ENV) == "1":
        return ident
    if (kind, name) not in _WARNED:
        _WARNED.add((kind, name))
        warnings.warn(
            f"{kind} {name!r}: its code cannot be identified (no source file: "
            "a lambda or function typed in a notebook or console, or compiled "
            "code), so its cached results are not reused; set "
            f"{REUSE_ENV}=1 to reuse them",
            UserWarning,
            stacklevel=3,
        )
    return {**ident, "unidentified": _PROCESS_NONCE}


def code_identity(description: Mapping[str, Any]) -> dict:
    """Identity of the user code a task description names (empty for built-ins).

    Looks at the description's ``"method"`` (a registered method name, the
    criterion variant its ``"params"`` select:
    :func:`mlfs_core.selectors.variants.variant_identity`, and the
    discretization strategy they name:
    :func:`mlfs_core.measures.binning.binning_identity`),
    ``"classifier"`` (``[name, params]``) and ``"metrics"`` (names); for
    each one that is registered but not built in, records its ``version``
    and the identity of its code (:func:`mlfs_core._code.source_digest`);
    code without one gets a mark unique to this process (and a warning).

    Parameters
    ----------
    description : mapping
        A task's description.

    Returns
    -------
    dict
        ``method``, ``variant``, ``binning``, ``classifier`` and ``metrics``
        entries, for user code only.

    Examples
    --------
    >>> code_identity({"method": "MaxCS", "classifier": ["mlknn", {}]})
    {}
    """
    out: dict[str, Any] = {}
    method = description.get("method")
    if isinstance(method, str) and method in METHODS:
        ident = method_identity(METHODS[method])
        if ident is not None:
            out["method"] = _unidentified("method", method, ident)
        params = description.get("params")
        if isinstance(params, Mapping):
            variant = variant_identity(method, params.get("variant"))
            if variant is not None:
                out["variant"] = variant
            binning = binning_identity(params.get("discretize"))
            if binning is not None:
                out["binning"] = binning
    classifier = description.get("classifier")
    if isinstance(classifier, (list, tuple)) and classifier:
        ident = classifier_identity(str(classifier[0]))
        if ident is not None:
            out["classifier"] = _unidentified("classifier", str(classifier[0]), ident)
    metrics = description.get("metrics")
    if isinstance(metrics, (list, tuple)):
        idents = {str(m): metric_identity(str(m)) for m in metrics}
        idents = {
            m: _unidentified("metric", m, i) for m, i in idents.items() if i is not None
        }
        if idents:
            out["metrics"] = idents
    return out


def code_records(config) -> list[dict]:
    """The identity of the user code ``config`` runs, to record with its results.

    One record per method, criterion variant, discretization strategy,
    classifier and metric the
    config names that is not built in (a plug-in's, or one registered in
    Python), as :func:`code_identity` keys its tasks.

    Parameters
    ----------
    config : ExperimentConfig

    Returns
    -------
    list of dict
        ``kind`` (``method``, ``variant``, ``binning``, ``classifier`` or
        ``metric``),
        ``name`` (a variant's as ``METHOD/variant``), ``file`` (the plug-in
        file or module that registered it, else the file defining it; ""
        when unknown), ``version`` and ``digest`` (the SHA-256 code identity,
        helper modules included; a variant's covers its terms' code; None
        when the code cannot be identified), sorted by kind and name.
        Empty when the config runs only built-in code.

    Examples
    --------
    >>> from mlfs_core.evaluation import ExperimentConfig
    >>> code_records(ExperimentConfig(datasets=("sample",), methods=("MaxCS",)))
    []
    """
    p = config.protocol
    found: dict[tuple[str, str], dict] = {}
    for m in config.methods:
        name, params = (m, {}) if isinstance(m, str) else (m.name, m.params or {})
        for one in _each_value(params):
            _add_method_records(
                found, name, code_identity({"method": name, "params": one})
            )
    names = {"classifier": [p.classifier.name, p.classifier.params]}
    ident = code_identity({**names, "metrics": list(p.metrics)})
    if "classifier" in ident:
        found["classifier", p.classifier.name] = _record(
            "classifier", p.classifier.name, ident["classifier"]
        )
    for metric, one in ident.get("metrics", {}).items():
        found["metric", metric] = _record("metric", metric, one)
    return [found[k] for k in sorted(found)]


def _add_method_records(found: dict, name: str, ident: dict) -> None:
    """Add the records of a method's task identity to ``found``."""
    if "method" in ident:
        found["method", name] = _record("method", name, ident["method"])
    if "variant" in ident:
        label = f"{name}/{ident['variant']['variant']}"
        digest = hash_key(ident["variant"])
        found["variant", label] = _record("variant", label, {"code": digest})
    if "binning" in ident:
        label = ident["binning"]["binning"]
        digest = hash_key(ident["binning"])
        found["binning", label] = _record("binning", label, {"code": digest})


def _each_value(params: Mapping[str, Any]) -> list[dict]:
    """``params`` once per value of each grid option (the other grids left out),
    or ``params`` itself without grids."""
    grids = {k: v for k, v in params.items() if isinstance(v, (list, tuple))}
    if not grids:
        return [dict(params)]
    fixed = {k: v for k, v in params.items() if k not in grids}
    return [{**fixed, k: x} for k, values in grids.items() for x in values]


def _record(kind: str, name: str, ident: Mapping[str, Any]) -> dict:
    """One :func:`code_records` entry (the file from the plug-in that registered it)."""
    return {
        "kind": kind,
        "name": name,
        "file": _registered_by(kind, name),
        "version": ident.get("version", ""),
        "digest": ident.get("code"),
    }


def _registered_by(kind: str, name: str) -> str:
    """The plug-in (file path or module) that registered ``name``, else the file
    defining it ("" when neither is known)."""
    import inspect

    from ...plugins import loaded_plugins
    from ...selectors._registry import get_method
    from ..classifiers import CLASSIFIERS
    from ..metrics import METRICS

    for info in loaded_plugins():
        listed = {
            "method": [n for n, _ in info.methods],
            "variant": info.variants,
            "binning": info.binnings,
            "classifier": info.classifiers,
            "metric": info.metrics,
        }[kind]
        if name in listed:
            return info.source
    code = {
        "method": lambda: get_method(name).rank,
        "classifier": lambda: CLASSIFIERS[name],
        "metric": lambda: METRICS[name].function,
    }.get(kind)
    try:
        path = inspect.getsourcefile(inspect.unwrap(code()))
    except (TypeError, LookupError, ValueError):  # a variant; no source file
        return ""
    return os.path.realpath(path) if path else ""
