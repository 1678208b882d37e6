"""Tests of the docs sources and the README (the site build itself runs in CI)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import mlfs_core

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
API = DOCS / "api"
# Written by other code or people, included as they are: the generated
# reproduction report and the information-theoretic benchmarks page.
NOT_OURS = {DOCS / "reproduction.md", DOCS / "benchmarks-it.md"}
SUBPACKAGES = ["data", "measures", "selectors", "evaluation", "analysis", "plots"]
SUBPACKAGES += ["explain", "columns", "views"]
QUICK_START = [
    'pip install -e ".[app]" -e ./mlfs_papers && streamlit run app.py',
    'pip install -e ".[test]" -e ./mlfs_papers && python -m pytest',
]


def _pages() -> list[Path]:
    pages = [p for p in DOCS.rglob("*.md") if "_build" not in p.parts]
    return sorted(set(pages) - NOT_OURS)


def _words(path: Path) -> set[str]:
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", path.read_text(encoding="utf-8")))


def test_api_reference_lists_every_top_level_name():
    """Check that every name of ``mlfs_core.__all__`` is on the top-level API page."""
    missing = sorted(set(mlfs_core.__all__) - _words(API / "top-level.md"))
    assert not missing, f"add to docs/api/top-level.md: {missing}"


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_api_reference_lists_every_subpackage_name(name):
    """Check that every name in a public subpackage's ``__all__`` is on its page."""
    module = importlib.import_module(f"mlfs_core.{name}")
    missing = sorted(set(module.__all__) - _words(API / f"{name}.md"))
    assert not missing, f"add to docs/api/{name}.md: {missing}"


def test_api_index_lists_every_api_page():
    """Check that the API index's toctree names every page of ``docs/api``."""
    index = (API / "index.md").read_text(encoding="utf-8")
    body = index.split("```{toctree}", 1)[1].split("```", 1)[0]
    entries = [line.strip() for line in body.splitlines()]
    entries = [e for e in entries if e and not e.startswith(":")]
    pages = [p.stem for p in API.glob("*.md") if p.stem != "index"]
    assert sorted(entries) == sorted(pages)


def test_readme_is_short_and_starts_with_the_two_commands():
    """Check that the README is at most 150 lines and gives the two set-up commands."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    assert [b.strip() for b in blocks[:2]] == QUICK_START


@pytest.mark.parametrize("path", [README, *_pages()], ids=lambda p: p.name)
def test_no_page_cites_the_shared_folder_or_an_issue(path):
    """Check that a page cites neither ``../shared`` nor an issue number."""
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text
    assert not re.search(r"\bissues? \d+", text, flags=re.I)


def test_readme_links_exist():
    """Check that every relative link and image of the README names a file."""
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)\)", text)
    relative = [t for t in targets if "://" not in t]
    assert relative
    assert [t for t in relative if not (ROOT / t).exists()] == []


def test_cli_page_shows_every_command():
    """Check that every ``mlfs`` sub-command appears in the CLI docs."""
    import argparse

    from mlfs_core.cli import build_parser

    (sub,) = [
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    ]
    text = (DOCS / "user-guide" / "experiments.md").read_text(encoding="utf-8")
    assert [c for c in sub.choices if f"mlfs {c}" not in text] == []


def _navigation_titles(app: Path) -> list[str]:
    """The page titles of ``app.py``'s NAVIGATION table: each page is a
    ``(script, title, icon)`` tuple, read without running the app."""
    import ast

    for node in ast.walk(ast.parse(app.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "NAVIGATION" for t in node.targets
        ):
            table = ast.literal_eval(node.value)
            return [title for pages in table.values() for _, title, _ in pages]
    return []


def test_app_tour_names_every_page():
    """Check that the app page's tour names every page ``app.py`` registers."""
    titles = _navigation_titles(ROOT / "app.py")
    tour = (DOCS / "user-guide" / "app.md").read_text(encoding="utf-8")
    assert len(titles) >= 10 and "About" in titles
    assert [t for t in titles if f"**{t}**" not in tour] == []


def test_methods_page_names_every_paper_method():
    """Check that the methods page names every method of the papers and baselines."""
    text = (DOCS / "user-guide" / "methods.md").read_text(encoding="utf-8")
    families = {"score-aggregation", "information-theoretic", "baseline"}
    specs = [mlfs_core.get_method(m) for m in mlfs_core.list_methods()]
    names = [spec.name for spec in specs if spec.family in families]
    assert len(names) == 20
    assert [m for m in names if f"`{m}`" not in text and f" {m} " not in text] == []
