"""The information-theoretic internals form one subpackage without import circles."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mlfs_core.selectors.it as it_package
from mlfs_core.explain import greedy_steps
from mlfs_core.selectors.it.criteria import CRITERIA

from ...fresh import imported_after

PACKAGE = Path(it_package.__file__).parent


def _sibling_imports(path: Path) -> list[tuple[str, bool]]:
    """(sibling module, imported inside a function) for every relative import."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [a.name for a in node.names]
            found += [(name.split(".")[0], id(node) not in top) for name in names]
    return found


# Imported inside a function on purpose: it imports numba, whose import time
# ``import mlfs_core`` should not pay (only the compiled terms need it).
LAZY = {"kernels"}


def test_sibling_imports_are_at_module_level_and_acyclic():
    """Check sibling imports are at module level (but :data:`LAZY`) and acyclic."""
    graph = {}
    for path in PACKAGE.glob("*.py"):
        imports = _sibling_imports(path)
        nested = [name for name, inside in imports if inside and name not in LAZY]
        assert not nested, path.name
        graph[path.stem] = {name for name, _ in imports}
    done, active = set(), []

    def visit(node):
        assert node not in active, f"import circle: {' -> '.join(active + [node])}"
        if node in done:
            return
        active.append(node)
        for child in graph.get(node, ()):
            visit(child)
        active.pop()
        done.add(node)

    for node in graph:
        visit(node)
    assert {"data", "criteria", "triples"} <= set(graph)
    assert not graph["kernels"]  # the lazy module imports no sibling


def test_numba_is_not_imported_with_the_package():
    """Check ``import mlfs_core`` and the IT modules do not import numba."""
    code = "import mlfs_core, mlfs_core.selectors.it.criteria"
    assert imported_after(code, ["numba"]) == []


@pytest.mark.parametrize("method", ["PMU", "ATR", "LSMFS", "SCLS"])
def test_explain_reads_the_terms_the_criteria_declare(method, small_xy):
    """Check the step view's static term columns are the criterion's declared terms."""
    X, Y = small_xy
    steps = greedy_steps(X, Y, method, k=2)
    declared = [name for name, _ in CRITERIA[method].terms]
    assert steps.terms[: len(declared)] == declared
    assert len(steps.terms) == len(declared) + 1  # the redundancy term last
