"""A plug-in's cache identity covers every file of its own code that it reaches:
helper modules, a local package's submodules and data files, an installed
distribution; code without a file is never reused from the cache silently."""

from __future__ import annotations

import sys
import textwrap
import uuid

import pytest

from mlfs_core import _code
from mlfs_core.evaluation.runner.identity import REUSE_ENV, code_identity, task_key

from .conftest import run_mlfs


@pytest.fixture
def scratch(tmp_path, monkeypatch, fresh_plugins):
    """A folder on sys.path; modules imported from it are forgotten afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    modules = set(sys.modules)
    _code.forget()
    yield tmp_path
    _forget_modules_under(tmp_path, modules)
    _code.forget()


def _forget_modules_under(folder, before):
    """Remove the modules imported from ``folder`` since ``before``."""
    for name in set(sys.modules) - before:
        path = getattr(sys.modules[name], "__file__", None) or ""
        if path.startswith(str(folder)):
            del sys.modules[name]


def _identity(method):
    _code.forget()  # a new process would compute it again
    return code_identity({"method": method})["method"]["code"]


def test_editing_a_helper_module_changes_the_identity(scratch, fresh_plugins):
    """Check a plug-in file's identity follows the helper module it imports,
    and a method of another file does not move."""
    helper = f"fhelper_{uuid.uuid4().hex[:8]}"
    (scratch / f"{helper}.py").write_text(
        "import numpy as np\n\ndef fisher(X):\n    return np.ones(X.shape[1])\n"
    )
    (scratch / "hplug.py").write_text(
        textwrap.dedent(f"""
        import numpy as np
        from {helper} import fisher
        from mlfs_core.selectors import register

        def MLFisher(X, Y, *, k, random_state):
            return np.argsort(-fisher(X), kind="stable")[:k]

        register(MLFisher, version="1")
        """)
    )
    (scratch / "other.py").write_text(
        "from mlfs_core.selectors import register\n\n"
        "def Other(X, Y, *, k, random_state):\n    return list(range(k))\n\n"
        "register(Other)\n"
    )
    fresh_plugins.load_plugins(
        [scratch / "hplug.py", scratch / "other.py"], entry_points=False
    )
    before, other = _identity("MLFisher"), _identity("Other")
    assert before != fresh_plugins.file_digest(scratch / "hplug.py")
    (scratch / f"{helper}.py").write_text(
        "import numpy as np\n\ndef fisher(X):\n    return np.zeros(X.shape[1])\n"
    )
    assert _identity("MLFisher") != before
    assert (
        _identity("Other") == other == fresh_plugins.file_digest(scratch / "other.py")
    )


def _package(root, name):
    pkg = root / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from mlfs_core.selectors import register\n"
        "from .scoring import Weighted\n\n"
        "register(Weighted, version='1')\n"
    )
    (pkg / "scoring.py").write_text(
        textwrap.dedent("""
        from pathlib import Path

        import numpy as np

        WEIGHTS = Path(__file__).with_name("weights.txt")

        def Weighted(X, Y, *, k, random_state):
            w = float(WEIGHTS.read_text())
            return np.argsort(-w * np.asarray(X.sum(axis=0)).ravel())[:k]
        """)
    )
    (pkg / "weights.txt").write_text("1.0\n")
    return pkg


@pytest.mark.parametrize("edited", ["__init__.py", "scoring.py", "weights.txt"])
def test_editing_a_package_file_changes_the_identity(scratch, fresh_plugins, edited):
    """Check a package plug-in's identity follows its submodules and the data
    files it reads through its own package, not only the defining module."""
    name = f"wpkg_{uuid.uuid4().hex[:8]}"
    pkg = _package(scratch, name)
    fresh_plugins.load_plugins([name], entry_points=False)
    before = _identity("Weighted")
    assert _identity("Weighted") == before  # stable
    path = pkg / edited
    path.write_text(
        path.read_text() + "\n# edited\n" if edited != "weights.txt" else "2.0\n"
    )
    assert _identity("Weighted") != before


def test_installed_distribution_identity(example_site, monkeypatch, fresh_plugins):
    """Check a method of an installed distribution is identified by the
    distribution (its name, version and file hashes): editing one of its
    files gives another identity."""
    monkeypatch.syspath_prepend(str(example_site))
    modules = set(sys.modules)
    try:
        fresh_plugins.load_plugins(["mlfs_example_plugin"], entry_points=False)
        registered = fresh_plugins.loaded_plugins()[-1].methods
        method = registered[0][0]
        before = _identity(method)
        init = example_site / "mlfs_example_plugin" / "__init__.py"
        init.write_text(init.read_text() + "\n# edited\n")
        assert _identity(method) != before
    finally:
        _forget_modules_under(example_site, modules)
        _code.forget()


def test_code_without_a_file_is_not_reused(monkeypatch):
    """Check a method typed where it has no source file gets a warning and a
    key of this process only, unless reuse_unidentified (which the engine
    never takes from MLFS_REUSE_UNIDENTIFIED itself: the CLI and the app do)."""
    from mlfs_core.selectors import register, unregister

    namespace: dict = {}
    exec(
        compile(
            "def Typed(X, Y, *, k, random_state):\n    return list(range(k))\n",
            "<ipython-input-1>",
            "exec",
        ),
        namespace,
    )
    register(namespace["Typed"], version="1")
    try:
        monkeypatch.setenv(REUSE_ENV, "1")  # read by the CLI and the app only
        _code.forget()
        desc = {"kind": "selection", "method": "Typed"}
        with pytest.warns(UserWarning, match="Typed.*cannot be identified"):
            ident = code_identity(desc)["method"]
        assert ident["code"] is None and "unidentified" in ident
        reused = code_identity(desc, reuse_unidentified=True)["method"]
        assert "unidentified" not in reused
        again = task_key(desc, reuse_unidentified=True)
        assert again == task_key(desc, reuse_unidentified=True) != task_key(desc)
        assert task_key(desc) != task_key({**desc, "method_": 1})
    finally:
        unregister("Typed")


def _cached(folder):
    return {p.stem for p in folder.glob("*/*.json")}


def test_a_rerun_after_editing_a_helper_recomputes_only_that_method(study):
    """Check the issue's case from the command line: the plug-in imports its
    scoring from a helper module; after editing the helper alone, a rerun
    computes the plug-in method's tasks again and keeps the others cached."""
    (study / "shelper.py").write_text(
        "import numpy as np\n\ndef score(X):\n"
        "    return np.asarray(X.sum(axis=0)).ravel()\n"
    )
    (study / "hplug.py").write_text(
        textwrap.dedent("""
        import numpy as np
        from shelper import score
        from mlfs_core.selectors import register

        def MLFisher(X, Y, *, k, random_state):
            s = score(X)
            return np.argsort(-s, kind="stable")[:k], s

        register(MLFisher, version="1")
        """)
    )
    (study / "h.toml").write_text(
        (study / "study.toml")
        .read_text()
        .replace('"example_plugin.py"', '"hplug.py"')
        .replace('"SumPearson"', '"MLFisher"')
        .replace('"ridge_br"', '"mlknn"')
        .replace(', "cardinality_error"', "")
    )
    args = ["experiment", "h.toml", "--cache", "cache", "--jobs", "1"]
    first = run_mlfs([*args, "--out", "one"], cwd=study, timeout=900)
    assert first.returncode == 0, first.stderr
    keys = _cached(study / "cache")
    (study / "shelper.py").write_text(
        "import numpy as np\n\ndef score(X):\n"
        "    return -np.asarray(X.sum(axis=0)).ravel()\n"
    )
    again = run_mlfs([*args, "--out", "one", "--overwrite"], cwd=study, timeout=900)
    assert again.returncode == 0, again.stderr
    new = _cached(study / "cache") - keys
    # MLFisher: 2 folds' selections + 2 folds x 2 budgets of fits; MaxCS's 6 stay
    assert len(new) == 6
