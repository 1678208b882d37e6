"""An explicit on-disk cache of JSON-serialisable task results, keyed by a hash.

Keys are SHA-256 digests of a canonical JSON encoding of a description of the
task (dataset content hash, method, parameters, fold, seed...), so any change
to an input gives a new key and stale entries are simply never read. A
description naming a method, classifier or metric that is not built in (a
plug-in's, or one registered in Python) also gets that code's identity: its
``version`` and the SHA-256 identity of its code (:func:`code_identity`): the
file defining it and every file of the user's own code it reaches (local
modules, a local package's files, data files included), or an installed
distribution's name, version and file hashes (:func:`mlfs_core._code.source_digest`),
so editing a plug-in or a helper it imports never returns stale values. Code
that cannot be identified (a lambda typed in a notebook, a function without
a source file) gets a key that is new in every process, with a warning, so its
cached results are not reused unless asked (:data:`REUSE_ENV` set to ``1``).
Keys of the built-in ones are unchanged by this. Entries
are written atomically (temporary file + rename), so an interrupted run
leaves only complete entries behind and a rerun resumes from them.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import tempfile
import warnings
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


REUSE_ENV = "MLFS_REUSE_UNIDENTIFIED"
"""Set to ``1`` to reuse cached results of code whose identity is unknown."""

_PROCESS_NONCE = secrets.token_hex(8)
_WARNED: set[tuple[str, str]] = set()


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

    Looks at the description's ``"method"`` (a registered method name),
    ``"classifier"`` (``[name, params]``) and ``"metrics"`` (names); for
    each one that is registered but not built in, records its ``version``
    and the identity of its code (:func:`mlfs_core._code.source_digest`);
    code without one gets a mark unique to this process (and a warning).

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
                out["method"] = _unidentified("method", method, ident)
    classifier = description.get("classifier")
    if isinstance(classifier, (list, tuple)) and classifier:
        from .evaluation.classifiers import classifier_identity

        ident = classifier_identity(str(classifier[0]))
        if ident is not None:
            out["classifier"] = _unidentified("classifier", str(classifier[0]), ident)
    metrics = description.get("metrics")
    if isinstance(metrics, (list, tuple)):
        from .evaluation.metrics import metric_identity

        idents = {str(m): metric_identity(str(m)) for m in metrics}
        idents = {
            m: _unidentified("metric", m, i) for m, i in idents.items() if i is not None
        }
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

    def get(self, key: str, check=None) -> Any | None:
        """The stored value, or None when missing, unreadable or refused.

        The entry must carry ``key`` and a checksum matching its value
        (:mod:`mlfs_core._entries`), and pass ``check(value)`` (a callable
        returning None, or the reason to refuse) when given. A refused entry
        is removed with one :class:`~mlfs_core._entries.CacheEntryWarning`
        naming its file, so the caller recomputes it.
        """
        if self.directory is None:
            return None
        from ._entries import CacheEntryWarning, decode

        path = self._path(key)
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            ok, value = False, f"cannot be read ({exc})"
        else:
            ok, value = decode(text, key)
        if ok and check is not None:
            reason = check(value)
            ok, value = (True, value) if reason is None else (False, reason)
        if ok:
            return value
        import warnings

        warnings.warn(
            CacheEntryWarning(
                f"cache entry {path} {value}: discarded, the task is recomputed"
            ),
            stacklevel=2,
        )
        path.unlink(missing_ok=True)
        return None

    def set(self, key: str, value: Any) -> None:
        """Store ``value`` atomically under ``key``."""
        if self.directory is None:
            return
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        from ._entries import encode

        text = encode(key, json.dumps(value, default=_default))
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def __len__(self) -> int:
        if self.directory is None or not self.directory.is_dir():
            return 0
        return sum(1 for _ in self.directory.glob("*/*.json"))
