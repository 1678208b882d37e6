"""What the registries need to know about user code, without importing it.

- :func:`source_digest`: the SHA-256 of the file defining a function (cache
  keys of plug-in methods, classifiers and metrics);
- :func:`on_unknown_name`: what a registry calls when asked for a name it does
  not know. :mod:`mlfs_core.plugins` installs its loader of the installed and
  ``MLFS_PLUGINS`` plug-ins here when imported (the selectors package imports
  it), so the registries never import the plug-in machinery themselves.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from collections.abc import Callable
from pathlib import Path

UNKNOWN_NAME_LOADERS: list[Callable[[], object]] = []
"""Called in turn by :func:`on_unknown_name`."""


def on_unknown_name() -> None:
    """Give the plug-in loader (if installed) one chance to register a name."""
    for loader in list(UNKNOWN_NAME_LOADERS):
        loader()


def source_digest(obj) -> str | None:
    """SHA-256 of the source file that defines ``obj`` (None when there is none).

    ``obj`` is a function, a class, or a callable object (its class's file);
    decorated functions are unwrapped, and a method adapter's ``function``
    attribute is followed.

    Examples
    --------
    >>> len(source_digest(source_digest))
    64
    >>> source_digest(len) is None
    True
    """
    target = getattr(obj, "function", None) or obj
    for candidate in (target, type(target)):
        try:
            path = inspect.getsourcefile(inspect.unwrap(candidate))
        except (TypeError, ValueError):
            continue
        if path and os.path.isfile(path):
            return hashlib.sha256(Path(path).read_bytes()).hexdigest()
        return None
    return None
