"""MethodSpec's app-facing attributes (reference, default_for, formula) and the
registry queries over them."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.selectors import (
    METHODS,
    REFERENCE_KINDS,
    MethodSpec,
    default_methods,
    reference_methods,
    register,
    unregister,
)


def _rank(X, Y, *, k, random_state):
    return np.arange(X.shape[1])[:k]


def test_a_spec_has_no_flags_by_default():
    """Check that a spec without the new attributes is a plain selecting method."""
    spec = MethodSpec(name="plain", family="user", rank=_rank)
    assert (spec.reference, spec.default_for, spec.formula) == ("", (), "")


def test_an_unknown_reference_kind_is_one_clear_error():
    """Check that reference="everything" names the method and the allowed kinds."""
    with pytest.raises(ConfigError, match=r"'mine'.*reference must be one of"):
        MethodSpec(name="mine", family="user", rank=_rank, reference="everything")
    assert set(REFERENCE_KINDS) == {"", "all", "random"}


def test_default_for_must_be_strings_and_a_list_becomes_a_tuple():
    """Check that default_for="control" (a bare string) is refused, a list is kept
    as a tuple (the spec stays hashable)."""
    with pytest.raises(ConfigError, match="default_for must be a tuple of strings"):
        MethodSpec(name="mine", family="user", rank=_rank, default_for="control")
    spec = MethodSpec(name="mine", family="user", rank=_rank, default_for=["control"])
    assert spec.default_for == ("control",)
    assert hash(spec) == hash(spec)


def test_the_built_in_flags():
    """Check the baselines' kinds, the teaching sets and the formulas of the
    built-in methods as the registry reports them."""
    assert reference_methods() == ["Random", "AF"]
    assert reference_methods("all") == ["AF"]
    assert reference_methods("random") == ["Random"]
    assert default_methods("experiment-A") == [
        "MaxCS",
        "MeanCS",
        "MaxBNS",
        "RaRBNS",
        "Random",
        "AF",
    ]
    assert default_methods("experiment-B") == ["PPT-MI", "IGMF", "SCLS", "ATR"]
    assert default_methods("control") == ["ATR", "Random"]
    assert default_methods("learn") == ["PMU", "LLSF"]  # each Learn page its own
    with_formula = [n for n, s in METHODS.items() if s.formula]
    greedy = [n for n, s in METHODS.items() if s.family == "information-theoretic"]
    assert with_formula == greedy
    assert METHODS["PPT-MI"].formula == "I(f_P; Y_P)"


def test_an_unknown_kind_to_reference_methods_is_an_error():
    """Check that reference_methods("") and ("none") list the known kinds."""
    for kind in ("", "none"):
        with pytest.raises(ConfigError, match="known: 'all', 'random'"):
            reference_methods(kind)


def test_a_registered_function_carries_the_flags_into_the_queries():
    """Check that register(function, reference=..., default_for=...) makes the
    method a baseline and a default, after the built-in ones, until it is removed."""
    register(
        _rank,
        name="MyBaseline",
        reference="all",
        default_for=("experiment-A", "control"),
        formula="J = 0",
    )
    try:
        assert reference_methods("all") == ["AF", "MyBaseline"]
        assert default_methods("control") == ["ATR", "Random", "MyBaseline"]
        assert default_methods("experiment-A")[-1] == "MyBaseline"
        assert METHODS["MyBaseline"].formula == "J = 0"
    finally:
        unregister("MyBaseline")
    assert "MyBaseline" not in reference_methods()
