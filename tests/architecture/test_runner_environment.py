"""The runner reads no environment variable: its callers pass the values down.

``MLFS_REUSE_UNIDENTIFIED`` and ``MLFS_PLUGINS`` are read by the ``mlfs``
command (``mlfs_core/cli/_base.py``) and the app, which pass
``reuse_unidentified=`` and ``chosen=`` to the runner.
"""

from __future__ import annotations

import ast

from .test_import_graph import ROOT

RUNNER = ROOT / "mlfs_core" / "evaluation" / "runner"


def environment_reads(source: str) -> list[str]:
    """``os.environ`` / ``os.getenv`` / ``environ`` / ``getenv`` uses in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv"):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            names = {a.name for a in node.names}
            found += [f"from os import {n}" for n in names & {"environ", "getenv"}]
    return found


def test_the_checker_sees_an_environment_read():
    """Check a read inside a function and an imported environ are both found."""
    source = (
        "import os\nfrom os import environ\n"
        "def f():\n    return os.environ.get('X'), os.getenv('Y')\n"
    )
    assert sorted(environment_reads(source)) == [
        "from os import environ",
        "os.environ (line 4)",
        "os.getenv (line 4)",
    ]


def test_no_runner_module_reads_the_environment():
    """Check no module of mlfs_core.evaluation.runner reads os.environ."""
    reads = {
        str(path.relative_to(ROOT)): found
        for path in sorted(RUNNER.rglob("*.py"))
        if (found := environment_reads(path.read_text(encoding="utf-8")))
    }
    assert reads == {}
