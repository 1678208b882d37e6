"""What the engine states about each method for the app: its family (a concept,
with one title), whether it is stepwise, the kind of score it returns and its
source publication."""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.selectors import (
    FAMILIES,
    METHODS,
    SCORE_KINDS,
    MethodSpec,
    families,
    list_methods,
    register,
    unregister,
)
from mlfs_core.selectors._registry import is_built_in, method_identity
from mlfs_core.selectors._spec import spec_from_function
from mlfs_core.selectors.greedy import IT_METHODS

PAPER_WORDS = re.compile(r"paper[ _]?00[01]", re.IGNORECASE)


def _by_sum(X, Y, *, k, random_state):
    """Features by their column sum."""
    return np.argsort(-np.asarray(X.sum(axis=0)).ravel(), kind="stable")[:k]


def test_built_in_families_are_concepts_with_one_title_each():
    """Check the families in registry order, their titles from FAMILIES, and
    that neither a family nor a title names a paper."""
    built_in = [(f, t) for f, t in families() if f in FAMILIES]
    assert built_in == list(FAMILIES.items())
    assert list(FAMILIES) == [
        "score-aggregation",
        "information-theoretic",
        "sparse-regression",
        "spectral",
        "instance-based",
        "global-information",
        "baseline",
        "extra",
    ]
    assert dict(FAMILIES)["information-theoretic"] == (
        "Information-theoretic greedy filters"
    )
    assert not [x for item in FAMILIES.items() for x in item if PAPER_WORDS.search(x)]
    assert sorted(list_methods("information-theoretic")) == sorted(IT_METHODS)
    assert list_methods("score-aggregation") == [
        f"{a}{m}" for m in ("CS", "BNS") for a in ("Max", "Mean", "RoR", "RaR")
    ]


def test_stepwise_is_stated_for_exactly_the_greedy_filters():
    """Check that the greedy filters, and no other built-in, are stepwise."""
    stepwise = [n for n, s in METHODS.items() if is_built_in(n) and s.stepwise]
    assert stepwise == list(IT_METHODS)


def test_score_kind_is_order_for_rank_merges_and_baselines_only():
    """Check that RoR, RaR (per-label ranks merged), Random and AF state an
    order, and every other built-in a score of strength."""
    order = {
        n for n, s in METHODS.items() if is_built_in(n) and s.score_kind == "order"
    }
    expected = {
        f"{a}{m}" for a in ("RoR", "RaR") for m in ("CS", "BNS", "IG", "OR", "DF")
    }
    assert order == expected | {"Random", "AF"}
    assert set(SCORE_KINDS) == {"score", "order"}


def test_every_built_in_method_cites_its_source():
    """Check the citations: authors and year first (ATR: its title), and no
    paper number."""
    cited = {n: s.citation for n, s in METHODS.items() if is_built_in(n)}
    assert all(cited.values()), [n for n, c in cited.items() if not c]
    assert cited["MaxCS"].startswith("Spolaôr and Tsoumakas (2013), ")
    assert cited["PMU"].startswith("Lee and Kim (2013), ")
    assert cited["D2F"].startswith("Lee and Kim (2015), ")
    assert cited["MaxIG"].startswith("Forman (2003), ")
    assert "adaptive and transformed relevance" in cited["ATR"]
    assert not [c for c in cited.values() if PAPER_WORDS.search(c)]


def test_a_plain_function_defaults_to_an_order_not_stepwise_and_can_say_otherwise():
    """Check register()'s defaults for a function (not stepwise, an order, no
    citation, family "user") and that each can be set at register()."""
    plain = register(_by_sum)
    try:
        assert (plain.family, plain.stepwise, plain.score_kind, plain.citation) == (
            "user",
            False,
            "order",
            "",
        )
        assert ("user", "Your methods") in families()
    finally:
        unregister("_by_sum")
    told = register(
        _by_sum,
        name="Told",
        stepwise=True,
        score_kind="score",
        citation="Someone (2024), A method",
    )
    try:
        assert (told.stepwise, told.score_kind, told.citation) == (
            True,
            "score",
            "Someone (2024), A method",
        )
    finally:
        unregister("Told")


def test_a_method_spec_defaults_to_a_score_and_refuses_an_unknown_kind():
    """Check MethodSpec's default score_kind and the one clear error for a
    kind that is not one of SCORE_KINDS."""
    rank = METHODS["AF"].rank
    assert MethodSpec(name="mine", family="user", rank=rank).score_kind == "score"
    with pytest.raises(ConfigError, match=r"score_kind must be one of \['order'"):
        MethodSpec(name="mine", family="user", rank=rank, score_kind="rank")
    with pytest.raises(ConfigError, match="score_kind"):
        register(_by_sum, score_kind="strength")
    assert "_by_sum" not in METHODS


def test_family_and_the_stated_traits_are_not_part_of_a_method_identity():
    """Check that the cache identity of a method ignores its family, title,
    stepwise, score kind and citation (a retitled family recomputes nothing)."""
    spec = spec_from_function(_by_sum, version="1")
    retitled = replace(
        spec,
        family="elsewhere",
        family_label="Another title",
        stepwise=True,
        score_kind="score",
        citation="Someone (2024)",
    )
    assert method_identity(retitled) == method_identity(spec) is not None
    assert method_identity(METHODS["PMU"]) is None  # built-ins: CACHE_VERSION


def test_the_stated_score_kind_agrees_with_what_each_built_in_returns():
    """Check, on a small dataset, that a built-in's scores (as the app tables
    them) are M - position + 1 exactly when it states an order: the app's
    former guess and the stated kind agree on every built-in method."""
    from mlfs_core import compute_ranking
    from mlfs_core.selectors.tables import ranking_frame

    rng = np.random.default_rng(0)
    X = rng.poisson(0.8, size=(60, 12)).astype(float)
    Y = (rng.random((60, 3)) < 0.4).astype(int)
    X[:, 0] += 2 * Y[:, 0]
    names = [f"w{j}" for j in range(12)]
    for name, spec in METHODS.items():
        if not is_built_in(name):
            continue
        frame = ranking_frame(compute_ranking(X, Y, name, random_state=0), names)
        positions = 12 - frame["position"].to_numpy() + 1
        looks_like_order = np.allclose(frame["score"].to_numpy(float), positions)
        assert looks_like_order == (spec.score_kind == "order"), name
