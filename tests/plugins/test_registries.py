"""The plug-in machinery sits below the registries: they declare themselves to it."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.options import Option

from ..fresh import imported_after, run_fresh


def test_importing_the_plugin_machinery_imports_no_registry():
    """Check mlfs_core.plugins loads without the method, classifier or metric
    registries (they import it, never the other way round)."""
    code = "import mlfs_core.plugins as p\nprint(sorted(p._registries.registries()))"
    heavy = [
        "mlfs_core.selectors._registry",
        "mlfs_core.evaluation.classifiers",
        "mlfs_core.evaluation.metrics",
        "sklearn",
    ]
    assert imported_after(code, heavy, timeout=120) == []
    assert run_fresh(code, timeout=120) == "[]"  # no registry declared itself


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
    from mlfs_core.evaluation.metrics import registry as m

    state = fresh_plugins.checkpoint()
    before = fresh_plugins.registered_here()  # e.g. a module imported directly
    c.register_classifier(
        "h5_ridge",
        _ridge,
        kernel_dependent=False,
        parameters=(Option("alpha", 1.0, low=0.0, closed="neither"),),
        version="2",
    )
    m.register_metric("h5_share", _share, higher_is_better=True, version="3")
    here = fresh_plugins.registered_here()
    assert set(here["classifiers"]) - set(before.get("classifiers", {})) == {"h5_ridge"}
    assert set(here["metrics"]) - set(before.get("metrics", {})) == {"h5_share"}
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


def _quarter(ctx):
    return -0.25 * ctx.statics.relevance


def test_a_script_s_criterion_variant_travels_to_a_worker(fresh_plugins):
    """Check a variant registered in a script is listed, packed and registered
    again in a worker that lacks it, with its criterion and description."""
    from mlfs_core.selectors import variants as v
    from mlfs_core.selectors.it.criteria import RELEVANCE, Criterion

    state = fresh_plugins.checkpoint()
    before = set(fresh_plugins.registered_here().get("variants", {}))
    criterion = Criterion((RELEVANCE, ("- R/4", _quarter)), "interaction")
    v.register_variant("PMU", "h45_quarter", criterion, description="a test")
    here = fresh_plugins.registered_here()
    assert set(here["variants"]) - before == {"PMU/h45_quarter"}
    packed = fresh_plugins.pack(here)
    fresh_plugins.rollback(state)
    assert "h45_quarter" not in v.variant_names("PMU")
    try:
        assert fresh_plugins.run_with_plugins((), len, ("ab",), {}, packed) == 2
        found = v.variants("PMU")[-1]
        assert (found.name, found.description) == ("h45_quarter", "a test")
        assert found.criterion.terms[1][0] == "- R/4"
    finally:
        fresh_plugins.rollback(state)
    assert "h45_quarter" not in v.variant_names("PMU")


def _thirds(X, bins):
    return np.full((X.shape[1], 1), 1.0 / 3.0)


def test_a_script_s_binning_strategy_travels_to_a_worker(fresh_plugins):
    """Check a discretization strategy registered in a script is listed, packed
    and registered again in a worker that lacks it, with its functions."""
    from mlfs_core.measures import binning as b
    from mlfs_core.measures.discretize import Discretizer

    state = fresh_plugins.checkpoint()
    before = set(fresh_plugins.registered_here().get("binnings", {}))
    b.register_binning("h53_thirds", _thirds, description="a test")
    here = fresh_plugins.registered_here()
    assert set(here["binnings"]) - before == {"h53_thirds"}
    packed = fresh_plugins.pack(here)
    fresh_plugins.rollback(state)
    assert "h53_thirds" not in b.binning_names()
    try:
        assert fresh_plugins.run_with_plugins((), len, ("ab",), {}, packed) == 2
        assert b.binning_strategy("h53_thirds").description == "a test"
        codes = Discretizer(strategy="h53_thirds").fit_transform(np.array([[0.5]]))
        assert codes.tolist() == [[1]]
    finally:
        fresh_plugins.rollback(state)
    assert "h53_thirds" not in b.binning_names()


def test_a_failing_plug_in_s_variant_is_rolled_back(tmp_path, fresh_plugins):
    """Check a plug-in that registers a variant, then raises, leaves no variant,
    and a plug-in that loads lists its variant in its PluginInfo."""
    from mlfs_core.selectors import variants as v

    head = (
        "from mlfs_core.selectors.it.criteria import RELEVANCE, Criterion\n"
        "from mlfs_core.selectors.variants import register_variant\n"
        "register_variant('MDMR', '{name}', Criterion((RELEVANCE,), None))\n"
    )
    bad = tmp_path / "bad_variant.py"
    bad.write_text(head.format(name="h45_bad") + "raise RuntimeError('broken')\n")
    good = tmp_path / "good_variant.py"
    good.write_text(head.format(name="h45_good"))
    state = fresh_plugins.checkpoint()
    try:
        with pytest.raises(Exception, match="broken"):
            fresh_plugins.load_plugins([str(bad)])
        assert "h45_bad" not in v.variant_names("MDMR")
        (info,) = fresh_plugins.load_plugins([str(good)])
        assert info.variants == ("MDMR/h45_good",)
    finally:
        fresh_plugins.rollback(state)
    assert "h45_good" not in v.variant_names("MDMR")
