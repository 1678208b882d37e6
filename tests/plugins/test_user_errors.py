"""Errors that name the method: an exception in user code (a method, a
classifier, a metric) reads ``method 'MLFisher' (hplug.py:N) raised
ZeroDivisionError: division by zero`` from Python, the CLI, worker processes
and the app; ``--debug`` and ``MLFS_DEBUG=1`` print the whole traceback."""

from __future__ import annotations

import pickle
import textwrap

import numpy as np
import pytest

from mlfs_core.errors import ConfigError, UserCodeError

from .conftest import run_mlfs

PLUGIN = textwrap.dedent("""
    import numpy as np
    from mlfs_core.evaluation.classifiers import BinaryRelevance, register_classifier
    from mlfs_core.evaluation.metrics import register_metric
    from mlfs_core.selectors import register
    from sklearn.linear_model import RidgeClassifier


    def fisher(X):
        return np.asarray(X.sum(axis=0)).ravel() / 0.0 + 1 / 0


    def MLFisher(X, Y, *, k, random_state):
        return np.argsort(-fisher(X))[:k]


    def Picky(X, Y, *, k, random_state):
        raise ValueError("bins must be odd")


    class Broken(BinaryRelevance):
        def fit(self, X, Y):
            raise RuntimeError("no fit today")


    def broken(*, random_state):
        return Broken(RidgeClassifier())


    def ratio(Y_true, Y_pred, scores):
        return float(Y_true.sum()) / 0


    register(MLFisher, version="1")
    register(Picky, version="1")
    register_classifier("broken", broken, version="1")
    register_metric("ratio", ratio, higher_is_better=True, version="1")
""")
LINE = 10  # the line of ``1 / 0`` in fisher


@pytest.fixture
def hplug(tmp_path):
    path = tmp_path / "hplug.py"
    path.write_text(PLUGIN)
    assert path.read_text().splitlines()[LINE - 1].strip().startswith("return")
    return path


@pytest.fixture
def loaded(hplug, fresh_plugins):
    fresh_plugins.load_plugins([hplug], entry_points=False)
    return hplug


def _data():
    rng = np.random.default_rng(0)
    return rng.integers(0, 2, (20, 8)), rng.integers(0, 2, (20, 3))


def test_a_method_that_raises_is_named_with_its_file_and_line(loaded):
    """Check the message names the method, its file and line, and the error."""
    from mlfs_core.selectors import rank_features

    X, Y = _data()
    with pytest.raises(UserCodeError) as info:
        rank_features(X, Y, "MLFisher", k=3)
    assert str(info.value) == (
        f"method 'MLFisher' (hplug.py:{LINE}) raised ZeroDivisionError: "
        "division by zero"
    )
    assert "Traceback" in info.value.details and "fisher" in info.value.details


def test_a_value_error_in_user_code_is_not_a_config_problem(loaded):
    """Check a ValueError raised by a method is reported as the method's."""
    from mlfs_core.selectors import rank_features

    X, Y = _data()
    with pytest.raises(
        UserCodeError,
        match=r"method 'Picky' \(hplug.py:\d+\) raised "
        "ValueError: bins must be odd",
    ) as info:
        rank_features(X, Y, "Picky", k=3)
    assert not isinstance(info.value, ConfigError)


def test_a_metric_that_raises_is_named(loaded):
    """Check a registered metric's exception names the metric."""
    from mlfs_core.evaluation.metrics import compute_metrics

    Y = np.array([[1, 0], [0, 1]])
    with pytest.raises(
        UserCodeError,
        match=r"metric 'ratio' \(hplug.py:\d+\) raised "
        "ZeroDivisionError",
    ):
        compute_metrics(Y, Y, Y.astype(float), metrics=["micro_f1", "ratio"])


def test_the_error_survives_pickling(loaded):
    """Check what a worker sends back (pickled) keeps message and traceback."""
    from mlfs_core.selectors import rank_features

    X, Y = _data()
    with pytest.raises(UserCodeError) as info:
        rank_features(X, Y, "MLFisher", k=3)
    back = pickle.loads(pickle.dumps(info.value))
    assert type(back) is UserCodeError
    assert str(back) == str(info.value) and back.details == info.value.details


def test_the_cli_names_the_method_and_debug_prints_the_traceback(hplug):
    """Check ``mlfs rank``'s one line, and the traceback with --debug and
    with MLFS_DEBUG=1 (not without)."""
    args = ["--plugin", hplug.name, "rank", "sample", "--method", "MLFisher"]
    plain = run_mlfs([*args, "--k", "5"], cwd=hplug.parent)
    assert plain.returncode == 2
    line = (
        f"mlfs rank: error: method 'MLFisher' (hplug.py:{LINE}) raised "
        "ZeroDivisionError: division by zero"
    )
    assert line in plain.stderr and "Traceback" not in plain.stderr
    assert "--debug" in plain.stderr
    debug = run_mlfs([*args, "--k", "5", "--debug"], cwd=hplug.parent)
    assert "Traceback" in debug.stderr and "1 / 0" in debug.stderr
    assert line in debug.stderr
    env = run_mlfs([*args, "--k", "5"], cwd=hplug.parent, env={"MLFS_DEBUG": "1"})
    assert "Traceback" in env.stderr and line in env.stderr


def test_workers_name_the_method_and_the_classifier(hplug):
    """Check ``mlfs experiment --jobs 2`` reports the method's error from a
    worker process, and a plug-in classifier's error by its name."""
    (hplug.parent / "a.toml").write_text(
        'name = "a"\nplugins = ["hplug.py"]\nmethods = ["MLFisher", "MaxCS"]\n'
        "[protocol]\nn_folds = 2\nbudgets = [10]\n"
        '[[datasets]]\npath = "sample"\n'
    )
    done = run_mlfs(
        ["experiment", "a.toml", "--out", "a", "--jobs", "2"], cwd=hplug.parent
    )
    assert done.returncode == 2
    assert (
        f"method 'MLFisher' (hplug.py:{LINE}) raised ZeroDivisionError" in done.stderr
    ), done.stderr
    (hplug.parent / "b.toml").write_text(
        'name = "b"\nplugins = ["hplug.py"]\nmethods = ["MaxCS"]\n'
        "[protocol]\nn_folds = 2\nbudgets = [10]\n"
        '[protocol.classifier]\nname = "broken"\n'
        '[[datasets]]\npath = "sample"\n'
    )
    done = run_mlfs(["experiment", "b.toml", "--out", "b"], cwd=hplug.parent)
    assert done.returncode == 2
    assert (
        "classifier 'broken' (hplug.py:" in done.stderr
        and "raised RuntimeError: no fit today" in done.stderr
    ), done.stderr
