"""The engine reads environment variables at its documented edges only.

The command line (``mlfs_core/cli/``) and the app (``ui/``) read a variable
once and pass its value down as a parameter (``--data`` / ``MLFS_DATASETS``,
``MLFS_BENCHMARKS``, kaleido's ``BROWSER_PATH``). Elsewhere in ``mlfs_core`` an
``os.environ`` / ``os.getenv`` read is allowed only in :data:`EDGES`, each
with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "mlfs_core"

EDGES = {
    "mlfs_core/blas.py": "the BLAS pin (MLFS_BLAS_KERNEL), before numpy loads",
    "mlfs_core/plugins/_loader.py": "the plug-in loader (MLFS_PLUGINS), which "
    "hands plug-ins to worker processes the engine does not start",
    "mlfs_core/data/limits.py": "the input budgets (MLFS_MAX_*), read by every "
    "loader; current_limits(environ) takes a mapping instead",
}
"""Documented edges (docs/architecture.md, Rules): file -> why it reads one."""


def environment_reads(source: str) -> list[tuple[int, str]]:
    """(line, expression) of every ``os.environ`` / ``os.getenv`` use in
    ``source`` (an ``environ`` or ``getenv`` imported from ``os`` too)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv"):
            if isinstance(node.value, ast.Name) and node.value.id == "os":
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            for alias in node.names:
                if alias.name in ("environ", "getenv"):
                    found.append((node.lineno, f"from os import {alias.name}"))
    return found


def _engine_reads() -> dict[str, list[tuple[int, str]]]:
    out = {}
    for path in sorted(ENGINE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("mlfs_core/cli/"):
            continue
        reads = environment_reads(path.read_text(encoding="utf-8"))
        if reads:
            out[relative] = reads
    return out


def test_the_checker_sees_each_form_of_read():
    """Check an attribute read, a getenv call and an import from os are seen,
    and a name that merely contains the word is not."""
    source = (
        "import os\nfrom os import getenv\n"
        "a = os.environ.get('X')\nb = os.getenv('Y')\nc = environment_json\n"
    )
    assert sorted(environment_reads(source)) == [
        (2, "from os import getenv"),
        (3, "os.environ"),
        (4, "os.getenv"),
    ]


def test_the_engine_reads_no_variable_outside_its_edges():
    """Check no module of mlfs_core outside cli/ reads an environment variable,
    but for the documented edges and the runner's two temporary ones (before:
    also plots/export.py, benchmark/_suites.py, _baselines.py and _folder.py)."""
    allowed = set(EDGES)
    reads = _engine_reads()
    assert {f: r for f, r in reads.items() if f not in allowed} == {}
    assert "mlfs_core/blas.py" in reads  # the checker sees the pin's reads


def test_every_allowance_is_still_needed():
    """Check each allowed file exists and still reads a variable (an allowance
    left after its read is gone would let a new one in unseen)."""
    reads = _engine_reads()
    stale = [f for f in EDGES if (ROOT / f).is_file() and f not in reads]
    assert stale == []
    assert all((ROOT / f).is_file() for f in EDGES)
