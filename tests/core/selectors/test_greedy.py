"""Behaviour tests of the ten information-theoretic greedy selectors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import mlfs_core
from mlfs_core.errors import ConfigError
from mlfs_core.selectors import METHODS
from mlfs_core.selectors.greedy import (
    IT_METHODS,
    TIE_TOLERANCE,
    _best_next_feature,
    rank_discrete,
)

REDUNDANCY_METHODS = ["ATR", "PMU", "D2F", "SCLS", "MDMR", "LRFS", "LSMFS", "MLSMFS"]


@pytest.fixture
def planted(rng):
    """Codes: feature 2 is label 0, 5 a copy of it, 0 and 3 noisy labels 1, 2."""
    n = 240
    Y = (rng.random((n, 3)) < 0.45).astype(np.int8)
    codes = rng.integers(0, 3, size=(n, 7))
    codes[:, 2] = Y[:, 0] * 2
    codes[:, 5] = codes[:, 2]
    # Relevant to other labels (0, 3 strongly, 6 weakly), independent of feature 2.
    for j, label, noise in ((0, 1, 0.1), (3, 2, 0.1), (6, 1, 0.4)):
        flip = rng.random(n) < noise
        codes[:, j] = np.where(flip, rng.integers(0, 3, n), Y[:, label] * 2)
    return codes, Y


def test_all_ten_methods_are_registered_with_their_options():
    """Check that every method is registered with its family and defaults."""
    for name in IT_METHODS:
        spec = mlfs_core.get_method(name)
        assert spec.family == "information-theoretic" and not spec.stochastic
        assert {"bins", "discretize"} <= set(spec.defaults)
        assert "legacy_binning" not in spec.defaults  # a package's strategy now
        assert spec.defaults["bins"] == 3 and spec.defaults["discretize"] == "uniform"
    assert (
        METHODS["ATR"].defaults["tau"] == 6 and METHODS["PPT-MI"].defaults["tau"] == 6
    )
    assert METHODS["PMU"].defaults["variant"] == "definition"
    assert METHODS["MDMR"].defaults["variant"] == "definition"
    assert "tau" not in METHODS["PMU"].defaults
    assert sorted(mlfs_core.list_methods("information-theoretic")) == sorted(IT_METHODS)


@pytest.mark.parametrize("method", IT_METHODS)
def test_public_api_returns_a_valid_ranking(small_xy, method):
    """Check that compute_ranking returns order, positional scores and a finite path."""
    X, Y = small_xy
    ranking = mlfs_core.compute_ranking(X, Y, method, k=5)
    m = X.shape[1]
    assert ranking.order.shape == (5,) and len(set(ranking.order.tolist())) == 5
    assert ranking.criterion_path.shape == (5,)
    assert np.all(np.isfinite(ranking.criterion_path))
    expected = np.zeros(m)
    expected[ranking.order] = m - np.arange(5)
    np.testing.assert_array_equal(ranking.scores, expected)
    assert ranking.label_scores is None


@pytest.mark.parametrize("method", IT_METHODS)
def test_sparse_and_dense_input_rank_alike(small_xy, method):
    """Check that CSR and dense X give the same full ranking."""
    X, Y = small_xy
    dense = mlfs_core.rank_features(X, Y, method)
    sparse = mlfs_core.rank_features(sp.csr_matrix(X), Y, method)
    np.testing.assert_array_equal(dense, sparse)
    assert sorted(dense.tolist()) == list(range(X.shape[1]))


@pytest.mark.parametrize("method", IT_METHODS)
def test_planted_label_copy_is_selected_first(planted, method):
    """Check that a feature equal to a label is ranked first by every method."""
    codes, Y = planted
    assert rank_discrete(codes, Y, method, k=1).order[0] == 2


@pytest.mark.parametrize("method", REDUNDANCY_METHODS)
def test_duplicate_of_selected_feature_is_penalised(planted, method):
    """Check that a copy of the first pick ranks later than by relevance alone."""
    codes, Y = planted
    order = rank_discrete(codes, Y, method).order.tolist()
    first_step = rank_discrete(codes, Y, method, k=1)
    # The relevance-only ranking: every feature scored at step 1 (S empty).
    step1 = _step_one_values(codes, Y, method)
    relevance_order = np.argsort(-step1, kind="stable").tolist()
    assert first_step.order[0] == 2
    assert relevance_order.index(5) == 1  # without redundancy the copy comes 2nd
    assert order.index(5) > relevance_order.index(5)


def _step_one_values(codes, Y, method):
    """J(f | {}) of every feature, by ranking each feature alone."""
    return np.array(
        [
            rank_discrete(codes[:, [j]], Y, method, k=1).criterion_path[0]
            for j in range(7)
        ]
    )


def test_tie_rule_takes_lowest_index_within_tolerance():
    """Check that values within 1e-10 of the best tie and the lowest index wins."""
    remaining = np.ones(3, dtype=bool)
    near = np.array([1.0, 1.0 + TIE_TOLERANCE / 2, 0.5])
    assert _best_next_feature(near, remaining) == 0
    apart = np.array([1.0, 1.0 + 1e-8, 0.5])
    assert _best_next_feature(apart, remaining) == 1
    remaining[0] = False
    assert _best_next_feature(near, remaining) == 1


@pytest.mark.parametrize("method", IT_METHODS)
def test_identical_features_keep_index_order(method):
    """Check that exactly tied features are ranked in index order."""
    codes = np.zeros((12, 4), dtype=int)
    Y = np.zeros((12, 2), dtype=np.int8)
    assert rank_discrete(codes, Y, method).order.tolist() == [0, 1, 2, 3]


def test_igmf_is_not_reversed(planted):
    """Check that IGMF ranks by decreasing gain (never in reverse index order)."""
    codes, Y = planted
    ranking = rank_discrete(codes, Y, "IGMF")
    assert np.all(np.diff(ranking.criterion_path) <= TIE_TOLERANCE)
    assert ranking.order[0] == 2


def test_bad_options_raise_config_error(small_xy):
    """Check that unknown variants, bad tau, bins and strategies raise ConfigError."""
    X, Y = small_xy
    with pytest.raises(ConfigError, match="variant"):
        mlfs_core.compute_ranking(X, Y, "PMU", variant="paper")
    with pytest.raises(ConfigError, match="tau"):
        mlfs_core.compute_ranking(X, Y, "ATR", tau=0)
    with pytest.raises(ConfigError, match="bins"):
        mlfs_core.compute_ranking(X, Y, "D2F", bins=1)
    with pytest.raises(ConfigError, match="discretize"):
        mlfs_core.compute_ranking(X, Y, "D2F", discretize="kmeans")
    with pytest.raises(ConfigError, match="unknown parameter"):
        mlfs_core.compute_ranking(X, Y, "D2F", variant="reference-code")
    with pytest.raises(ConfigError, match="no variant"):
        rank_discrete(np.zeros((4, 2), dtype=int), np.zeros((4, 1)), "D2F",
                      variant="reference-code")  # fmt: skip


@pytest.mark.parametrize("method", IT_METHODS)
def test_degenerate_data_stays_finite(method):
    """Check constant features and labels, one label and k = M give finite rankings."""
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 3, size=(30, 5))
    codes[:, 1] = 0  # constant feature
    Y = np.zeros((30, 1), dtype=np.int8)  # one constant label
    ranking = rank_discrete(codes, Y, method)
    assert sorted(ranking.order.tolist()) == list(range(5))
    assert np.all(np.isfinite(ranking.criterion_path))
    Y2 = np.column_stack([rng.integers(0, 2, 30), np.ones(30)]).astype(np.int8)
    assert np.all(np.isfinite(rank_discrete(codes, Y2, method).criterion_path))


@pytest.mark.parametrize("method", ["PPT-MI", "ATR"])
def test_everything_pruned_gives_zero_ppt_term(planted, method):
    """Check that tau above every label-set count makes the PPT term 0."""
    codes, Y = planted
    pruned = rank_discrete(codes, Y, method, tau=10_000)
    if method == "PPT-MI":
        assert pruned.order.tolist() == list(range(7))
        assert np.all(pruned.criterion_path == 0.0)
    else:
        first = _step_one_values(codes, Y, "D2F") / Y.shape[1]
        assert pruned.criterion_path[0] == pytest.approx(first.max(), abs=1e-12)


def test_single_label_pair_terms_vanish():
    """Check that with q = 1, LRFS is 0 - redundancy and MLSMFS/LSMFS reduce to R(f)."""
    rng = np.random.default_rng(9)
    codes = rng.integers(0, 3, size=(40, 4))
    Y = rng.integers(0, 2, size=(40, 1))
    assert rank_discrete(codes, Y, "LRFS", k=1).criterion_path[0] == 0.0
    d2f = rank_discrete(codes, Y, "D2F", k=1).criterion_path
    for method in ("MLSMFS", "LSMFS", "PMU"):
        path = rank_discrete(codes, Y, method, k=1).criterion_path
        np.testing.assert_allclose(path, d2f, atol=1e-12)


@pytest.mark.parametrize(
    "option",
    [{"bins": 2}, {"bins": 5}, {"discretize": "quantile"}, {"discretize": "binary"}],
)
def test_discretization_options_reach_the_engine(small_xy, option):
    """Check that each discretization option changes what the engine ranks.

    Ignoring an option would give the default's criterion values back.
    """
    X, Y = small_xy
    default = mlfs_core.compute_ranking(X, Y, "SCLS")
    changed = mlfs_core.compute_ranking(X, Y, "SCLS", **option)
    assert sorted(changed.order.tolist()) == list(range(X.shape[1]))
    assert np.all(np.isfinite(changed.criterion_path))
    assert not np.allclose(changed.criterion_path, default.criterion_path)


def test_a_registered_binning_strategy_reaches_the_engine():
    """Check discretize= names a registered strategy: a map of the values that
    moves 1 - 1e-7 above the edge 1 puts it in the upper bin.

    Then feature 0 separates the label perfectly (I(f; y) = H(y)); with the
    built-in "uniform" that value joins the zeros and I(f; y) < 1.
    """
    from mlfs_core.measures.binning import (
        register_binning,
        uniform_edges,
        unregister_binning,
    )

    x = np.array([0.0, 0.0, 1 - 1e-7, 1 - 1e-7, 3.0, 3.0])
    X = np.column_stack([x, [0, 1, 0, 1, 0, 1]])
    Y = np.array([[0], [0], [1], [1], [1], [1]])
    register_binning("test-up", uniform_edges, values=_shift_up)
    try:
        shifted = mlfs_core.compute_ranking(X, Y, "SCLS", discretize="test-up", k=1)
    finally:
        unregister_binning("test-up")
    plain = mlfs_core.compute_ranking(X, Y, "SCLS", k=1)
    entropy_y = -(1 / 3) * np.log2(1 / 3) - (2 / 3) * np.log2(2 / 3)
    assert shifted.criterion_path[0] == pytest.approx(entropy_y)
    assert plain.criterion_path[0] < entropy_y - 0.1
    with pytest.raises(ConfigError, match="discretize must be one of uniform"):
        mlfs_core.compute_ranking(X, Y, "SCLS", discretize="test-up", k=1)


def _shift_up(values):
    return values + 1e-6


def test_binary_discretization_equals_presence_codes(small_xy):
    """Check that discretize="binary" ranks like the presence matrix itself."""
    X, Y = small_xy
    via_api = mlfs_core.rank_features(X, Y, "PMU", discretize="binary")
    direct = rank_discrete((X != 0).astype(int), Y, "PMU").order
    np.testing.assert_array_equal(via_api, direct)


def test_k_outside_one_to_m_raises(small_xy):
    """Check that k = 0 or k > n_features raises instead of clipping silently."""
    X, Y = small_xy
    codes = np.zeros((4, 3), dtype=int)
    with pytest.raises(ConfigError, match="larger than the number of features"):
        rank_discrete(codes, np.zeros((4, 1)), "ATR", k=4)
    with pytest.raises(ConfigError, match="k must be at least 1"):
        rank_discrete(codes, np.zeros((4, 1)), "ATR", k=0)
    with pytest.raises(ConfigError, match="larger than"):
        mlfs_core.compute_ranking(X, Y, "PMU", k=X.shape[1] + 1)
    full = mlfs_core.compute_ranking(X, Y, "PMU", k=X.shape[1])
    assert full.scores.min() == 1.0


def test_progress_is_reported_per_step_and_a_raise_stops_the_ranking():
    """Check that the progress hook sees every step and can abandon a ranking."""
    from mlfs_core.selectors.progress import ranking_progress

    codes, Y = np.array([[0, 1, 0, 1], [1, 0, 1, 1], [1, 1, 0, 0]]), np.eye(3)[:, :2]
    seen = []
    with ranking_progress(lambda done, total: seen.append((done, total))):
        rank_discrete(codes, Y, "PMU", k=3)
    assert seen == [(1, 3), (2, 3), (3, 3)]

    def stop(done, total):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), ranking_progress(stop):
        rank_discrete(codes, Y, "PMU", k=3)
    seen.clear()
    rank_discrete(codes, Y, "PMU", k=3)  # outside the context: no callback
    assert seen == []
