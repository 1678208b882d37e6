"""What ``dir(mlfs_core)`` shows: the public API and submodules, no helpers."""

from __future__ import annotations

import types

import mlfs_core


def test_dir_lists_the_public_names_and_no_import_helpers():
    """Check that dir() has every public name, no TYPE_CHECKING, annotations or
    lazy_exports, and nothing public that is neither exported nor a module."""
    names = dir(mlfs_core)
    assert set(mlfs_core.__all__) <= set(names)
    for helper in ("TYPE_CHECKING", "annotations", "lazy_exports"):
        assert helper not in names
    extra = [
        n
        for n in names
        if not n.startswith("_")
        and n not in mlfs_core.__all__
        and not isinstance(getattr(mlfs_core, n), types.ModuleType)
    ]
    assert extra == []
    assert mlfs_core.average_ranks.__name__ == "average_ranks"  # still resolves
