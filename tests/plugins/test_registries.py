"""The plug-in machinery sits below the registries: they declare themselves to it."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.options import Option


def test_importing_the_plugin_machinery_imports_no_registry():
    """Check mlfs_core.plugins loads without the method, classifier or metric
    registries (they import it, never the other way round)."""
    code = (
        "import sys, mlfs_core.plugins as p\n"
        "heavy = ['mlfs_core.selectors._registry', 'mlfs_core.evaluation.classifiers',"
        " 'mlfs_core.evaluation.metrics', 'sklearn']\n"
        "print([m for m in heavy if m in sys.modules],"
        " sorted(p._registries.registries()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] []"


def test_each_registry_declares_itself_when_imported():
    """Check methods, classifiers and metrics are declared with their built-ins."""
    from mlfs_core.evaluation.classifiers import CLASSIFIERS
    from mlfs_core.evaluation.metrics import METRICS
    from mlfs_core.plugins._registries import registries
    from mlfs_core.selectors import METHODS

    found = registries()
    assert {"methods", "classifiers", "metrics"} <= set(found)
    assert set(found["methods"].built_in) == set(METHODS)
    assert found["classifiers"].table is CLASSIFIERS
    assert found["metrics"].table is METRICS


def _ridge(*, random_state, alpha=1.0):
    from sklearn.linear_model import RidgeClassifier

    from mlfs_core.evaluation import BinaryRelevance

    return BinaryRelevance(RidgeClassifier(alpha=alpha, random_state=random_state))


def _share(Y, P, S):
    return float(np.mean(P))


def test_script_registrations_travel_to_a_worker_and_come_back_whole(fresh_plugins):
    """Check what a script registers (a classifier with an Option, a metric) is
    listed by registered_here, packed, and registered again where missing, as a
    worker does, with its parameters, kernel flag and version."""
    from mlfs_core.evaluation import classifiers as c
    from mlfs_core.evaluation import metrics as m

    state = fresh_plugins.checkpoint()
    c.register_classifier(
        "h5_ridge",
        _ridge,
        kernel_dependent=False,
        parameters=(Option("alpha", 1.0, low=0.0, closed="neither"),),
        version="2",
    )
    m.register_metric("h5_share", _share, higher_is_better=True, version="3")
    here = fresh_plugins.registered_here()
    assert set(here["classifiers"]) == {"h5_ridge"}
    assert set(here["metrics"]) == {"h5_share"}
    packed = fresh_plugins.pack(here)
    fresh_plugins.rollback(state)  # a worker that has none of it
    assert "h5_ridge" not in c.CLASSIFIERS and "h5_share" not in m.METRICS
    try:
        assert fresh_plugins.run_with_plugins((), len, ("ab",), {}, packed) == 2
        assert c.classifier_parameters("h5_ridge") == ("alpha",)
        assert c.kernel_dependent("h5_ridge") is False
        assert c._VERSIONS["h5_ridge"] == "2" and m._VERSIONS["h5_share"] == "3"
        with pytest.raises(ConfigError, match=r"alpha must be a number > 0, got 0"):
            c.make_classifier("h5_ridge", {"alpha": 0})
        assert m.METRICS["h5_share"].higher_is_better is True
    finally:
        fresh_plugins.rollback(state)
    assert "h5_ridge" not in c.CLASSIFIERS and "h5_share" not in m.METRICS
