"""Lazy package exports (PEP 562), shared by the packages whose imports are heavy."""

from __future__ import annotations

import importlib
from collections.abc import Callable


def lazy_exports(
    package: str, namespace: dict, exports: dict[str, str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """Return ``(__getattr__, __dir__)`` for a package that imports names on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__`` (relative module paths resolve against it).
    namespace : dict
        The package's ``globals()``; a resolved name is cached there so later
        lookups skip ``__getattr__``.
    exports : dict
        Public name -> relative module that defines it, e.g. ``{"rank_features":
        ".selectors.api"}``.

    Examples
    --------
    >>> ns = {}
    >>> getattr_, dir_ = lazy_exports("json", ns, {"dumps": "json"})
    >>> getattr_("dumps")([1])
    '[1]'
    >>> "dumps" in ns
    True
    """

    def __getattr__(name: str):
        try:
            module = exports[name]
        except KeyError:
            raise AttributeError(
                f"module {package!r} has no attribute {name!r}"
            ) from None
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
