"""The forwarding of a module that moved into :mod:`mlfs_core.reproduction`."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable


def forward(old: str, new: str) -> tuple[Callable[[str], object], Callable[[], list]]:
    """Warn that module ``old`` moved to ``new``; give ``old`` its attribute hooks.

    Parameters
    ----------
    old, new : str
        The former and the current dotted module name.

    Returns
    -------
    (callable, callable)
        The module-level ``__getattr__`` and ``__dir__`` of ``old``: every
        name, public or private, is the new module's own object.
    """
    warnings.warn(
        f"{old} is deprecated: import {new} instead",
        DeprecationWarning,
        stacklevel=3,
    )
    module = importlib.import_module(new)

    def __getattr__(name: str):
        return getattr(module, name)

    def __dir__() -> list:
        return dir(module)

    return __getattr__, __dir__
