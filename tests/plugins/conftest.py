"""Fixtures of the plug-in tests: the example plug-in file, the example package
installed (offline) into a temporary folder, and a subprocess runner."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
EXAMPLE_FILE = HERE / "example_plugin.py"
EXAMPLE_PACKAGE = HERE / "example_package"

# Importing these registers their methods: only the tests load them (--doctest-modules
# would import them at collection).
collect_ignore = ["example_plugin.py", "example_package"]


@pytest.fixture(scope="session")
def example_site(tmp_path_factory) -> Path:
    """The example package installed with pip, offline, into a temporary folder.

    Put the folder on ``PYTHONPATH`` and its entry point is visible (the
    ``.dist-info`` is there). Built from a copy, so the checkout stays clean.
    """
    root = tmp_path_factory.mktemp("example_site")
    source = root / "source"
    shutil.copytree(EXAMPLE_PACKAGE, source)
    target = root / "site"
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-index",
        "--no-deps",
        "--no-build-isolation",
        "--disable-pip-version-check",
        "--target",
        str(target),
        str(source),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert list(target.glob("mlfs_example_plugin-*.dist-info"))
    return target


@pytest.fixture
def plugin_file(tmp_path) -> Path:
    """A copy of the example plug-in file (tests may edit it)."""
    path = tmp_path / "example_plugin.py"
    shutil.copy(EXAMPLE_FILE, path)
    return path


def run_python(args, *, cwd, pythonpath=None, env=None, timeout=600):
    """Run ``python args...`` in a clean environment (no MLFS_PLUGINS unless given)."""
    environment = {k: v for k, v in os.environ.items() if k != "MLFS_PLUGINS"}
    if pythonpath is not None:
        environment["PYTHONPATH"] = os.pathsep.join(str(p) for p in pythonpath)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, *map(str, args)],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_mlfs(args, **kwargs):
    """``python -m mlfs_core args...`` (the ``mlfs`` command) in a subprocess."""
    return run_python(["-m", "mlfs_core", *args], **kwargs)


@pytest.fixture
def fresh_plugins(monkeypatch):
    """Whatever a test loads or registers is removed again afterwards."""
    from mlfs_core import plugins

    monkeypatch.delenv("MLFS_PLUGINS", raising=False)
    state = plugins.checkpoint()
    modules = set(sys.modules)
    yield plugins
    plugins.rollback(state)
    for name in set(sys.modules) - modules:
        if name.startswith("_mlfs_plugin_"):
            del sys.modules[name]


@pytest.fixture
def small_data():
    """A small planted corpus (80 documents, 60 words, 3 labels) in memory."""
    from mlfs_core.data.synthetic import make_planted_corpus

    dataset, _ = make_planted_corpus(80, 60, 3, 2, random_state=0)
    return dataset


@pytest.fixture
def study(tmp_path, small_data, plugin_file):
    """A folder with the plug-in file, a small dataset and an experiment config
    naming the plug-in (``plugins = [...]``), its method, classifier and metric."""
    from mlfs_core.data.synthetic import write_mulan

    write_mulan(small_data, tmp_path, "small")
    (tmp_path / "study.toml").write_text(
        'name = "plugged"\n'
        'plugins = ["example_plugin.py"]\n'
        'methods = ["SumPearson", "MaxCS"]\n'
        "[protocol]\n"
        'split = "cv"\n'
        "n_folds = 2\n"
        "budgets = [10, 50]\n"
        'budget_unit = "percent"\n'
        'metrics = ["micro_f1", "cardinality_error"]\n'
        '[protocol.classifier]\nname = "ridge_br"\n'
        "[[datasets]]\n"
        'path = "small.arff"\n'
    )
    return tmp_path
