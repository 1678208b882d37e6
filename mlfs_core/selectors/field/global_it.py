"""Global information-theoretic rankings: GRRO, FIMF (family ``"global-information"``)."""

from __future__ import annotations

from .._spec import MethodSpec


def global_it_specs() -> list[MethodSpec]:
    """The specs of this module's methods, for the registry."""
    return []
