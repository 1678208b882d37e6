"""The method registry: one read-only table, complete at import, in a fixed order."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import mlfs_core
from mlfs_core.errors import ConfigError
from mlfs_core.options import Option
from mlfs_core.selectors import (
    METHODS,
    MethodSpec,
    get_method,
    list_methods,
    register,
    unregister,
)

from ...built_in_methods import BUILT_IN_ORDER
from ...fresh import imported_after, run_fresh


def test_list_methods_has_the_documented_order():
    assert list_methods() == BUILT_IN_ORDER
    assert list(METHODS) == BUILT_IN_ORDER


def test_table_is_complete_at_import_whatever_was_imported_first():
    """``mlfs_core.METHODS`` is full before any lookup, importing greedy first."""
    code = (
        "import mlfs_core.selectors.greedy, mlfs_core.selectors.filter, mlfs_core;"
        "print(','.join(mlfs_core.METHODS))"
    )
    assert run_fresh(code).split(",") == BUILT_IN_ORDER


def test_importing_an_implementation_module_registers_nothing():
    code = "import mlfs_core.selectors.filter, mlfs_core.selectors.greedy"
    assert imported_after(code, ["mlfs_core.selectors._registry"]) == []


def test_table_is_read_only():
    with pytest.raises(TypeError):
        METHODS["MaxCS"] = METHODS["AF"]  # type: ignore[index]
    with pytest.raises(TypeError):
        del METHODS["AF"]  # type: ignore[attr-defined]


def _af(X, Y, *, k, random_state):
    return METHODS["AF"].rank(X, Y, k=k, rng=random_state)


def test_register_refuses_to_overwrite_and_unregister_removes_own_methods():
    spec = MethodSpec(name="Mine", family="baseline", rank=_af)
    with pytest.raises(ConfigError, match="already registered"):
        register(MethodSpec(name="MaxCS", family="score-aggregation", rank=spec.rank))
    assert get_method("MaxCS").family == "score-aggregation"
    registered = register(spec)
    try:
        assert list_methods()[-1] == "Mine" and METHODS["Mine"] is registered
        assert registered.rank.function is _af
        with pytest.raises(ConfigError, match="already registered"):
            register(spec)
    finally:
        unregister("Mine")
    assert "Mine" not in METHODS
    with pytest.raises(ConfigError, match="built-in"):
        unregister("AF")


def test_selector_importable_from_selectors():
    from mlfs_core.selectors import MultiLabelSelector

    assert MultiLabelSelector is mlfs_core.MultiLabelSelector


@pytest.mark.parametrize("name", BUILT_IN_ORDER)
def test_option_defaults_match_the_rank_functions(name):
    """Each Option's default is the keyword default of the method's rank()."""
    spec = METHODS[name]
    params = inspect.signature(spec.rank).parameters
    for option in spec.options:
        assert params[option.name].default == option.default, option.name


def test_option_metadata_of_the_information_theoretic_methods():
    pmu, atr = METHODS["PMU"], METHODS["ATR"]
    # the built-in strategies, then what packages registered (test_binning.py)
    assert pmu.option("discretize").choices[:3] == ("uniform", "quantile", "binary")
    # "definition", then what plug-ins registered (see test_variants.py)
    assert pmu.option("variant").choices[0] == "definition"
    assert pmu.option("bins").low == 2 and atr.option("tau").low == 1
    assert METHODS["RaRCS"].option("weighting").choices == (
        "inverse",
        "proportional",
        "uniform",
    )
    with pytest.raises(ConfigError, match="allowed: binarize"):
        METHODS["MaxCS"].option("bins")


@pytest.mark.parametrize(
    ("method", "params", "message"),
    [
        ("PMU", {"bins": 0}, r"bins must be an int in \[2, 1000\], got 0"),
        ("PMU", {"bins": True}, r"bins must be an int in \[2, 1000\], got True"),
        ("ATR", {"tau": 0}, "tau must be an int >= 1, got 0"),
        ("PMU", {"variant": "ref"}, "PMU has no variant .ref.; registered: definition"),
        ("SCLS", {"discretize": "kmeans"}, "discretize must be one of uniform"),
        ("SCLS", {"legacy_binning": True}, "unknown parameter"),
        ("RaRBNS", {"weighting": "inv"}, "weighting must be one of inverse"),
        ("MaxCS", {"binarize": "mean"}, "binarize must be one of presence"),
        ("MaxCS", {"tau": 3}, "unknown parameter"),
    ],
)
def test_bad_option_values_raise_naming_the_option(small_xy, method, params, message):
    X, Y = small_xy
    with pytest.raises(ConfigError, match=message):
        mlfs_core.compute_ranking(X, Y, method, **params)


def test_resolve_fills_defaults_and_casts_numpy_values():
    resolved = METHODS["ATR"].resolve({"bins": np.int64(4)})
    assert resolved == {
        "bins": 4,
        "discretize": "uniform",
        "tau": 6,
    }
    assert type(resolved["bins"]) is int


def test_an_option_with_a_bad_default_is_refused():
    with pytest.raises(ConfigError):
        Option("bins", 1, low=2)
