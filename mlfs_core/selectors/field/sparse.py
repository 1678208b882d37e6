"""Sparse-regression methods: RFS, LLSF, MIFS (family ``"sparse-regression"``)."""

from __future__ import annotations

from .._spec import MethodSpec


def sparse_specs() -> list[MethodSpec]:
    """The specs of this module's methods, for the registry."""
    return []
