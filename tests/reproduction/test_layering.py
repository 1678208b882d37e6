"""The generic engine knows nothing of the papers."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "mlfs_core"


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


def test_the_engine_never_imports_the_papers():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        bad = [n for n in _imports(path) if n.startswith("mlfs_papers")]
        offenders += [f"{path.relative_to(ENGINE)}: {n}" for n in bad]
    assert offenders == []


def test_import_scan_sees_relative_imports():
    here = ENGINE.parent / "mlfs_papers" / "paper000" / "claims.py"
    assert "mlfs_papers.compare" in _imports(here)
