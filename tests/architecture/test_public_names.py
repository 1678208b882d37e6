"""Every top-level name of mlfs_core is private (``_name``) or declared public.

A name without a leading underscore, defined at a module's top level (a
function, a class, a constant), is public: it must be used outside its module
(by another engine module, the app, the papers' package, the studies, the
benchmarks, the tests or the docs) or be declared, in the ``__all__`` or the
lazy ``_EXPORTS`` table of its module or one of its packages, or by an
``automodule`` with ``:members:`` on an API page (``docs/api``). Anything else
is a helper of its module and starts with ``_``.

"Used outside" is a word of another file: a name used by string (a registry,
an entry point, ``getattr``, a Sphinx cross-reference) counts, and a file that
defines the same name at its own top level does not count for it.

Tests reach into private modules (``mlfs_core.x._y``) or names (``_name``)
only where they unit-test a private helper on purpose (:data:`PRIVATE_IMPORTS`,
each with its reason); where a public path exists they use it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
USERS = ("mlfs_core", "ui", "app_pages", "mlfs_papers", "studies", "bench")
USERS += ("tests", "docs", "uitest", ".github")
USER_FILES = ("app.py", "pyproject.toml", "setup.py", "README.md")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".cfg", ".txt", ".rst", ".yml", ".yaml"}
TEXT_SUFFIXES |= {".html", ".ini"}

PRIVATE_IMPORTS = {
    "mlfs_core._validation": "the engine's shared input checks (check_int, "
    "check_k, is_int, budget_from_percent), unit-tested one by one",
    "mlfs_core._random": "derive_seed, the per-task seed rule, pinned bit for "
    "bit (check_rng itself is public: mlfs_core.check_rng)",
    "mlfs_core._entries": "the cache entries' encoding and checks, which the "
    "fault tests tamper with",
    "mlfs_core.cli.data._rank_params": "how mlfs rank reads a method's options "
    "from its flags, checked against every registered method's options",
    "mlfs_core._code": "the user-code errors and code identity behind "
    "plug-ins, tested directly",
    "mlfs_core.data._encode": "AmbiguousLabelsWarning, raised while choosing "
    "the labels: the tests filter it",
    "mlfs_core.analysis.posthoc._asymptotic_name": "the name Wilcoxon's "
    "method takes in a table, one rule tested alone",
    "mlfs_core.analysis.recovery._indices": "the planted-truth index parser, "
    "tested on malformed input",
    "mlfs_core.evaluation.predefined._dataset_name": "the dataset-name rule "
    "of the published splits, shared with the reproduction oracles",
    "mlfs_core.report._summary": "markdown_text, the escaping of a summary "
    "cell, tested against hostile text",
    "mlfs_core.plugins._registries": "registries(), the registries' "
    "declarations the plug-in tests walk",
    "mlfs_core.selectors._registry": "is_built_in and method_identity, the "
    "registry's identity rules",
    "mlfs_core.selectors._spec": "spec_from_function, how a plain function "
    "becomes a MethodSpec",
    "mlfs_core.selectors.field._scaling": "scale, the field baselines' shared "
    "feature scaling, replayed by the Learn steps' tests",
    "mlfs_core.selectors.greedy._best_next_feature": "the greedy step's tie "
    "rule, tested alone",
    "mlfs_core.plots._style": "the figures' style (INK, GREY, TITLE_PX, "
    "method_styles, legend_rows, finish) that the plot and app tests pin",
    "mlfs_core.plots._look": "the methods' colours and dashes behind plots.method_look",
    "mlfs_core.plots._present": "presentation mode's sizes behind plots.for_projector",
    "mlfs_core.plots.cd._cliques": "the critical-difference diagram's clique "
    "rule, tested alone",
    "mlfs_core.plots.export._quiet_browser_channel": "how the PNG export "
    "silences the headless browser's channel, tested without a browser",
    "mlfs_core.benchmark._baselines_analysis": "compare, the baselines "
    "suite's Friedman and Bonferroni-Dunn step, tested on small tables",
    "mlfs_core.benchmark._baselines_report": "the baselines report's summary, "
    "tested alone",
    "mlfs_core.benchmark._plan": "kept_fits, which fits a quick benchmark keeps",
    "mlfs_core.cli._base": "chosen_plugins, how the command line reads "
    "MLFS_PLUGINS before it passes the choice down",
    "mlfs_core.selectors.field.sparse._common": "spd_solve, the one-thread "
    "Cholesky rule whose bits must not depend on the thread count",
    "mlfs_core.selectors.field.sparse._cg": "the matrix-free CG solve and "
    "its stopping and fallback rules, against a dense solve",
    "mlfs_core.selectors.field.sparse._kernels": "the sparse-regression "
    "kernels, each compared with the dense formula written out",
    "mlfs_core.selectors.field.sparse._mifs": "MIFS's steps (start, updates, "
    "solver rule) replayed one by one",
    "mlfs_core.selectors.field.spectral._common": "the spectral methods' "
    "shared steps (scaling, label matrix), each checked against a plain oracle",
    "mlfs_core.selectors.field.spectral._graphs": "the kNN graphs and their "
    "tie rule, checked against a loop oracle on tied and duplicate rows",
    "mlfs_core.selectors.field.spectral._mcls": "MCLS's steps (label "
    "manifold, active-set cycle rule, memory estimate) replayed one by one",
    "mlfs_core.selectors.field.spectral._mddm": "MDDM-spc's score function, "
    "compared with the formula written out",
    "mlfs_papers._suites": "SHIPPED_STUDIES, the studies the papers' package "
    "must ship (a packaging test)",
}
"""Private module or name -> why a test imports it (a key covers what is
inside it: ``mlfs_core.plots._style`` covers ``mlfs_core.plots._style.INK``)."""

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _is_private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def _top_names(tree: ast.Module) -> dict[str, int]:
    """Public name -> line, for every name a module defines at its top level
    (also under a top-level ``if`` or ``try``; imports are not definitions)."""
    found: dict[str, int] = {}

    def visit(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.setdefault(node.name, node.lineno)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = (
                    node.targets if isinstance(node, ast.Assign) else [node.target]
                )
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            found.setdefault(name.id, node.lineno)
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(node.orelse)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "finalbody", []))

    visit(tree.body)
    return {n: line for n, line in found.items() if not n.startswith("_")}


def _declared(tree: ast.Module) -> set[str]:
    """The names of a module's ``__all__`` (a literal) and ``_EXPORTS`` table."""
    names: set[str] = set()
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if not isinstance(target, ast.Name):
                continue
            if target.id == "__all__" and isinstance(node.value, (ast.List, ast.Tuple)):
                names |= {
                    e.value for e in node.value.elts if isinstance(e, ast.Constant)
                }
            if target.id == "_EXPORTS" and isinstance(node.value, ast.Dict):
                names |= {
                    k.value for k in node.value.keys if isinstance(k, ast.Constant)
                }
    return names


