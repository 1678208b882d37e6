"""A task's identity: the one place that describes a task and keys it.

Every value the runner caches is keyed here, from what it depends on:

- a selection (:func:`selection_key`): the dataset's content
  (:func:`dataset_hash`), its splits (:func:`split_key`), the fold, the method
  and its parameters, the seed (:func:`task_seed`) and the ranking's length;
- a fit (:func:`fit_key`): its selection's key, the budget, the classifier,
  the seed, the discretization, scaling, label handling and metrics, the
  evaluation's conventions and the BLAS kernel its values follow
  (:func:`fit_kernel`);
- both keyed by :func:`task_key`: :func:`mlfs_core.cache.hash_key` of the
  description and of :func:`code_identity`, the identity of every method,
  classifier or metric it names that is not built in (a plug-in's, or one
  registered in Python): its ``version`` and the SHA-256 identity of its code
  (:func:`mlfs_core._code.source_digest`): the file defining it and every file
  of the user's own code it reaches, or an installed distribution's name,
  version and file hashes. So editing a plug-in or a helper it imports never
  returns stale values. Keys of the built-in ones carry no code identity and
  are unchanged by it;
- :func:`code_records`: the same identities, for a config, recorded with its
  results (``environment.json``) so that ``mlfs verify`` can tell a code
  change from an edited table.

Code that cannot be identified (a lambda typed in a notebook, a function
without a source file) gets a key that is new in every process, with a
warning, so its cached results are not reused unless the caller passes
``reuse_unidentified=True`` (``mlfs experiment`` and the app pass it when the
environment variable :data:`REUSE_ENV` is ``1``; the engine reads none).

The registries are read here, in the runner, so that the cache itself
(:mod:`mlfs_core.cache`) knows none of them.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import warnings
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from ... import blas
from ...cache import hash_key
from ...measures.binning import binning_identity
from ...selectors._registry import METHODS, method_identity
from ...selectors.variants import variant_identity
from ..classifiers import classifier_identity, kernel_dependent
from ..metrics import metric_identity

REUSE_ENV = "MLFS_REUSE_UNIDENTIFIED"
"""The environment variable ``mlfs experiment``, ``mlfs verify`` and the app
read: ``1`` makes them pass ``reuse_unidentified=True`` (reuse the cached
results of code whose identity is unknown)."""

_PROCESS_NONCE = secrets.token_hex(8)
_WARNED: set[tuple[str, str]] = set()


def task_seed(*parts) -> int:
    """A 32-bit seed derived deterministically from ``parts`` (stable across runs).

    Examples
    --------
    >>> task_seed(0, 1, 2) == task_seed(0, 1, 2) != task_seed(0, 2, 1)
    True
    """
    return zlib.crc32(repr(parts).encode("utf-8"))


def dataset_hash(ds) -> str:
    """Content hash of a dataset (its own ``content_hash()`` when it has one)."""
    if hasattr(ds, "content_hash"):
        return str(ds.content_hash())
    h = hashlib.sha256()
    X = ds.X.tocsr()
    for arr in (X.indptr, X.indices, X.data, np.asarray(ds.Y)):
        h.update(np.ascontiguousarray(arr).tobytes())
    h.update(str(X.shape).encode())
    return h.hexdigest()


def split_key(protocol, seed: int, *, own: bool = False) -> dict:
    """The description of a dataset's train/test splits under ``protocol``.

    ``own``: the dataset brings its own split (used when ``protocol.split``
    is ``"own"``; without one, ``"own"`` falls back to a seeded hold-out).

    Examples
    --------
    >>> from mlfs_core.evaluation import protocol_preset
    >>> split_key(protocol_preset("A"), 0)
    {'split': 'cv', 'n_folds': 10, 'seed': 0}
    """
    if protocol.split == "cv":
        return {"split": "cv", "n_folds": protocol.n_folds, "seed": seed}
    if protocol.split == "repeated_holdout":
        key = {"split": "repeated_holdout", "n_holdouts": protocol.n_holdouts}
        return {**key, "test_size": protocol.test_size, "seed": seed}
    if protocol.split == "own" and own:
        return {"split": "own"}
    return {"split": "holdout", "test_size": protocol.test_size, "seed": seed}


def selection_key(
    d, m, fold: int, seed, k: int, *, reuse_unidentified: bool = False
) -> str:
    """Cache key of method ``m``'s ranking of length ``k`` on fold ``fold`` of ``d``.

    Parameters
    ----------
    d : PreparedDataset
        Its ``content_hash`` and ``split_key`` enter the key.
    m : PreparedMethod
        Its registry ``name`` and ``params`` enter the key (not its label).
    fold : int
    seed : int or None
        The method's seed (stochastic methods), else None.
    k : int
    reuse_unidentified : bool, default=False
        See :func:`code_identity`.
    """
    desc = {
        "kind": "selection",
        "dataset": d.content_hash,
        "split": d.split_key,
        "fold": fold,
        "method": m.name,
        "params": m.params,
        "seed": seed,
        "k": k,
    }
    return task_key(desc, reuse_unidentified=reuse_unidentified)


def fit_key(s, k: int, config, *, reuse_unidentified: bool = False) -> str:
    """Cache key of the fit of selection ``s`` (its ``key``) at budget ``k``."""
    p = config.protocol
    desc = {
        "kind": "fit",
        "selection": s.key,
        "budget": k,
        "classifier": [p.classifier.name, p.classifier.params],
        "seed": config.seed,
        "discretize": [p.discretize, p.bins],
        "scaling": p.scaling,
        "labels": p.label_handling,
        "metrics": list(p.metrics),
    }
    if p.evaluation != "definition":  # definition keys stay as they were
        desc["evaluation"] = p.evaluation
    kernel = fit_kernel(p.classifier.name, p.classifier.params)
    if kernel not in (None, blas.DEFAULT_KERNEL_ID):  # pinned keys stay as they were
        desc["blas"] = kernel
    return task_key(desc, reuse_unidentified=reuse_unidentified)


def fit_kernel(name: str, params: dict) -> str | None:
    """The BLAS kernel a fit's values follow, or None when they follow none.

    Kernel-dependent fits run under the pinned kernel where one is pinned
    (see :func:`~.execute.pool.parallel`), else under this process's kernel.
    """
    if not kernel_dependent(name, params):
        return None
    return blas.expected_kernel_id() or blas.kernel_id()


def task_key(
    description: Mapping[str, Any], *, reuse_unidentified: bool = False
) -> str:
    """The cache key of a task: its description and the user code it names.

    Parameters
    ----------
    description : mapping
        The task's description (JSON-serialisable).
    reuse_unidentified : bool, default=False
        See :func:`code_identity`.

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
    ident = code_identity(description, reuse_unidentified=reuse_unidentified)
    return hash_key(description, ident)


