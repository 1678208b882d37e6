"""An explicit on-disk cache of JSON-serialisable task results, keyed by a hash.

Keys are SHA-256 digests of a canonical JSON encoding of a description of the
task (dataset content hash, method, parameters, fold, seed...), so any change
to an input gives a new key and stale entries are simply never read. The
caller may add the identity of the user code the task runs (``code``: a
plug-in's method, classifier or metric, its version and the SHA-256 of its
source, which the runner computes from the registries,
:func:`mlfs_core.evaluation.runner.identity.code_identity`); keys without it are
unchanged. This module knows no registry: it hashes what it is given. Entries
are written atomically (temporary file + rename), so an interrupted run
leaves only complete entries behind and a rerun resumes from them.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ._version import __version__

# Part of every task key. Bumped whenever a change can alter a cached value, so
# results of two engine versions never mix: 2 = exact ties (CS, BNS, Mean),
# exact ML-kNN neighbours, one classifier representation, solver state recorded.
CACHE_VERSION = 2
"""Bump when the meaning of cached results changes, to ignore old entries."""


def engine_id() -> str:
    """The engine as results record it: ``<version>+cache<CACHE_VERSION>``.

    ``environment.json`` and the studies' ``meta.json`` hold it; committed
    values are reused only under the same one.

    Examples
    --------
    >>> engine_id().endswith(f"+cache{CACHE_VERSION}")
    True
    """
    return f"{__version__}+cache{CACHE_VERSION}"


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


def hash_key(
    description: Mapping[str, Any], code: Mapping[str, Any] | None = None
) -> str:
    """Stable hex digest of a JSON-serialisable description.

    Parameters
    ----------
    description : mapping
        What the task's value depends on (JSON-serialisable; numpy scalars,
        arrays and sets are accepted).
    code : mapping, optional
        The identity of the user code the task runs; part of the digest when
        not empty (built-in methods, classifiers and metrics give none, so
        their keys do not change).

    Returns
    -------
    str
        64 hex digits.

    Examples
    --------
    >>> hash_key({"a": 1, "b": [2, 3]}) == hash_key({"b": [2, 3], "a": 1})
    True
    >>> hash_key({"a": 1}, {}) == hash_key({"a": 1})
    True
    """
    payload = {"cache_version": CACHE_VERSION, **description}
    if code:
        payload["code"] = dict(code)
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
        """Store ``value`` atomically under ``key``.

        Raises
        ------
        DiskFullError
            When the device is full (``ENOSPC``), naming the entry's file;
            the entries already stored are left as they were.
        """
        if self.directory is None:
            return
        path = self._path(key)
        from ._entries import encode

        text = encode(key, json.dumps(value, default=_default))
        tmp = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
        except BaseException as exc:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
                from .errors import DiskFullError

                raise DiskFullError(
                    f"no space left on device writing the task cache entry {path} "
                    f"({len(text)} bytes); the entries already in {self.directory} "
                    "are kept",
                    str(path),
                ) from None
            raise

    def __len__(self) -> int:
        if self.directory is None or not self.directory.is_dir():
            return 0
        return sum(1 for _ in self.directory.glob("*/*.json"))
