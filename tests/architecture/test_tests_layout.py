"""The tests mirror the code: each test file sits in the folder of what it tests.

``tests/app``: ``pages/`` (the router ``app.py`` and the page scripts of
``app_pages/``), ``ui/`` (``ui/*.py``), ``sections/`` (``ui/sections/``) and
``browser/`` (the Playwright tests, marked ``browser``, and their fixtures);
only the shared ``conftest.py`` beside them. ``tests/core``: one folder per
package or top-level module of :mod:`mlfs_core` (``tests/core/cache`` for
``mlfs_core/cache.py``, ``tests/core/validation`` for ``_validation.py``), plus
``platform/`` (the BLAS kernel of ``mlfs_core/blas.py`` on this machine); at the
top only the tests of the package as a whole. That ``bench/`` imports nothing
from ``tests/`` is checked in ``test_support.py``.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP_FOLDERS = {
    "pages": ("app.py", "app_pages"),
    "ui": ("ui",),
    "sections": ("ui/sections",),
    "browser": ("app.py",),
}
"""Folder of tests/app -> the code its tests exercise."""
CORE_WHOLE = {"conftest.py", "test_public_api.py", "test_packaging.py", "test_dir.py"}
"""Files allowed at the top of tests/core: the package as a whole."""
CORE_OTHER = {"platform": "mlfs_core/blas.py"}
"""Folders of tests/core not named after a module -> the module they test."""
BROWSER_MARK = "pytest.mark.browser"


def _folders(path: Path) -> list[str]:
    """Names of the sub-folders of ``path`` (caches left out)."""
    return sorted(p.name for p in path.iterdir() if p.is_dir() and p.name[0] != "_")


def misplaced_app_tests(tests: Path, root: Path = ROOT) -> list[str]:
    """Python files under ``tests`` (a tests/app folder) outside the layout.

    A file at the top other than ``conftest.py``, a folder not in
    :data:`APP_FOLDERS` (or one whose code is missing under ``root``), a folder
    nested in those, a test module of ``browser/`` without the ``browser``
    mark, or one elsewhere with it.
    """
    wrong = [p.name for p in tests.glob("*.py") if p.name != "conftest.py"]
    for folder in _folders(tests):
        code = APP_FOLDERS.get(folder, ())
        if not code or not all((root / c).exists() for c in code):
            wrong.append(f"{folder}/")
            continue
        wrong += [f"{folder}/{sub}/" for sub in _folders(tests / folder)]
        for test in sorted((tests / folder).glob("test_*.py")):
            marked = BROWSER_MARK in test.read_text(encoding="utf-8")
            if marked != (folder == "browser"):
                wrong.append(f"{folder}/{test.name}")
    return wrong


def misplaced_core_tests(tests: Path, engine: Path = ROOT / "mlfs_core") -> list[str]:
    """Python files and folders of ``tests`` (a tests/core folder) outside the layout.

    A file at the top not in :data:`CORE_WHOLE`, or a folder named after no
    package or module of ``engine`` (``name/``, ``name.py`` or ``_name.py``)
    and not in :data:`CORE_OTHER`.
    """
    wrong = [p.name for p in tests.glob("*.py") if p.name not in CORE_WHOLE]
    for folder in _folders(tests):
        homes = [engine / folder, engine / f"{folder}.py", engine / f"_{folder}.py"]
        if folder in CORE_OTHER:
            homes = [engine.parent / CORE_OTHER[folder]]
        if not any(h.exists() for h in homes):
            wrong.append(f"{folder}/")
    return wrong


def test_app_tests_sit_in_the_folder_of_the_code_they_test():
    """Check tests/app holds conftest.py and the four folders, each test in place."""
    tests = ROOT / "tests" / "app"
    assert set(_folders(tests)) == set(APP_FOLDERS)
    assert misplaced_app_tests(tests) == []
    assert len(list(tests.rglob("test_*.py"))) > 40


def test_core_tests_sit_in_the_folder_of_their_package():
    """Check every folder of tests/core is an engine package or module, and only
    the package-wide tests sit at its top."""
    tests = ROOT / "tests" / "core"
    assert misplaced_core_tests(tests) == []
    assert {"cli", "cache", "aggregation", "measures", "platform"} <= set(
        _folders(tests)
    )


def test_the_layout_checks_catch_what_they_must(tmp_path):
    """Check both scans on planted layouts: a flat episode file, an unknown
    folder, a nested folder, a browser test outside browser/, an unmarked one
    in it, a core test at the top and a folder named after no module."""
    app = tmp_path / "app"
    for name in ("conftest.py", "test_small_fixes.py", "misc/test_x.py",
                 "ui/deep/test_y.py", "ui/test_z.py", "browser/test_b.py",
                 "pages/test_p.py"):  # fmt: skip
        (app / name).parent.mkdir(parents=True, exist_ok=True)
        (app / name).write_text("")
    (app / "ui" / "test_z.py").write_text(f"pytestmark = {BROWSER_MARK}\n")
    assert sorted(misplaced_app_tests(app)) == [
        "browser/test_b.py",
        "misc/",
        "test_small_fixes.py",
        "ui/deep/",
        "ui/test_z.py",
    ]
    core, engine = tmp_path / "core", tmp_path / "engine"
    for name in ("core/test_small_fixes.py", "core/test_dir.py", "core/cache/t.py",
                 "core/validation/t.py", "core/misc/t.py", "core/data/t.py",
                 "engine/cache.py", "engine/_validation.py",
                 "engine/data/x.py"):  # fmt: skip
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert sorted(misplaced_core_tests(core, engine)) == [
        "misc/",
        "test_small_fixes.py",
    ]