def _unidentified(kind: str, name: str, ident: dict, reuse: bool) -> dict:
    """``ident``, made unique to this process when its code is unknown."""
    if ident.get("code") is not None or reuse:
        return ident
    if (kind, name) not in _WARNED:
        _WARNED.add((kind, name))
        warnings.warn(
            f"{kind} {name!r}: its code cannot be identified (no source file: "
            "a lambda or function typed in a notebook or console, or compiled "
            "code), so its cached results are not reused; pass "
            f"reuse_unidentified=True (mlfs and the app: set {REUSE_ENV}=1) "
            "to reuse them",
            UserWarning,
            stacklevel=4,
        )
    return {**ident, "unidentified": _PROCESS_NONCE}


def code_identity(
    description: Mapping[str, Any], *, reuse_unidentified: bool = False
) -> dict:
    """Identity of the user code a task description names (empty for built-ins).

    Looks at the description's ``"method"`` (a registered method name, the
    criterion variant its ``"params"`` select:
    :func:`mlfs_core.selectors.variants.variant_identity`, and the
    discretization strategy they name:
    :func:`mlfs_core.measures.binning.binning_identity`),
    ``"classifier"`` (``[name, params]``) and ``"metrics"`` (names); for
    each one that is registered but not built in, records its ``version``
    and the identity of its code (:func:`mlfs_core._code.source_digest`).

    Parameters
    ----------
    description : mapping
        A task's description.
    reuse_unidentified : bool, default=False
        Code without an identity gets a mark unique to this process (and a
        warning, once per name), so its cached results are not reused;
        True leaves the mark (and the warning) out.

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
    reuse = reuse_unidentified
    out: dict[str, Any] = {}
    method = description.get("method")
    if isinstance(method, str):
        out.update(_method_identity(method, description.get("params"), reuse))
    classifier = description.get("classifier")
    if isinstance(classifier, (list, tuple)) and classifier:
        ident = _classifier_identity(str(classifier[0]), reuse)
        if ident is not None:
            out["classifier"] = ident
    metrics = description.get("metrics")
    if isinstance(metrics, (list, tuple)):
        idents = _metrics_identity(metrics, reuse)
        if idents:
            out["metrics"] = idents
    return out


def _method_identity(name: str, params, reuse: bool) -> dict:
    """The ``method``, ``variant`` and ``binning`` entries of method ``name``
    under ``params`` (a mapping; anything else names no variant nor binning)."""
    out: dict[str, Any] = {}
    if name not in METHODS:
        return out
    ident = method_identity(METHODS[name])
    if ident is not None:
        out["method"] = _unidentified("method", name, ident, reuse)
    if isinstance(params, Mapping):
        variant = variant_identity(name, params.get("variant"))
        if variant is not None:
            out["variant"] = variant
        binning = binning_identity(params.get("discretize"))
        if binning is not None:
            out["binning"] = binning
    return out


def _classifier_identity(name: str, reuse: bool) -> dict | None:
    """The identity of classifier ``name`` (None when built in)."""
    ident = classifier_identity(name)
    return None if ident is None else _unidentified("classifier", name, ident, reuse)


def _metrics_identity(metrics, reuse: bool) -> dict:
    """Metric name -> identity, for the metrics of ``metrics`` not built in."""
    idents = {str(m): metric_identity(str(m)) for m in metrics}
    return {
        m: _unidentified("metric", m, i, reuse)
        for m, i in idents.items()
        if i is not None
    }


def code_records(config) -> list[dict]:
    """The identity of the user code ``config`` runs, to record with its results.

    One record per method, criterion variant, discretization strategy,
    classifier and metric the config names that is not built in (a
    plug-in's, or one registered in Python), as :func:`code_identity` keys
    its tasks.

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
            _add_method_records(found, name, _method_identity(name, one, True))
    ident = _classifier_identity(p.classifier.name, True)
    if ident is not None:
        found["classifier", p.classifier.name] = _record(
            "classifier", p.classifier.name, ident
        )
    for metric, one in _metrics_identity(p.metrics, True).items():
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