def _documented_modules(root: Path) -> set[str]:
    """Modules an API page documents whole (``automodule`` with ``:members:``)."""
    found = set()
    for page in (root / "docs" / "api").glob("*.md"):
        text = page.read_text(encoding="utf-8")
        pattern = r"\.\. automodule:: (\S+)\n((?:[ \t]+:[^\n]*\n)*)"
        for module, options in re.findall(pattern, text):
            if re.search(r":members:", options):
                found.add(module)
    return found


def _users(root: Path, skip: Path) -> list[Path]:
    paths = [root / f for f in USER_FILES if (root / f).is_file()]
    for folder in USERS:
        for path in (root / folder).rglob("*"):
            if (
                path.suffix in TEXT_SUFFIXES
                and "_build" not in path.parts
                and path.is_file()
                and path != skip
            ):
                paths.append(path)
    return paths


def lonely_public_names(root: Path = ROOT) -> list[str]:
    """``path:line: name`` of every public top-level name of ``root/mlfs_core``
    that is neither used in another file nor declared (module docstring)."""
    engine = root / "mlfs_core"
    texts = {
        p: p.read_text(encoding="utf-8", errors="replace")
        for p in _users(root, Path(__file__))
    }
    trees = {
        p: ast.parse(t)
        for p, t in texts.items()
        if p.is_relative_to(engine) and p.suffix == ".py"
    }
    words = {p: set(_WORD.findall(t)) for p, t in texts.items()}
    defines = {}
    for path, text in texts.items():
        if path.suffix == ".py":
            tree = trees.get(path) or _parse_or_none(text)
            defines[path] = set(_top_names(tree)) if tree else set()
    documented = _documented_modules(root)
    lonely = []
    for path, tree in sorted(trees.items()):
        parts = path.relative_to(root).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        declared = set(_declared(tree))
        for depth in range(1, len(parts)):
            init = root.joinpath(*parts[:depth], "__init__.py")
            if init in trees:
                declared |= _declared(trees[init])
        if module in documented:
            continue
        for name, line in _top_names(tree).items():
            if name in declared:
                continue
            if any(
                name in w and name not in defines.get(p, ())
                for p, w in words.items()
                if p != path
            ):
                continue
            lonely.append(f"{path.relative_to(root).as_posix()}:{line}: {name}")
    return lonely


