"""No import circle anywhere, and the layers import only downwards.

The graph has an edge A -> B when module A imports module B at module level
(imports inside functions and under ``if TYPE_CHECKING`` are left out: they
run later, or never). ``from package import name`` is an edge to the
submodule ``package.name`` when there is one, else to ``package``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TREES = ("mlfs_core", "mlfs_papers", "ui", "studies", "app_pages")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            if "build" not in path.relative_to(ROOT).parts:  # a wheel's build folder
                found[_module_name(path)] = path
    return found


def _top_level(body):
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If | ast.Try):
            yield from _top_level(node.body)
            yield from _top_level(getattr(node, "orelse", []))
            for handler in getattr(node, "handlers", []):
                yield from _top_level(handler.body)


def _anywhere(body):
    # an `if TYPE_CHECKING:` body never runs: skipped with all it holds (ast.walk
    # would have queued its children before the body could be emptied)
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _anywhere(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        for field in ast.iter_fields(node):
            value = field[1]
            children = value if isinstance(value, list) else [value]
            yield from _anywhere([c for c in children if isinstance(c, ast.AST)])


def _edges(modules: dict[str, Path], *, deep: bool = False) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in (_anywhere if deep else _top_level)(tree.body):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(p for p in [*parts, base] if p)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_checker_finds_a_planted_circle():
    """Check the cycle finder reports a two-module circle and nothing else."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert _cycles(graph) == [["a", "b"]]


def test_no_import_circle_in_the_engine_the_app_or_the_studies():
    """Check the module-level import graph of every package has no cycle."""
    assert _cycles(_edges(_modules())) == []


def test_no_circle_is_hidden_by_an_import_inside_a_function():
    """Check the graph stays acyclic with the imports inside functions too."""
    assert _cycles(_edges(_modules(), deep=True)) == []


def test_the_engine_imports_neither_the_app_nor_the_studies():
    """Check mlfs_core never imports mlfs_papers, ui, app_pages or studies."""
    graph = _edges(_modules())
    upward = sorted(
        (a, b)
        for a, targets in graph.items()
        if a.startswith("mlfs_core")
        for b in targets
        if b.split(".")[0] in ("mlfs_papers", "ui", "studies", "app_pages")
    )
    assert upward == []


def test_the_app_finds_the_papers_through_the_registry_only():
    """Check ui, app_pages and mlfs_core import no module of mlfs_papers.

    The papers reach the app and the engine through the entry points they
    register (:mod:`mlfs_core.published`, the benchmark suites, conventions and
    variants), as any user's plug-in does.
    """
    graph = _edges(_modules(), deep=True)
    into = sorted(
        (a, b)
        for a, targets in graph.items()
        if a.split(".")[0] in ("mlfs_core", "ui", "app_pages")
        for b in targets
        if b.split(".")[0] == "mlfs_papers"
    )
    assert into == []


def test_the_papers_use_the_engine_s_public_packages():
    """Check mlfs_papers imports the engine's packages, never a private module.

    A private module (a name part starting with ``_``) may change without
    notice; a plug-in that a stranger could write uses public names only.
    """
    graph = _edges(_modules(), deep=True)
    private = sorted(
        (a, b)
        for a, targets in graph.items()
        if a.startswith("mlfs_papers")
        for b in targets
        if b.startswith("mlfs_core")
        and any(part.startswith("_") for part in b.split("."))
    )
    assert private == []


def test_a_type_checking_import_is_left_out_even_when_deep():
    """Check the deep walk skips what ``if TYPE_CHECKING`` holds and keeps an
    import inside a function (and in the else of such an if)."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import a\nelse:\n    import b\n"
        "def f():\n    import c\n    if TYPE_CHECKING:\n        import d\n"
    )
    found = [
        alias.name for node in _anywhere(ast.parse(source).body) for alias in node.names
    ]
    assert found == ["TYPE_CHECKING", "b", "c"]
