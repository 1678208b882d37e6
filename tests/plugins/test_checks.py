"""What a method returns is checked wherever it enters the engine."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import rank_features
from mlfs_core.errors import ConfigError, RankingError
from mlfs_core.evaluation.runner.execute.tasks import run_selection
from mlfs_core.selectors import MultiLabelSelector, Ranking, register, unregister

N_FEATURES = 6


def _data():
    rng = np.random.default_rng(0)
    X = rng.poisson(1.0, size=(20, N_FEATURES)).astype(float)
    Y = (X[:, :2] > 1).astype(int)
    return X, Y


BAD = {
    "duplicates": (lambda k: [0, 0, 0][:k], "index 0 appears more than once"),
    "too_short": (lambda k: [0, 1], "asked for 3 features, the order has 2"),
    "out_of_range": (lambda k: [0, 1, N_FEATURES], "index 6 is out of range"),
    "negative": (lambda k: [0, -1, 2], "index -1 is out of range"),
    "floats": (lambda k: np.array([0.5, 1.0, 2.0]), "must hold integer indices"),
    "two_d": (lambda k: np.zeros((3, 1), int), "must be 1-D"),
    "not_an_order": (lambda k: "012", "must return an order"),
    "nan_scores": (
        lambda k: (np.arange(k), np.full(N_FEATURES, np.nan)),
        "scores must be finite",
    ),
    "short_scores": (
        lambda k: Ranking(order=np.arange(k), scores=np.ones(2)),
        r"scores must have shape \(6,\)",
    ),
}


@pytest.fixture
def bad_method(request):
    """Register ``Bad_<case>`` returning the case's output."""
    make, _ = BAD[request.param]

    def rank(X, Y, *, k, random_state):
        return make(k)

    name = f"Bad_{request.param}"
    register(rank, name=name)
    yield name
    unregister(name)


@pytest.mark.parametrize("bad_method", list(BAD), indirect=True)
def test_each_bad_output_is_a_clear_error_everywhere(bad_method):
    """Check rank_features, the selector and the runner's task all refuse the
    output with an error naming the method and the rule."""
    X, Y = _data()
    rule = BAD[bad_method.removeprefix("Bad_")][1]
    message = rf"method '{bad_method}' returned a bad ranking: .*{rule}"
    with pytest.raises(RankingError, match=message) as info:
        rank_features(X, Y, bad_method, k=3)
    assert isinstance(info.value, ValueError)
    assert not isinstance(info.value, ConfigError)  # the config was fine
    with pytest.raises(RankingError, match=message):
        MultiLabelSelector(bad_method, k=3).fit(X, Y)
    with pytest.raises(RankingError, match=message):
        run_selection(X, Y, bad_method, {}, 3, None)


def test_a_bare_order_or_a_pair_is_accepted():
    """Check that an order alone (scores filled by position) and an (order,
    scores) pair are both accepted, as arrays or lists."""
    X, Y = _data()

    def bare(X, Y, *, k, random_state):
        return list(range(k))[::-1]

    def pair(X, Y, *, k, random_state):
        scores = np.arange(N_FEATURES, dtype=float)
        return np.argsort(-scores)[:k], scores

    register(bare)
    register(pair)
    try:
        assert rank_features(X, Y, "bare", k=3).tolist() == [2, 1, 0]
        selector = MultiLabelSelector("bare", k=3).fit(X, Y)
        assert selector.scores_.tolist() == [4, 5, 6, 0, 0, 0]  # M - position
        assert rank_features(X, Y, "pair", k=2).tolist() == [5, 4]
        assert MultiLabelSelector(pair, k=2).fit(X, Y).scores_.tolist() == list(
            range(N_FEATURES)
        )
    finally:
        unregister("bare")
        unregister("pair")


def test_register_refuses_what_is_not_a_method():
    """Check register() errors: not callable, a lambda without a name, extra
    fields with a MethodSpec."""
    from mlfs_core.selectors import get_method

    with pytest.raises(ConfigError, match="takes a MethodSpec or a function"):
        register(3)
    with pytest.raises(ConfigError, match="needs a name"):
        register(lambda X, Y, *, k, random_state: list(range(k)))
    with pytest.raises(ConfigError, match="takes no other arguments"):
        register(get_method("MaxCS"), version="2")
    with pytest.raises(ConfigError, match="method must be a registered name"):
        MultiLabelSelector(3, k=2).fit(*_data())