def _parse_or_none(text: str):
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def _private_targets(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, target) of every import of a private engine or papers module or
    name: the module path when it is private, else ``module.name``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(("mlfs_core", "mlfs_papers")) and any(
                    _is_private(p) for p in alias.name.split(".")
                ):
                    found.append((node.lineno, alias.name))
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            if not module.startswith(("mlfs_core", "mlfs_papers")):
                continue
            if any(_is_private(p) for p in module.split(".")):
                found.append((node.lineno, module))
                continue
            found += [
                (node.lineno, f"{module}.{a.name}")
                for a in node.names
                if _is_private(a.name)
            ]
    return found


def _allowed(target: str) -> bool:
    return any(target == key or target.startswith(key + ".") for key in PRIVATE_IMPORTS)


def _test_imports() -> list[tuple[str, int, str]]:
    """(file, line, target) of every private import in tests/."""
    return [
        (path.relative_to(ROOT).as_posix(), line, target)
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for line, target in _private_targets(
            ast.parse(path.read_text(encoding="utf-8"))
        )
    ]


def test_no_public_name_is_used_only_in_its_own_module():
    """Check that every public top-level name of mlfs_core is used in another
    file or declared; rename it ``_name`` otherwise (or declare it in
    ``__all__`` and on its API page)."""
    assert lonely_public_names() == []


def test_detector_finds_a_lonely_name(tmp_path):
    """Check the analysis on a small tree: a name used only at home is found;
    one used by another module, one in ``__all__``, one in a documented
    module and one whose word belongs to another file's own name are handled."""
    pkg = tmp_path / "mlfs_core"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("__all__ = ['EXPORTED']\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "a.py").write_text(
        "LONELY = 1\nSHARED = 2\nEXPORTED = 3\nTWIN = 4\n_PRIVATE = 5\n"
        "def helper():\n    return LONELY + TWIN\n"
    )
    (pkg / "sub" / "b.py").write_text("from .a import SHARED\nTWIN = SHARED\n")
    (pkg / "doc.py").write_text("ALONE = 1\n")
    (tmp_path / "docs" / "api").mkdir(parents=True)
    (tmp_path / "docs" / "api" / "doc.md").write_text(
        ".. automodule:: mlfs_core.doc\n   :members:\n"
    )
    assert lonely_public_names(tmp_path) == [
        "mlfs_core/sub/a.py:1: LONELY",
        "mlfs_core/sub/a.py:4: TWIN",
        "mlfs_core/sub/a.py:6: helper",
        "mlfs_core/sub/b.py:2: TWIN",
    ]


def test_tests_import_private_code_only_where_allowed():
    """Check that a test imports a private module or name only when
    PRIVATE_IMPORTS gives the reason (use the public path otherwise)."""
    imports = _test_imports()
    assert len(imports) > 10  # the walk sees the tests' imports
    assert [f"{f}:{line}: {t}" for f, line, t in imports if not _allowed(t)] == []


def test_private_imports_allowance_is_used():
    """Check that every PRIVATE_IMPORTS entry still covers a test's import
    (drop it once no test needs it) and gives a reason."""
    targets = {t for _, _, t in _test_imports()}
    unused = [
        key
        for key in PRIVATE_IMPORTS
        if not any(t == key or t.startswith(key + ".") for t in targets)
    ]
    assert unused == []
    assert all(len(reason) > 3 for reason in PRIVATE_IMPORTS.values())
