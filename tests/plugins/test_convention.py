"""One plug-in convention: rank(X, Y, *, k, random_state, **options) for plain
functions and MethodSpecs alike; keyword defaults are options; the signature
is checked at registration with one clear error."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.options import Option
from mlfs_core.selectors import (
    METHODS,
    MethodSpec,
    get_method,
    rank_features,
    register,
    unregister,
)


@pytest.fixture
def names():
    """Names registered by the test are removed afterwards."""
    taken: list[str] = []
    yield taken
    for name in taken:
        try:
            unregister(name)
        except ConfigError:
            pass


def _data():
    rng = np.random.default_rng(1)
    return rng.integers(0, 3, (30, 6)), rng.integers(0, 2, (30, 2))


def test_keyword_defaults_become_options(names):
    """Check a plain function's alpha=1.0 is an option (was: unknown parameter
    ['alpha']; allowed: none) that reaches the call and is type-checked."""

    def Weighted(X, Y, *, k, random_state, alpha=1.0, mode="sum"):
        sums = np.asarray(X.sum(axis=0)).ravel()
        return np.argsort(-(alpha * sums if mode == "sum" else -sums))[:k]

    spec = register(Weighted)
    names.append("Weighted")
    assert [o.describe() for o in spec.options] == [
        "alpha=1.0 (float)",
        "mode=sum (str)",
    ]
    X, Y = _data()
    assert rank_features(X, Y, "Weighted", k=3, alpha=2.0).tolist() == (
        rank_features(X, Y, "Weighted", k=3).tolist()
    )
    assert rank_features(X, Y, "Weighted", k=3, mode="neg").tolist() != (
        rank_features(X, Y, "Weighted", k=3).tolist()
    )
    with pytest.raises(ConfigError, match="alpha must be a number"):
        rank_features(X, Y, "Weighted", k=3, alpha="big")


def test_explicit_options_refine_the_inferred_ones(names):
    """Check options= given at registration replace the inferred one of that name."""

    def Bounded(X, Y, *, k, random_state, alpha=1.0):
        return list(range(k))

    spec = register(Bounded, options=(Option("alpha", 1.0, low=0.0, high=2.0),))
    names.append("Bounded")
    assert [o.describe() for o in spec.options] == ["alpha=1.0 (float in [0, 2])"]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "def Old(X, Y, *, k, rng):\n    return list(range(k))\n",
            r"method 'Old': Old\(X, Y, \*, k, rng\) cannot be called as "
            r"rank\(X, Y, \*, k, random_state, \*\*options\): it takes rng: rename "
            r"rng to random_state",
        ),
        (
            "def NoK(X, Y, *, random_state):\n    return [0]\n",
            r"method 'NoK': .* it takes no keyword k",
        ),
        (
            "def NoDefault(X, Y, *, k, random_state, alpha):\n    return [0]\n",
            r"parameter 'alpha' of NoDefault\(.*\) has no default",
        ),
        (
            "def BadDefault(X, Y, *, k, random_state, w=None):\n    return [0]\n",
            r"option 'w' defaults to None",
        ),
        (
            "def OneArg(X, *, k, random_state):\n    return [0]\n",
            r"must take X and Y first",
        ),
    ],
    ids=["rng", "no-k", "no-default", "bad-default", "one-positional"],
)
def test_a_bad_signature_is_refused_at_registration(source, message):
    """Check each mismatch is one ConfigError at register(), not a bare
    TypeError at the first call."""
    namespace: dict = {}
    exec(source, namespace)
    function = next(v for k, v in namespace.items() if k != "__builtins__")
    with pytest.raises(ConfigError, match=message):
        register(function)
    with pytest.raises(ConfigError, match="unknown method"):
        get_method(function.__name__)  # nothing was registered


def test_a_methodspec_takes_random_state_too(names):
    """Check a MethodSpec's rank written with random_state works, and one whose
    options are not parameters of its rank is refused at registration."""

    def rank(X, Y, *, k, random_state, shift=0):
        draw = random_state.permutation(X.shape[1])
        return (draw + shift) % X.shape[1]

    spec = MethodSpec(
        name="Shuffled",
        family="user",
        rank=lambda X, Y, *, k, random_state, shift=0: rank(
            X, Y, k=k, random_state=random_state, shift=shift
        )[:k],
        stochastic=True,
        options=(Option("shift", 0, low=0),),
    )
    register(spec)
    names.append("Shuffled")
    X, Y = _data()
    a = rank_features(X, Y, "Shuffled", k=4, random_state=3)
    b = rank_features(X, Y, "Shuffled", k=4, random_state=3)
    assert a.tolist() == b.tolist() and len(set(a.tolist())) == 4
    bad = MethodSpec(
        name="Mismatch",
        family="user",
        rank=lambda X, Y, *, k, random_state: list(range(k)),
        options=(Option("bins", 3, low=2),),
    )
    with pytest.raises(ConfigError, match=r"it takes no keyword bins \(an option\)"):
        register(bad)


def test_a_methodspec_with_rng_is_refused_naming_the_rename():
    """Check a MethodSpec whose rank takes rng (the engine's former name for
    plug-ins) is one ConfigError at register(), naming the method and the
    rename, and nothing is registered."""
    spec = MethodSpec(
        name="Legacy",
        family="user",
        rank=lambda X, Y, *, k, rng: list(range(k)),
    )
    with pytest.raises(ConfigError) as caught:
        register(spec)
    message = str(caught.value)
    assert message.startswith("method 'Legacy': ")
    assert "rename rng to random_state" in message
    assert "Legacy" not in METHODS


def test_a_field_a_method_spec_lacks_is_one_clear_error(names):
    """Check register(function, field=...) names an unknown field and the
    allowed ones (a TypeError before), and the function defaults apply."""

    def Plain(X, Y, *, k, random_state):
        """Columns in order."""
        return list(range(k))

    with pytest.raises(ConfigError) as caught:
        register(Plain, colour="red")
    message = str(caught.value)
    assert message.startswith("method 'Plain': unknown field(s) ['colour']; allowed: ")
    assert "family, stochastic, description" in message and "citation" in message
    spec = register(Plain, version=2, stepwise=True)
    names.append("Plain")
    assert (spec.family, spec.score_kind, spec.stepwise) == ("user", "order", True)
    assert (spec.description, spec.version) == ("Columns in order.", "2")
