"""The studies package: no import circle, and nothing runs when it is imported."""

from __future__ import annotations

import ast
import importlib
import subprocess
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

STUDIES = Path(__file__).resolve().parents[2] / "studies"


def _graph() -> dict[str, set[str]]:
    """Module -> the studies modules it imports at module level."""
    names = {p.stem for p in STUDIES.glob("*.py")}
    graph = {}
    for path in STUDIES.glob("*.py"):
        found = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level == 1:
                    found.add(module.split(".")[0] if module else "")
                    found |= {a.name for a in node.names if not module}
                elif module == "studies":
                    found |= {a.name for a in node.names}
                elif module.startswith("studies."):
                    found.add(module.split(".")[1])
        graph[path.stem] = found & names
    return graph


def test_studies_modules_import_each_other_without_a_circle():
    graph = _graph()
    assert graph["report"] >= {"paper000", "paper001", "status"}
    order = list(TopologicalSorter(graph).static_order())
    assert order.index("markdown") < order.index("paper000") < order.index("report")


def test_a_circle_would_be_found():
    with pytest.raises(CycleError):
        list(TopologicalSorter({"a": {"b"}, "b": {"a"}}).static_order())


def test_run_study_runs_no_git_at_import(monkeypatch):
    import studies.run_study as run_study

    def no_process(*args, **kwargs):
        raise AssertionError(f"a process was started at import: {args}")

    monkeypatch.setattr(subprocess, "run", no_process)
    importlib.reload(run_study)
    with pytest.raises(AssertionError, match="a process was started"):
        run_study.code_version()  # git runs here, when a run starts
