"""A plug-in's method, classifier and metric work in every process the engine
runs in: the API, the selector, GridSearchCV workers, ``mlfs experiment --jobs
2``, ``mlfs verify``, a Dask LocalCluster."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from mlfs_core import rank_features
from mlfs_core.selectors import MultiLabelSelector, get_method

from .conftest import run_mlfs, run_python


def _sum_pearson(X, Y, k):
    """The example plug-in's ranking, recomputed here from its definition."""
    X = np.asarray(X, dtype=float)
    Xc, Yc = X - X.mean(axis=0), Y - Y.mean(axis=0)
    r = np.abs(Xc.T @ Yc)
    norms = np.sqrt((Xc**2).sum(axis=0))[:, None] * np.sqrt((Yc**2).sum(axis=0))
    r = np.divide(r, norms, out=np.zeros_like(r), where=norms > 0)
    return np.argsort(-r.sum(axis=1), kind="stable")[:k]


def test_rank_features_and_the_selector(fresh_plugins, plugin_file, small_data):
    """Check that rank_features and MultiLabelSelector (by name, spec, function)
    give the plug-in's ranking."""
    fresh_plugins.load_plugins([plugin_file], entry_points=False)
    X, Y = small_data.X, np.asarray(small_data.Y)
    expected = _sum_pearson(X.toarray(), Y, 5).tolist()
    assert rank_features(X, Y, "SumPearson", k=5).tolist() == expected
    spec = get_method("SumPearson")
    for method in ("SumPearson", spec, spec.rank.function):
        selector = MultiLabelSelector(method, k=5).fit(X, Y)
        assert selector.order_.tolist() == expected


_GRID = """
import numpy as np
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline
from sklearn.multiclass import OneVsRestClassifier
from sklearn.linear_model import RidgeClassifier
from mlfs_core.data.synthetic import make_planted_corpus
from mlfs_core.plugins import load_plugins
from mlfs_core.selectors import MultiLabelSelector

load_plugins([{plugin!r}], entry_points=False, environment=False)
ds, _ = make_planted_corpus(80, 60, 3, 2, random_state=0)
pipe = Pipeline([("sel", MultiLabelSelector("SumPearson")),
                 ("clf", OneVsRestClassifier(RidgeClassifier()))])
grid = GridSearchCV(pipe, {{"sel__k": [3, 6]}}, cv=2, n_jobs=2).fit(
    ds.X, np.asarray(ds.Y))
print(sorted(grid.cv_results_["param_sel__k"].tolist()))
"""


