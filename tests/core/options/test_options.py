"""The one validation vocabulary (mlfs_core.options): Option and the resolve factory."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.options import Option, check_all, resolve


@pytest.mark.parametrize(
    ("option", "text", "inside", "outside"),
    [
        (Option("f", 0.4, low=0.0, high=1.0, closed="neither"), "in (0, 1)", 0.5, 1.0),
        (Option("f", 0.4, low=0.0, high=1.0, closed="left"), "in [0, 1)", 0.0, 1.0),
        (Option("f", 0.4, low=0.0, high=1.0, closed="right"), "in (0, 1]", 1.0, 0.0),
        (Option("f", 1.0, low=0.0), ">= 0", 0.0, -0.5),
        (Option("f", 1.0, low=0.0, closed="neither"), "> 0", 1e-9, 0.0),
        (Option("f", 1.0, high=2.0), "<= 2", 2.0, 2.5),
        (Option("n", 3, low=2, closed="neither"), "> 2", 3, 2),
    ],
)
def test_open_and_closed_ends_are_checked_and_named(option, text, inside, outside):
    """Check each kind of end: the value on the right side passes, the other
    is refused with the range in words."""
    assert option.range_text() == text
    assert option.check(inside) == inside
    kind = "an int" if option.kind is int else "a number"
    with pytest.raises(ConfigError) as caught:
        option.check(outside)
    assert str(caught.value) == f"{option.name} must be {kind} {text}, got {outside!r}"


def test_a_float_with_one_bound_names_that_bound_only():
    """Check the message of a float option with a lower bound alone reads
    '>= 0' (it read 'in [0.0, None]')."""
    with pytest.raises(ConfigError) as caught:
        Option("s", 1.0, low=0.0).check(-1.0)
    assert str(caught.value) == "s must be a number >= 0, got -1.0"
    assert Option("s", 1.0, low=0.0).describe() == "s=1.0 (float >= 0)"


def test_an_invalid_closed_and_an_invalid_default_are_refused():
    with pytest.raises(ConfigError, match="closed must be one of"):
        Option("f", 0.5, low=0.0, high=1.0, closed="open")
    with pytest.raises(ConfigError, match=r"f must be a number in \(0, 1\), got 1.0"):
        Option("f", 1.0, low=0.0, high=1.0, closed="neither")


def test_resolve_fills_defaults_converts_and_keeps_declaration_order():
    options = (
        Option("bins", 3, low=2, high=1000),
        Option("rate", 0.5, low=0.0, high=1.0),
        Option("how", "a", choices=("a", "b")),
    )
    got = resolve(options, {"how": "b", "bins": np.int64(7)})
    assert got == {"bins": 7, "rate": 0.5, "how": "b"}
    assert list(got) == ["bins", "rate", "how"] and type(got["bins"]) is int


def test_resolve_names_every_problem_at_once():
    """Check unknown names (with the allowed ones) and each bad value come in
    one message, each behind the owner."""
    options = (Option("bins", 3, low=2), Option("how", "a", choices=("a", "b")))
    with pytest.raises(ConfigError) as caught:
        resolve(options, {"bins": 1, "how": "c", "zz": 1, "aa": 2}, owner="m: ")
    assert str(caught.value) == (
        "m: unknown parameter(s) ['aa', 'zz']; allowed: bins, how; "
        "m: bins must be an int >= 2, got 1; m: how must be one of a, b; got 'c'"
    )


def test_a_name_alone_is_allowed_unchecked_and_has_no_default():
    """Check a parameter declared by name alone passes through as given (the
    code it goes to checks it) and is left out when not given."""
    options = (Option("C", 3.0, low=0.0, closed="neither"), "dual")
    assert resolve(options, {}) == {"C": 3.0}
    assert resolve(options, {"dual": "auto", "C": 1}) == {"C": 1.0, "dual": "auto"}
    with pytest.raises(ConfigError, match=r"unknown parameter\(s\) \['max'\]"):
        resolve(options, {"max": 3})


def test_check_all_checks_the_given_values_only():
    options = (Option("bins", 3, low=2), Option("how", "a", choices=("a", "b")))
    assert check_all(options, {"how": "b"}) == {"how": "b"}


def test_a_method_spec_resolves_through_the_same_factory():
    """Check MethodSpec.resolve and .option name the method, every unknown
    option with the allowed ones, and every bad value."""
    from mlfs_core.selectors import METHODS

    spec = METHODS["RaRCS"]
    with pytest.raises(ConfigError) as caught:
        spec.resolve({"weighting": "x", "tau": 1})
    message = str(caught.value)
    assert message.startswith("method 'RaRCS': unknown parameter(s) ['tau']; allowed: ")
    assert "method 'RaRCS': weighting must be one of" in message
    with pytest.raises(ConfigError, match="method 'RaRCS': unknown parameter"):
        spec.option("tau")
