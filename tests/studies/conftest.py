"""Helpers of the study-script tests: import a ``studies/*.py`` script by name."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_script(name: str):
    """Import ``studies/<name>.py`` (the studies folder is scripts, not a package;
    the report's modules import each other by name, as when run as a script).
    """
    folder = str(ROOT / "studies")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    key = f"_mlfs_studies_{name}" if name == "run_study" else name
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            key, ROOT / "studies" / f"{name}.py"
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]
