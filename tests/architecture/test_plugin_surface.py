"""Plug-ins import only the engine's declared extension surface.

``mlfs_papers/``, ``studies/`` and the example plug-ins of ``tests/plugins``
import engine modules named in :data:`mlfs_core.plugins.PUBLIC_MODULES` only,
at any depth (inside functions too), and import from a package only names of
its ``__all__``. The architecture page lists the same modules.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from mlfs_core.plugins import PUBLIC_MODULES

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## What a plug-in may import"


def _plugin_files() -> list[Path]:
    files = [*(ROOT / "mlfs_papers").rglob("*.py"), *(ROOT / "studies").rglob("*.py")]
    for example in (ROOT / "tests" / "plugins").glob("example_*"):
        files += [example] if example.is_file() else list(example.rglob("*.py"))
    return sorted(p for p in files if "build" not in p.relative_to(ROOT).parts)


def _is_engine_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def engine_imports(source: str) -> list[tuple[int, str, str | None]]:
    """(line, engine module, imported name or None) of every absolute import
    of ``mlfs_core`` in ``source``, at any depth; ``from package import
    submodule`` counts as an import of the submodule."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                if _is_engine_module(sub):
                    found.append((node.lineno, sub, None))
                else:
                    found.append((node.lineno, node.module, alias.name))
    return [f for f in found if f[1].split(".")[0] == "mlfs_core"]


def _all_imports():
    for path in _plugin_files():
        for line, module, name in engine_imports(path.read_text(encoding="utf-8")):
            yield f"{path.relative_to(ROOT)}:{line}", module, name


def test_the_checker_sees_each_form_of_import():
    """Check a submodule imported by ``from package import module``, a dotted
    ``import`` and an import inside a function are all seen."""
    source = (
        "import mlfs_core.evaluation.metrics.registry\n"
        "from mlfs_core.evaluation.metrics import registry, METRICS\n"
        "from . import sibling\n"
        "def f():\n    from mlfs_core.selectors.it.criteria import Criterion\n"
    )
    found = sorted(engine_imports(source))
    assert found == [
        (1, "mlfs_core.evaluation.metrics.registry", None),
        (2, "mlfs_core.evaluation.metrics", "METRICS"),
        (2, "mlfs_core.evaluation.metrics.registry", None),
        (5, "mlfs_core.selectors.it.criteria", "Criterion"),
    ]
    outside = {m for _, m, _ in found if m not in PUBLIC_MODULES}
    assert outside == {
        "mlfs_core.evaluation.metrics.registry",
        "mlfs_core.selectors.it.criteria",
    }


def test_plugins_import_only_the_declared_modules():
    """Check every engine module mlfs_papers, studies and the example plug-ins
    import is in PUBLIC_MODULES (they imported 9 others before it was declared)."""
    seen = list(_all_imports())
    assert len(seen) > 50 and any(where.startswith("studies") for where, *_ in seen)
    outside = sorted(
        f"{where}: {module}"
        for where, module, _ in seen
        if module not in PUBLIC_MODULES
    )
    assert outside == []


def test_plugins_import_only_a_package_s_exported_names():
    """Check a name imported from a declared module with an ``__all__`` is in it."""
    missing = []
    for where, module, name in _all_imports():
        exported = getattr(importlib.import_module(module), "__all__", None)
        if name is not None and exported is not None and name not in exported:
            missing.append(f"{where}: {module}.{name}")
    assert missing == []


def test_every_declared_module_exists_and_is_public():
    """Check each declared module is importable and has no private part."""
    assert len(set(PUBLIC_MODULES)) == len(PUBLIC_MODULES)
    for name in PUBLIC_MODULES:
        assert not any(part.startswith("_") for part in name.split(".")), name
        assert _is_engine_module(name), name


def test_the_architecture_page_lists_the_declared_modules():
    """Check docs/architecture.md's section names exactly PUBLIC_MODULES."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert text.count(SECTION) == 1
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"`(mlfs_core(?:\.[a-z_]+)*)`", section)
    assert sorted(listed) == sorted(PUBLIC_MODULES)


def test_the_app_s_packages_are_within_the_declared_surface():
    """Check the engine modules the app may import are declared public too."""
    from .test_app_boundary import PUBLIC

    assert set(PUBLIC) <= set(PUBLIC_MODULES)
