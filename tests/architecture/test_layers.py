"""The engine's shape: layers that import only downwards, small modules and
functions, and nothing of the two papers.

The layers of :mod:`mlfs_core`, lowest first (``docs/architecture.md`` draws
them). A module may import its own layer and those below; an import of a
higher layer is reported, whether at module level or inside a function (an
import inside a function still ties the lower layer to the higher one).
"""

from __future__ import annotations

import ast
import re

import pytest

from .test_import_graph import ROOT, _edges, _modules

LAYERS = (
    (
        "foundation",
        (
            "mlfs_core.errors",
            "mlfs_core.columns",
            "mlfs_core.options",
            "mlfs_core._validation",
            "mlfs_core._random",
            "mlfs_core._lazy",
            "mlfs_core._entries",
            "mlfs_core._code",
            "mlfs_core._version",
            "mlfs_core.blas",
            "mlfs_core.cache",
            "mlfs_core.plugins",
        ),
    ),
    ("data", ("mlfs_core.data",)),
    ("measures", ("mlfs_core.measures", "mlfs_core.aggregation")),
    ("selectors", ("mlfs_core.selectors",)),
    ("evaluation", ("mlfs_core.evaluation",)),
    ("analysis", ("mlfs_core.analysis", "mlfs_core.published")),
    (
        "views",
        (
            "mlfs_core.explain",
            "mlfs_core.plots",
            "mlfs_core.report",
            "mlfs_core.lessons",
            "mlfs_core.views",
        ),
    ),
    (
        "commands",
        (
            "mlfs_core.benchmark",
            "mlfs_core.plugin_check",
            "mlfs_core.cli",
            "mlfs_core.__main__",
            "mlfs_core",
        ),
    ),
)
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 50
PAPER_WORDS = re.compile(
    r"paper[\s_.-]*00[01]|reproduction|reference[- ]code|reference papers?"
    r"|ATR (?:authors|paper)",
    re.IGNORECASE,
)
ENGINE = ROOT / "mlfs_core"


def layer_of(module: str) -> int | None:
    """The index of ``module``'s layer (longest matching prefix), None outside."""
    best = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    return None if best is None else best[0]


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every edge of ``graph`` from a lower layer to a higher one."""
    found = []
    for a, targets in graph.items():
        la = layer_of(a)
        for b in targets:
            lb = layer_of(b)
            if la is not None and lb is not None and lb > la:
                found.append((a, b))
    return sorted(found)


def test_the_layer_checker_flags_a_planted_upward_import():
    """Check an import of a higher layer is reported and a lower one is not."""
    graph = {
        "mlfs_core.data.loader": {"mlfs_core.analysis.ranks", "mlfs_core.errors"},
        "mlfs_core.plots.cd": {"mlfs_core.analysis.stats"},
    }
    assert upward_imports(graph) == [
        ("mlfs_core.data.loader", "mlfs_core.analysis.ranks")
    ]


def test_every_engine_module_has_a_layer():
    """Check no module of mlfs_core falls outside the layer table."""
    assert [
        m for m in _modules() if m.startswith("mlfs_core.") and layer_of(m) is None
    ] == []


def test_the_engine_imports_only_downwards():
    """Check no engine module imports a higher layer, even inside a function."""
    assert upward_imports(_edges(_modules(), deep=True)) == []


def _engine_files():
    return sorted(ENGINE.rglob("*.py"))


def test_no_engine_module_is_over_the_line_budget():
    """Check every module of mlfs_core holds at most MAX_MODULE_LINES lines."""
    long = {
        str(p.relative_to(ROOT)): n
        for p in _engine_files()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def function_lengths(source: str) -> dict[str, int]:
    """Lines of each function's body, its docstring left out, by qualified name."""
    out = {}

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                body = child.body
                if ast.get_docstring(child) is not None:
                    body = body[1:]
                if body:
                    out[prefix + child.name] = body[-1].end_lineno - body[0].lineno + 1
                visit(child, f"{prefix}{child.name}.")

    visit(ast.parse(source), "")
    return out


def test_function_lengths_leave_the_docstring_out():
    """Check the measure counts the code lines of a body, not its docstring."""
    source = 'def f():\n    """Doc.\n\n    More.\n    """\n    a = 1\n    return a\n'
    assert function_lengths(source) == {"f": 2}


def test_no_engine_function_is_over_the_line_budget():
    """Check every function body of mlfs_core is at most MAX_FUNCTION_LINES lines."""
    long = {
        f"{p.relative_to(ROOT)}:{name}": n
        for p in _engine_files()
        for name, n in function_lengths(p.read_text(encoding="utf-8")).items()
        if n > MAX_FUNCTION_LINES
    }
    assert long == {}


def test_no_study_function_is_over_the_line_budget():
    """Check every function body of studies/ is at most MAX_FUNCTION_LINES lines,
    by the engine's measure (docstring left out)."""
    files = sorted((ROOT / "studies").rglob("*.py"))
    assert len(files) > 10
    long = {
        f"{p.relative_to(ROOT)}:{name}": n
        for p in files
        for name, n in function_lengths(p.read_text(encoding="utf-8")).items()
        if n > MAX_FUNCTION_LINES
    }
    assert long == {}


@pytest.mark.parametrize("suffix", ["py", "md", "toml", "txt"])
def test_the_engine_names_neither_paper(suffix):
    """Check no file of mlfs_core names the two papers or their reproduction.

    The papers live in :mod:`mlfs_papers`, on the engine's public extension
    points; a method cites its source publication (authors, year), which is
    not a paper name of this project.
    """
    hits = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
        for p in sorted(ENGINE.rglob(f"*.{suffix}"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if PAPER_WORDS.search(line)
    ]
    assert hits == []


def test_the_paper_word_pattern_matches_what_it_must():
    """Check the pattern catches each form a paper name took in the engine."""
    forms = ["paper000", "paper 001", "mlfs_core.reproduction", "reference-code"]
    forms += ["A paper-000 method", "Paper-001", "paper_001", "paper.000", "paper -000"]
    forms += ["the two reference papers' families", "the ATR paper's", "ATR authors"]
    for text in forms:
        assert PAPER_WORDS.search(text), text
    for text in ("Spolaôr and Tsoumakas (2013), Eq. 1", "yref='paper'", "paper 2001"):
        assert not PAPER_WORDS.search(text), text
