"""Spectral methods: MDDM-proj, MDDM-spc, MCLS (family ``"spectral"``)."""

from __future__ import annotations

from .._spec import MethodSpec


def spectral_specs() -> list[MethodSpec]:
    """The specs of this module's methods, for the registry."""
    return []
