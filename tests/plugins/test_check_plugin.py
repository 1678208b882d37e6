"""``mlfs check-plugin FILE|MODULE``: each registered method, classifier and
metric run on a tiny generated dataset, with signature, output shape,
finiteness, determinism and speed reported."""

from __future__ import annotations

import textwrap

from .conftest import EXAMPLE_FILE, run_mlfs

FLAWED = textwrap.dedent("""
    import numpy as np
    from mlfs_core.evaluation.metrics import register_metric
    from mlfs_core.selectors import register

    _calls = []


    def Drifting(X, Y, *, k, random_state):
        _calls.append(1)  # a hidden global state: not deterministic
        scores = np.arange(X.shape[1], dtype=float) * len(_calls)
        scores[0] = len(_calls) * 100.0
        return np.argsort(-scores)[:k], scores


    def Crashing(X, Y, *, k, random_state):
        return np.arange(k) // 0 + 1 // 0


    def nan_metric(Y_true, Y_pred, scores):
        return float("nan")


    register(Drifting)
    register(Crashing)
    register_metric("nan_metric", nan_metric, higher_is_better=True)
""")


def test_a_good_plugin_passes_every_check(tmp_path):
    """Check the example plug-in's three items are reported and all pass."""
    done = run_mlfs(["check-plugin", str(EXAMPLE_FILE)], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for head in (
        "method 'SumPearson': ok",
        "classifier 'ridge_br': ok",
        "metric 'cardinality_error': ok",
    ):
        assert head in out
    assert "signature: SumPearson(X, Y, *, k, random_state)" in out
    assert "output: order (5,) scores (40,)" in out
    assert "output: predict (30, 3) decision_function (30, 3)" in out
    assert out.count("deterministic: yes") == 3 and out.count("time: ") == 3
    assert "3 of 3 passed" in done.stderr


def test_a_flawed_plugin_is_reported_item_by_item(tmp_path):
    """Check a non-deterministic method, a crashing one (named with file and
    line) and a metric returning NaN are each reported, exit status 1."""
    (tmp_path / "flawed.py").write_text(FLAWED)
    done = run_mlfs(["check-plugin", "flawed.py"], cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    drifting = out.split("method 'Drifting': FAILED")[1].split("method 'Crashing'")[0]
    assert "deterministic: NO" in drifting
    assert "two runs with the same seed differ" in drifting
    line = FLAWED.splitlines().index("    return np.arange(k) // 0 + 1 // 0") + 1
    assert (
        f"problem: method 'Crashing' (flawed.py:{line}) raised ZeroDivisionError" in out
    )
    nan = out.split("metric 'nan_metric': FAILED")[1]
    assert "finite: NO" in nan
    assert "0 of 3 passed" in done.stderr
