"""The generic engine knows nothing of the papers; the old module paths still work."""

from __future__ import annotations

import ast
import importlib
import sys
import warnings
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "mlfs_core"
MOVED = {
    "mlfs_core.analysis.reproduction": "mlfs_core.reproduction.compare",
    "mlfs_core.analysis.statements": "mlfs_core.reproduction.statements",
    "mlfs_core.analysis.paper000_claims": "mlfs_core.reproduction.paper000.claims",
    "mlfs_core.analysis.paper000_published": (
        "mlfs_core.reproduction.paper000.published"
    ),
    "mlfs_core.analysis.paper001_evaluations": (
        "mlfs_core.reproduction.paper001.evaluations"
    ),
    "mlfs_core.evaluation.reference_code": (
        "mlfs_core.reproduction.paper001.conventions"
    ),
    "mlfs_core.evaluation.reference_conventions": (
        "mlfs_core.reproduction.paper001.conventions"
    ),
    "mlfs_core.evaluation._reference": "mlfs_core.reproduction.paper001.conventions",
}
SHIMS = {ENGINE.parent.joinpath(*name.split(".")).with_suffix(".py") for name in MOVED}


def _imports(path: Path) -> list[str]:
    """Absolute names of the modules ``path`` imports (relative ones resolved)."""
    package = ".".join(path.relative_to(ENGINE.parent).with_suffix("").parts[:-1])
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module
            names.append(module)
            names += [f"{module}.{alias.name}" for alias in node.names]
    return names


def test_the_generic_engine_never_imports_the_reproduction():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        inside = path.is_relative_to(ENGINE / "reproduction")
        shim = path in SHIMS
        if inside or shim:
            continue
        bad = [n for n in _imports(path) if n.startswith("mlfs_core.reproduction")]
        offenders += [f"{path.relative_to(ENGINE)}: {n}" for n in bad]
    assert offenders == []


def test_import_scan_sees_relative_imports():
    here = ENGINE / "reproduction" / "paper000" / "claims.py"
    assert "mlfs_core.reproduction.compare" in _imports(here)


@pytest.mark.parametrize("old, new", sorted(MOVED.items()))
def test_old_module_paths_warn_and_forward(old, new):
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        shim = importlib.import_module(old)
    assert any(
        issubclass(w.category, DeprecationWarning) and new in str(w.message)
        for w in caught
    )
    target = importlib.import_module(new)
    public = [n for n in vars(target) if not n.startswith("__")]
    assert public
    for name in public:
        assert getattr(shim, name) is getattr(target, name), name
