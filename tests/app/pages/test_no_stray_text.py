"""Issue 43, item 2: no text on a page that the page does not mean to show.

A bare string literal in a page script (a developer's note) is written to the
page by Streamlit's "magic". The app's config turns magic off, and every page
module keeps its notes as comments: each page is rendered here with magic
forced *on*, and no rendered text equals one of the module's bare strings.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tomllib
from streamlit.testing.v1.util import patch_config_options

from ..conftest import APP, PAGE_PATHS, ROOT, new_app

CONFIG = ROOT / ".streamlit" / "config.toml"


def _bare_strings(path: Path) -> set[str]:
    """Every expression statement of ``path`` that is a string constant,
    whitespace-normalised (the module's docstring included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found.add(_normal(node.value.value))
    return found - {""}


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _shown_texts(at) -> list[str]:
    """The text of every markdown, caption, text and code element on the page."""
    elements = [*at.markdown, *at.caption, *at.text, *at.get("code")]
    return [_normal(str(e.value)) for e in elements]


def _page_script_strings(page: str) -> set[str]:
    return _bare_strings(Path(APP).parent / PAGE_PATHS[page])


def test_no_page_shows_a_bare_string_of_its_module():
    """Check that no rendered text of any page equals a bare string literal of its
    module or of app.py, with Streamlit's magic on (so a note left as a string
    would show): one session visits every page in turn."""
    stray = {}
    with patch_config_options({"runner.magicEnabled": True}):
        at = new_app()
        for page, script in PAGE_PATHS.items():
            at.switch_page(script).run(timeout=300)
            # the page ran (its exceptions are other tests' business)
            assert at.title, page
            notes = _page_script_strings(page) | _bare_strings(Path(APP))
            shown = [t for t in _shown_texts(at) if t in notes]
            if shown:
                stray[page] = shown
    assert stray == {}


def test_page_modules_keep_notes_as_comments():
    """Check that no page module has a bare string besides its docstring
    (magic would print it, were it on)."""
    for page, script in PAGE_PATHS.items():
        tree = ast.parse((Path(APP).parent / script).read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree, clean=False)
        notes = _page_script_strings(page) - {_normal(doc or "")}
        # function docstrings are not printed by magic; module-level strings are
        module_level = {
            _normal(n.value.value)
            for n in tree.body[1:]
            if isinstance(n, ast.Expr)
            and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str)
        }
        assert not (notes & module_level), (page, notes & module_level)


def test_the_app_config_turns_magic_off_and_the_wheel_ships_it():
    """Check that .streamlit/config.toml sets magic off, and that the wheel's
    ``mlfs app`` reads the same file: it is shipped beside the installed
    app.py, where Streamlit reads a script-level config."""
    config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    assert config["runner"]["magicEnabled"] is False
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert '".streamlit/config.toml"' in setup
    from streamlit import config as st_config
    from streamlit import file_util

    script_level = file_util.get_main_script_streamlit_file_path(
        str(ROOT / "mlfs_app" / "app.py"), "config.toml"
    )
    assert script_level == str(ROOT / "mlfs_app" / ".streamlit" / "config.toml")
    st_config._main_script_path = str(ROOT / "app.py")
    try:  # the app's own script-level file is among those Streamlit reads
        assert str(CONFIG) in st_config.get_config_files("config.toml")
    finally:
        st_config._main_script_path = None
