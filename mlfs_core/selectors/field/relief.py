"""Instance-based methods: RF-ML (family ``"instance-based"``)."""

from __future__ import annotations

from .._spec import MethodSpec


def relief_specs() -> list[MethodSpec]:
    """The specs of this module's methods, for the registry."""
    return []
