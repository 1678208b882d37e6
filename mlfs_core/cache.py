"""An explicit on-disk cache of JSON-serialisable task results, keyed by a hash.

Keys are SHA-256 digests of a canonical JSON encoding of a description of the
task (dataset content hash, method, parameters, fold, seed...), so any change
to an input gives a new key and stale entries are simply never read. A
description naming a method, classifier or metric that is not built in (a
plug-in's, or one registered in Python) also gets that code's identity: its
``version`` and the SHA-256 of the file defining it (:func:`code_identity`),
so editing a plug-in never returns stale values. Keys of the built-in ones
are unchanged by this. Entries
are written atomically (temporary file + rename), so an interrupted run
leaves only complete entries behind and a rerun resumes from them.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ._code import source_digest  # noqa: F401  (also public here)

# Part of every task key. Bumped whenever a change can alter a cached value, so
# results of two engine versions never mix: 2 = exact ties (CS, BNS, Mean),
# exact ML-kNN neighbours, one classifier representation, solver state recorded.
CACHE_VERSION = 2
"""Bump when the meaning of cached results changes, to ignore old entries."""


def _default(obj):
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"cannot hash a {type(obj).__name__} in a cache key")


def code_identity(description: Mapping[str, Any]) -> dict:
    """Identity of the user code a task description names (empty for built-ins).

    Looks at the description's ``"method"`` (a registered method name),
    ``"classifier"`` (``[name, params]``) and ``"metrics"`` (names); for
    each one that is registered but not built in, records its ``version``
    and the digest of its source file.

    Examples
    --------
    >>> code_identity({"method": "MaxCS", "classifier": ["mlknn", {}]})
    {}
    """
    out: dict[str, Any] = {}
    method = description.get("method")
    if isinstance(method, str):
        from .selectors._registry import METHODS, method_identity

        if method in METHODS:
            ident = method_identity(METHODS[method])
            if ident is not None:
                out["method"] = ident
    classifier = description.get("classifier")
    if isinstance(classifier, (list, tuple)) and classifier:
        from .evaluation.classifiers import classifier_identity

        ident = classifier_identity(str(classifier[0]))
        if ident is not None:
            out["classifier"] = ident
    metrics = description.get("metrics")
    if isinstance(metrics, (list, tuple)):
        from .evaluation.metrics import metric_identity

        idents = {str(m): metric_identity(str(m)) for m in metrics}
        idents = {m: i for m, i in idents.items() if i is not None}
        if idents:
            out["metrics"] = idents
    return out


def hash_key(description: Mapping[str, Any]) -> str:
    """Stable hex digest of a JSON-serialisable description.

    The identity of any user code the description names
    (:func:`code_identity`) is part of the digest.

    Examples
    --------
    >>> hash_key({"a": 1, "b": [2, 3]}) == hash_key({"b": [2, 3], "a": 1})
    True
    """
    payload = {"cache_version": CACHE_VERSION, **description}
    code = code_identity(description)
    if code:  # built-in methods, classifiers and metrics keep their keys
        payload["code"] = code
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=_default)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class DiskCache:
    """A folder of ``<key[:2]>/<key>.json`` files; ``directory=None`` caches nothing.

    Parameters
    ----------
    directory : path or None
        Cache folder (created on first write). ``None`` gives a cache that
        never hits and stores nothing.

    Examples
    --------
    >>> import tempfile
    >>> cache = DiskCache(tempfile.mkdtemp())
    >>> key = hash_key({"task": 1})
    >>> cache.get(key) is None
    True
    >>> cache.set(key, {"value": 0.5})
    >>> cache.get(key)
    {'value': 0.5}
    """

    def __init__(self, directory=None):
        self.directory = None if directory is None else Path(directory)

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Any | None:
        """The stored value, or None when missing or unreadable."""
        if self.directory is None:
            return None
        try:
            with open(self._path(key), encoding="utf-8") as fh:
                return json.load(fh)
        except (OSError, ValueError):
            return None

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` atomically under ``key``."""
        if self.directory is None:
            return
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(value, fh, default=_default)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def __len__(self) -> int:
        if self.directory is None or not self.directory.is_dir():
            return 0
        return sum(1 for _ in self.directory.glob("*/*.json"))
