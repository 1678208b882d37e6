"""The app keeps its caches in one module: ``st.cache_data`` and
``st.cache_resource`` appear in ``ui/cached.py`` and nowhere else among the
app's scripts (app.py, ui/, app_pages/)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HOME = ROOT / "ui" / "cached.py"
CACHES = {"cache_data", "cache_resource"}


def _scripts() -> list[Path]:
    return sorted(
        [
            ROOT / "app.py",
            *(ROOT / "ui").rglob("*.py"),
            *(ROOT / "app_pages").rglob("*.py"),
        ]
    )


def cache_uses(path: Path) -> list[int]:
    """Lines of ``path`` that use a Streamlit cache: ``st.cache_data``,
    ``streamlit.cache_resource``, or either imported by name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in CACHES:
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "streamlit"
        ):
            lines += [node.lineno for a in node.names if a.name in CACHES]
    return sorted(lines)


def test_streamlit_caches_live_only_in_ui_cached():
    """Check that no script of the app but ui/cached.py uses st.cache_data or
    st.cache_resource, and that ui/cached.py does (the scan sees them)."""
    scripts = _scripts()
    assert HOME in scripts and len(scripts) > 20
    elsewhere = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in scripts
        if path != HOME
        for line in cache_uses(path)
    ]
    assert elsewhere == []
    assert len(cache_uses(HOME)) > 20


def test_the_scan_finds_a_cache_in_any_spelling(tmp_path):
    """Check that the scan catches a decorator, a call, a module alias and an
    import by name, and not the word in a string or comment."""
    page = tmp_path / "page.py"
    page.write_text(
        "import streamlit as st\n"
        "import streamlit\n"
        "from streamlit import cache_resource\n"
        "@st.cache_data(ttl=1)\n"
        "def f(): ...\n"
        "g = streamlit.cache_resource(f)\n"
        'note = "st.cache_data"  # st.cache_data\n'
    )
    assert cache_uses(page) == [3, 4, 6]
