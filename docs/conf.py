"""Sphinx configuration of the MLFS Explorer docs.

Build with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from sphinx.util import logging

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # document the checkout, also without an install

import mlfs_core  # noqa: E402

project = "MLFS Explorer"
author = "MLFS Explorer developers"
copyright = "MLFS Explorer developers"
release = mlfs_core.__version__
version = release

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "screenshots", "figures", "**/README.md"]
templates_path = ["_templates"]

# Markdown: fenced directives ({autosummary}, {toctree}) and $...$ maths.
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3

# API reference: one page per public name, generated from the numpydoc docstrings.
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()


html_theme = "pydata_sphinx_theme"
html_title = "MLFS Explorer"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path: list[str] = []

# Pages other people write: include them in the toctree once they exist (a
# missing page is dropped from the toctree with a note, not a warning, so the
# site builds before they land).
OPTIONAL_PAGES = ("benchmarks-it",)
_log = logging.getLogger(__name__)


def _drop_missing_pages(app, docname, source):
    if docname != "benchmarks":
        return
    for page in OPTIONAL_PAGES:
        if not (Path(app.srcdir) / f"{page}.md").exists():
            _log.info("docs/%s.md does not exist yet: left out of the toctree", page)
            source[0] = source[0].replace(f"\n{page}\n", "\n")
            missing = f"`{page}.md` (not written yet)"
            source[0] = source[0].replace(f"{{doc}}`{page}`", missing)


# A shape such as ``(n_selected_,)`` in a numpydoc type reads as an RST link
# target ``n_selected_``: escape a trailing underscore before ``,`` or ``)``.
_FITTED_NAME = re.compile(r"(?<=\w)_(?=[,)])")


def _escape_fitted_names(app, what, name, obj, options, lines):
    lines[:] = [_FITTED_NAME.sub(r"\\_", line) for line in lines]


def setup(app):
    app.connect("source-read", _drop_missing_pages)
    app.connect("autodoc-process-docstring", _escape_fitted_names, priority=400)
