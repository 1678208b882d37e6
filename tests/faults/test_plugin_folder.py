"""A plug-in file imports the helper module beside it, from any working directory.

``myplugin.py`` does ``from myhelper import score`` with ``myhelper.py`` in its
folder; the commands run from another folder, name the plug-in by its absolute
path, and it works in the main process, in two loky workers, in ``mlfs
verify`` and in the app. Editing the helper recomputes exactly that method.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

PLUGIN = """import numpy as np
from myhelper import score

from mlfs_core.selectors import register


def Helped(X, Y, *, k, random_state):
    s = score(X, Y)
    return np.argsort(-s, kind="stable")[:k], s


register(Helped, version="1")
"""

HELPER = """import numpy as np


def score(X, Y):
    return np.asarray(abs(X).sum(axis=0)).ravel() * SIGN


SIGN = 1.0
"""

CONFIG = """name = "helper"
seed = 0
methods = ["Helped", "MaxCS", "AF"]

[protocol]
name = "A"
n_folds = 2
budgets = [10]
metrics = ["micro_f1"]

[[datasets]]
path = "sample"
"""


@pytest.fixture
def layout(tmp_path) -> dict[str, Path]:
    """The plug-in and its helper in one folder, a config and a cwd elsewhere."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "myplugin.py").write_text(PLUGIN)
    (elsewhere / "myhelper.py").write_text(HELPER)
    work = tmp_path / "work"
    work.mkdir()
    (work / "helper.toml").write_text(CONFIG)
    return {"plugin": elsewhere / "myplugin.py", "work": work}


def _run(helpers, mark, cwd, *args):
    proc = helpers.mlfs(*args, mark=mark, cwd=cwd)
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def test_a_helper_module_works_with_two_jobs_and_in_verify(layout, helpers, mark):
    """Check experiment --jobs 2 and verify --jobs 2 from another cwd."""
    plugin, work = layout["plugin"], layout["work"]
    status, _, err = _run(
        helpers, mark, work, "experiment", "helper.toml", "--out", "out",
        "--plugin", plugin, "--jobs", "2",
    )  # fmt: skip
    assert status == 0, err[-2000:]
    results = pd.read_csv(work / "out" / "results.csv")
    assert set(results["method"]) == {"Helped", "MaxCS", "AF"}
    status, out, err = _run(
        helpers, mark, work, "verify", "out", "--plugin", plugin, "--jobs", "2"
    )
    assert status == 0, err[-2000:]
    assert "largest absolute difference 0; identical" in out


def test_a_helper_module_works_in_the_main_process_and_rank(layout, helpers, mark):
    """Check --jobs 1 (the tasks in the main process) and mlfs rank."""
    plugin, work = layout["plugin"], layout["work"]
    status, out, err = _run(
        helpers, mark, work, "rank", "sample", "--method", "Helped", "--k", "3",
        "--plugin", plugin,
    )  # fmt: skip
    assert status == 0, err[-2000:]
    assert out.splitlines()[0] == "position,feature_index,feature_name,score"
    status, _, err = _run(
        helpers, mark, work, "experiment", "helper.toml", "--out", "one",
        "--plugin", plugin,
    )  # fmt: skip
    assert status == 0, err[-2000:]


def test_editing_the_helper_recomputes_exactly_that_method(layout, helpers, mark):
    """Check the cache: after the helper changes, only Helped's tasks are new."""
    plugin, work = layout["plugin"], layout["work"]
    argv = ["experiment", "helper.toml", "--out", "out", "--plugin", plugin]
    status, _, err = _run(helpers, mark, work, *argv)
    assert status == 0, err[-2000:]
    before = set((work / "out" / "cache").glob("*/*.json"))
    helper = plugin.with_name("myhelper.py")
    helper.write_text(HELPER.replace("SIGN = 1.0", "SIGN = -1.0"))
    status, _, err = _run(helpers, mark, work, *argv, "--overwrite")
    assert status == 0, err[-2000:]
    new = set((work / "out" / "cache").glob("*/*.json")) - before
    assert len(new) == 4  # Helped: 2 folds' selections and their 2 fits


def test_the_app_runs_a_plugin_with_a_helper(layout, monkeypatch, fresh_plugins):
    """Check the app (MLFS_PLUGINS, the server's way in) runs the method."""
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("MLFS_WORK_DIR", str(layout["work"] / "app"))
    monkeypatch.setenv("MLFS_PLUGINS", str(layout["plugin"]))
    monkeypatch.chdir(layout["work"])
    app = str(Path(__file__).resolve().parents[2] / "app.py")
    at = AppTest.from_file(app, default_timeout=120)
    at.run()
    at.switch_page("app_pages/experiment.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.multiselect(key="exp_methods_A").set_value(["Helped", "MaxCS"]).run()
    at.text_input(key="exp_folds_A").set_value("2").run()
    at.text_input(key="exp_budgets_A").set_value("10").run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert set(at.dataframe[0].value["method"]) == {"Helped", "MaxCS"}
