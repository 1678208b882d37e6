"""``mlfs verify`` tells changed plug-in code from an edited table, or both.

A run records its plug-ins' code identity (``environment.json``'s
``plugins``); verify compares it with the code it finds and names the cells
no code change explains, with their line in ``results.csv``.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

PLUGIN = """import numpy as np
from myhelper import score

from mlfs_core.selectors import register


def Helped(X, Y, *, k, random_state):
    s = score(X)
    return np.argsort(-s, kind="stable")[:k], s


register(Helped, version="1")
"""

HELPER = """import numpy as np


def score(X):
    return np.asarray(abs(X).sum(axis=0)).ravel() * SIGN


SIGN = 1.0
"""

CONFIG = """name = "kinds"
seed = 0
methods = ["Helped", "MaxCS"]
plugins = ["plug/myplugin.py"]

[protocol]
name = "A"
n_folds = 2
budgets = [10]
metrics = ["micro_f1"]

[[datasets]]
path = "sample"
"""


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A run of a config naming a plug-in with a helper module (run once)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    folder = tmp_path_factory.mktemp("kinds")
    (folder / "plug").mkdir()
    (folder / "plug" / "myplugin.py").write_text(PLUGIN)
    (folder / "plug" / "myhelper.py").write_text(HELPER)
    (folder / "kinds.toml").write_text(CONFIG)
    done = subprocess.run(
        [sys.executable, "-m", "mlfs_core", "experiment", "kinds.toml", "--out", "out"],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return folder


@pytest.fixture
def run(made, tmp_path):
    """A fresh copy of the run (its folder, the plug-in beside it)."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(made, copy)
    # config.toml and environment.json name the plug-in's file by its
    # absolute path: point them at the copy
    for name in ("config.toml", "environment.json"):
        path = copy / "out" / name
        path.write_text(path.read_text().replace(str(made), str(copy)))
    return copy


def _verify(helpers, mark, folder, *extra):
    proc = helpers.mlfs(
        "verify", "out", "--trust-plugins", *extra, mark=mark, cwd=folder
    )
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def _edit_cell(folder, method: str) -> tuple[int, float]:
    """Change the first value of ``method`` in results.csv; its line and value."""
    path = folder / "out" / "results.csv"
    table = pd.read_csv(path)
    row = int(table.index[table["method"] == method][0])
    table.loc[row, "value"] = 0.123
    table.to_csv(path, index=False)
    return row + 2, 0.123


def _recorded(folder) -> dict:
    env = json.loads((folder / "out" / "environment.json").read_text())
    (record,) = env["plugins"]
    return record


def test_the_run_records_its_plugins_code_identity(run):
    """Check the record: kind, name, file, version, digest (64 hex)."""
    record = _recorded(run)
    assert record["kind"] == "method" and record["name"] == "Helped"
    assert record["file"] == str(run / "plug" / "myplugin.py")
    assert record["version"] == "1" and len(record["digest"]) == 64


def test_identical_values_name_no_kind(run, helpers, mark):
    """Check a run verified as it was: identical, nothing else said."""
    status, out, err = _verify(helpers, mark, run)
    assert status == 0, err[-2000:]
    assert out.strip().endswith("largest absolute difference 0; identical")
    assert "changed" not in out and "edited" not in out


def test_a_changed_helper_is_the_code_not_the_table(run, helpers, mark):
    """Check the helper edited: the plug-in, its file and both digests named."""
    old = _recorded(run)["digest"]
    helper = run / "plug" / "myhelper.py"
    helper.write_text(HELPER.replace("SIGN = 1.0", "SIGN = -1.0"))
    status, out, err = _verify(helpers, mark, run)
    assert status == 1, err[-2000:]
    (line,) = [x for x in out.splitlines() if x.startswith("the code of plug-in")]
    assert line.startswith(
        f"the code of plug-in method 'Helped' changed (file "
        f"{run / 'plug' / 'myplugin.py'}, old digest {old[:16]}, new digest "
    )
    assert not line.endswith(f"new digest {old[:16]})")
    assert "the table was edited" not in out
    assert out.strip().endswith("DIFFERENT (the plug-in code changed)")


def test_an_edited_cell_is_the_table_not_the_code(run, helpers, mark):
    """Check an edited value: the file, its line, the cell's keys and values."""
    line, value = _edit_cell(run, "MaxCS")
    status, out, err = _verify(helpers, mark, run)
    assert status == 1, err[-2000:]
    assert "the code of plug-in" not in out
    (said,) = [x for x in out.splitlines() if x.startswith("the table was edited")]
    assert "(out/results.csv, 1 cell differs" in said
    assert f"line {line} (dataset sample, method MaxCS, " in said
    assert f"stored {value}, recomputed " in said
    assert out.strip().endswith("DIFFERENT (the table was edited)")


def test_both_kinds_at_once(run, helpers, mark):
    """Check a changed helper and an edited MaxCS cell: both named."""
    (run / "plug" / "myhelper.py").write_text(HELPER.replace("1.0", "-1.0"))
    line, _ = _edit_cell(run, "MaxCS")
    status, out, _ = _verify(helpers, mark, run)
    assert status == 1
    assert "the code of plug-in method 'Helped' changed" in out
    assert f"line {line} (dataset sample, method MaxCS," in out
    assert "Helped" not in out.split("the table was edited")[1]  # explained
    verdict = "DIFFERENT (the plug-in code changed and the table was edited)"
    assert out.strip().endswith(verdict)


def test_the_refusal_prints_its_prefix_once(run, helpers, mark):
    """Check verify without --trust-plugins: one 'mlfs verify:' on the line."""
    proc = helpers.mlfs("verify", "out", mark=mark, cwd=run)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2
    (line,) = err.strip().splitlines()
    assert line.count("mlfs verify") == 2  # the prefix, and "mlfs verify would"
    assert line.startswith("mlfs verify: error: out/config.toml names plug-in code")
    assert "names plug-in code that mlfs verify would import and run" in line