def test_grid_search_workers_know_the_plugin_method(plugin_file, tmp_path):
    """Check GridSearchCV(n_jobs=2) over a selector naming a plug-in method
    (the workers learn the plug-in from the pickled selector)."""
    done = run_python(
        ["-c", _GRID.format(plugin=str(plugin_file))], cwd=tmp_path, timeout=900
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[3, 6]"


_SCRIPT = """
import json
import numpy as np
from mlfs_core.evaluation.config import ExperimentConfig, protocol_preset
from mlfs_core.evaluation.runner import run_experiment
from mlfs_core.selectors import register

def ColumnSum(X, Y, *, k, random_state):
    scores = np.asarray(X.sum(axis=0)).ravel()
    return np.argsort(-scores, kind="stable")[:k], scores

register(ColumnSum, version="1")
config = ExperimentConfig(datasets=[{path!r}], methods=["ColumnSum", "MaxCS"],
                          protocol=protocol_preset("A", n_folds=2, budgets=(10, 50)))
one = run_experiment(config, n_jobs=1).results
two = run_experiment(config, n_jobs=2).results
print(json.dumps([one.equals(two), sorted(set(two["method"]))]))
"""


def test_a_method_registered_in_a_script_reaches_the_workers(study):
    """Check run_experiment(n_jobs=2) with a method register()-ed in __main__."""
    script = _SCRIPT.format(path=str(study / "small.arff"))
    done = run_python(["-c", script], cwd=study, timeout=900)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [True, ["ColumnSum", "MaxCS"]]


def _results(folder):
    table = pd.read_csv(folder / "results.csv")
    return table.drop(columns=[c for c in table if "seconds" in c])


def test_mlfs_experiment_with_two_jobs_and_verify(study):
    """Check ``mlfs experiment --jobs 2`` with a config naming a plug-in equals
    --jobs 1, computes the plug-in metric with the plug-in classifier, and that
    ``mlfs verify`` recomputes it identically."""
    runs = {}
    for jobs in ("1", "2"):
        out = study / f"out{jobs}"
        done = run_mlfs(
            ["experiment", "study.toml", "--jobs", jobs, "--out", out],
            cwd=study,
            timeout=900,
        )
        assert done.returncode == 0, done.stderr
        runs[jobs] = _results(out)
    pd.testing.assert_frame_equal(runs["1"], runs["2"])
    table = runs["2"]
    assert set(table["method"]) == {"SumPearson", "MaxCS"}
    metrics = table["metric"] if "metric" in table else table.columns
    assert "cardinality_error" in set(metrics)
    # the saved config names the plug-in file: verify imports it only when told
    verify = ["verify", "out2", "--jobs", "2", "--trust-plugins"]
    done = run_mlfs(verify, cwd=study, timeout=900)
    assert done.returncode == 0, done.stderr
    assert "identical" in done.stdout + done.stderr


def test_dask_local_cluster(fresh_plugins, study, dask_cluster):
    """Check a plug-in experiment on a LocalCluster equals the one-process run."""
    from mlfs_core.evaluation.config import load_config
    from mlfs_core.evaluation.runner import run_experiment
    from mlfs_core.evaluation.runner.execute.cluster import dask_backend

    config = load_config(study / "study.toml")
    assert fresh_plugins.plugin_specs() == (str(study / "example_plugin.py"),)
    local = run_experiment(config, n_jobs=1).results
    with dask_backend(dask_cluster) as client:
        remote = run_experiment(config, n_jobs=2).results
        loaded = client.run(
            lambda: sorted(
                n for n in __import__("mlfs_core").list_methods() if n == "SumPearson"
            )
        )
    assert sorted(loaded.values()) == [["SumPearson"], ["SumPearson"]]
    keep = [c for c in local if "seconds" not in c]
    pd.testing.assert_frame_equal(local[keep], remote[keep])


def test_bad_plugin_in_a_config_is_one_error(study):
    """Check that a config naming a missing plug-in fails in one line, exit 2."""
    text = (study / "study.toml").read_text()
    (study / "bad.toml").write_text(text.replace("example_plugin.py", "nope.py"))
    done = run_mlfs(["experiment", "bad.toml", "--out", "x"], cwd=study)
    assert done.returncode == 2
    assert "plugins: plugin file 'nope.py' not found" in done.stderr
    assert not (study / "x").exists()


def test_a_pickled_selector_carries_the_plugins(fresh_plugins, plugin_file, small_data):
    """Check a selector pickled with plug-ins loaded (a name, and a local
    function) unpickles and fits to the same features."""
    import pickle

    fresh_plugins.load_plugins([plugin_file], entry_points=False)
    X, Y = small_data.X, np.asarray(small_data.Y)

    def local(X, Y, *, k, random_state):
        return list(range(k))

    for method in ("SumPearson", local):
        selector = MultiLabelSelector(method, k=4)
        again = pickle.loads(pickle.dumps(selector))
        assert again.get_params()["k"] == 4
        assert again.fit(X, Y).order_.tolist() == selector.fit(X, Y).order_.tolist()


def test_a_registration_workers_cannot_import_breaks_no_other_task(
    fresh_plugins, tmp_path, small_data
):
    """Check that a method registered from a module the workers cannot import
    (not a plug-in, not on sys.path) does not break n_jobs=2 runs of others."""
    import importlib.util
    import sys

    from mlfs_core.evaluation.config import ExperimentConfig, protocol_preset
    from mlfs_core.evaluation.runner import run_experiment

    source = tmp_path / "hidden_module.py"
    source.write_text(
        "from mlfs_core.selectors import register\n"
        "def Hidden(X, Y, *, k, random_state):\n    return list(range(k))\n"
        "register(Hidden)\n"
    )
    spec = importlib.util.spec_from_file_location("_hidden_for_test", source)
    module = importlib.util.module_from_spec(spec)
    sys.modules["_hidden_for_test"] = module
    try:
        spec.loader.exec_module(module)
        config = ExperimentConfig(
            datasets=[small_data],
            methods=["MaxCS"],
            protocol=protocol_preset("A", n_folds=2, budgets=(10, 50)),
        )
        one = run_experiment(config, n_jobs=1).results
        two = run_experiment(config, n_jobs=2).results
    finally:
        del sys.modules["_hidden_for_test"]
    keep = [c for c in one if "seconds" not in c]
    pd.testing.assert_frame_equal(one[keep], two[keep])


def test_dask_workers_name_a_method_that_raises(
    fresh_plugins, tmp_path, small_data, dask_cluster
):
    """Check a plug-in method raising on a Dask worker is reported by name,
    file and line, as in one process (issue 44 item 3)."""
    from mlfs_core.data.synthetic import write_mulan
    from mlfs_core.errors import UserCodeError
    from mlfs_core.evaluation.config import load_config
    from mlfs_core.evaluation.runner import run_experiment
    from mlfs_core.evaluation.runner.execute.cluster import dask_backend

    source = (
        "from mlfs_core.selectors import register\n\n\n"
        "def DaskBroken(X, Y, *, k, random_state):\n"
        "    return list(range(k)) + [1 // 0]\n\n\n"
        "register(DaskBroken)\n"
    )
    (tmp_path / "dask_broken.py").write_text(source)
    write_mulan(small_data, tmp_path, "small")
    (tmp_path / "broken.toml").write_text(
        'plugins = ["dask_broken.py"]\nmethods = ["DaskBroken", "MaxCS"]\n'
        "[protocol]\nn_folds = 2\nbudgets = [10]\n"
        '[[datasets]]\npath = "small.arff"\n'
    )
    config = load_config(tmp_path / "broken.toml")
    with dask_backend(dask_cluster), pytest.raises(UserCodeError) as info:
        run_experiment(config, n_jobs=2)
    # every fold fails: whichever worker reports first is named
    assert re.fullmatch(
        r"method 'DaskBroken' \(dask_broken\.py:5\) raised ZeroDivisionError: "
        r"integer division or modulo by zero \(on dataset 'small', fold [01], "
        r"repeat 0\)",
        str(info.value),
    ), str(info.value)
    assert "Traceback" in info.value.details
