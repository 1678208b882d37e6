"""Scripts beside the tests import no test module: shared helpers are in ``uitest``.

``bench/`` and ``docs/*.py`` scripts serve and drive the app with
:mod:`uitest.server` and :mod:`uitest.browser` (importable through the
editable install), never by putting ``tests/`` on ``sys.path`` or importing a
module that lives there; ``uitest`` itself stands alone (no pytest, no test
module, no engine or app module).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted([*(ROOT / "bench").glob("*.py"), *(ROOT / "docs").glob("*.py")])
SUPPORT = sorted((ROOT / "uitest").glob("*.py"))
FORMER = {"streamlit_server", "browser"}
"""Modules that lived in tests/ (tests/app/browser.py is now the conftest.py of
tests/app/browser/): still not to be imported."""


def _test_module_names() -> set[str]:
    """``tests`` and the stem of every module under tests/ (what a script could
    import once a tests folder is on its path: ``streamlit_server``, ``conftest``)."""
    stems = {p.stem for p in (ROOT / "tests").rglob("*.py")} - {"__init__"}
    return {"tests", *stems}


def _imported(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every import in ``path``, at any depth;
    a relative import is ``"."``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            top = "." if node.level else (node.module or "").split(".")[0]
            found.append((node.lineno, top))
    return found


def _path_changes(path: Path) -> list[tuple[int, str]]:
    """(line, source) of every ``sys.path.<method>(...)`` call in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, ast.unparse(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and ast.unparse(node.func.value) == "sys.path"
    ]


def _imports_of(paths, banned) -> list[str]:
    """``path:line: module`` of every import in ``paths`` of a ``banned`` top
    module or a relative one."""
    return [
        f"{p.relative_to(ROOT)}:{line}: {top}"
        for p in paths
        for line, top in _imported(p)
        if top in banned or top == "."
    ]


def test_no_bench_or_docs_script_imports_from_tests():
    """Check bench/*.py and docs/*.py import no module of tests/ and put no
    tests folder on sys.path."""
    names = _test_module_names() | FORMER
    assert {"tests", "browser", "conftest", "streamlit_server"} <= names
    assert len(SCRIPTS) > 10
    assert _imports_of(SCRIPTS, names) == []
    paths = [
        f"{p.relative_to(ROOT)}:{line}: {call}"
        for p in SCRIPTS
        for line, call in _path_changes(p)
        if "tests" in call
    ]
    assert paths == []


def test_the_support_package_stands_alone():
    """Check uitest imports no test module, no pytest, no engine or app module
    (so bench scripts and CI's render check import it without them)."""
    assert {p.stem for p in SUPPORT} >= {"__init__", "server", "browser"}
    banned = _test_module_names() | FORMER | {"pytest", "mlfs_core", "ui", "app_pages"}
    assert _imports_of(SUPPORT, banned) == []


def test_the_checks_catch_what_they_must(tmp_path):
    """Check the two scans on a script written the old way."""
    old = tmp_path / "bench_old.py"
    old.write_text(
        "import sys\n"
        'sys.path.insert(0, str(ROOT / "tests" / "app"))\n'
        "from streamlit_server import serving\n"
        "def f():\n    from tests.app import browser\n"
    )
    tops = [top for _, top in _imported(old)]
    assert tops == ["sys", "streamlit_server", "tests"]
    assert {"streamlit_server", "tests"} <= _test_module_names() | FORMER
    assert len(_path_changes(old)) == 1 and "tests" in _path_changes(old)[0][1]


def test_no_copy_of_the_browser_set_up_outside_uitest():
    """Check the Chromium flags and the idle selector are written once, in uitest."""
    marks = ("--disable-dev-shm-usage", 'data-test-script-state="notRunning"')
    files = [*SCRIPTS, *(ROOT / "tests").rglob("*.py")]
    copies = [
        str(p.relative_to(ROOT))
        for p in files
        if p != Path(__file__).resolve()
        and any(mark in p.read_text(encoding="utf-8") for mark in marks)
    ]
    assert copies == []
    support = (ROOT / "uitest" / "browser.py").read_text(encoding="utf-8")
    assert all(mark in support for mark in marks)  # the one place
