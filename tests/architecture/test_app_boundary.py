"""The app on the engine's public line: public packages only, the engine's caps.

The app (``app.py``, ``app_pages/``, ``ui/``) reaches the engine through its
public packages (:data:`PUBLIC`): what it shows is stated by
:mod:`mlfs_core.views`, never rebuilt from a module inside a package
(``mlfs_core.evaluation.runner.guard.trust``). Its modules follow the engine's caps
(500 lines a module, 50 a function body).
"""

from __future__ import annotations

from .test_import_graph import ROOT, _edges, _modules
from .test_layers import MAX_FUNCTION_LINES, MAX_MODULE_LINES, function_lengths

PUBLIC = frozenset(
    {
        "mlfs_core",
        "mlfs_core.analysis",
        "mlfs_core.benchmark",
        "mlfs_core.columns",
        "mlfs_core.data",
        "mlfs_core.errors",
        "mlfs_core.evaluation",
        "mlfs_core.explain",
        "mlfs_core.lessons",
        "mlfs_core.measures",
        "mlfs_core.options",
        "mlfs_core.plots",
        "mlfs_core.plugins",
        "mlfs_core.published",
        "mlfs_core.report",
        "mlfs_core.selectors",
        "mlfs_core.views",
    }
)
"""The engine's public packages: the only engine modules the app imports."""


def _app_modules() -> dict:
    modules = {
        name: path
        for name, path in _modules().items()
        if name.split(".")[0] in ("ui", "app_pages") or name.startswith("mlfs_core")
    }
    modules["app"] = ROOT / "app.py"
    return modules


def engine_imports(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """Engine module -> the app modules importing it (even inside a function)."""
    found: dict[str, list[str]] = {}
    for module, targets in graph.items():
        if module == "app" or module.split(".")[0] in ("ui", "app_pages"):
            for target in targets:
                if target == "mlfs_core" or target.startswith("mlfs_core."):
                    found.setdefault(target, []).append(module)
    return {k: sorted(v) for k, v in sorted(found.items())}


def test_the_checker_sees_an_import_inside_a_function():
    """Check a private module imported in a function body is counted."""
    graph = {
        "ui.x": {"mlfs_core.evaluation.runner.guard.trust", "streamlit"},
        "mlfs_core.plots": {"mlfs_core.columns"},
    }
    assert engine_imports(graph) == {
        "mlfs_core.evaluation.runner.guard.trust": ["ui.x"]
    }


def test_the_app_imports_only_the_engines_public_packages():
    """Check the engine modules the app imports are public packages only
    (39 module paths before the views layer, at most len(PUBLIC) = 17 now)."""
    imported = engine_imports(_edges(_app_modules(), deep=True))
    assert {m: users for m, users in imported.items() if m not in PUBLIC} == {}
    assert len(imported) <= len(PUBLIC)


def _app_files():
    return [
        ROOT / "app.py",
        *sorted((ROOT / "app_pages").rglob("*.py")),
        *sorted((ROOT / "ui").rglob("*.py")),
    ]


def test_no_app_module_is_over_the_line_budget():
    """Check every module of the app holds at most MAX_MODULE_LINES lines."""
    long = {
        str(p.relative_to(ROOT)): n
        for p in _app_files()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_no_app_function_is_over_the_line_budget():
    """Check every function body of the app is at most MAX_FUNCTION_LINES lines."""
    long = {
        f"{p.relative_to(ROOT)}:{name}": n
        for p in _app_files()
        for name, n in function_lengths(p.read_text(encoding="utf-8")).items()
        if n > MAX_FUNCTION_LINES
    }
    assert long == {}
