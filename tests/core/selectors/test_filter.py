"""Tests of the paper-000 methods and baselines through rank_features."""

import numpy as np
import pytest
from scipy.sparse import csr_matrix

import mlfs_core
from mlfs_core import compute_ranking, list_methods, rank_features
from mlfs_core.errors import ConfigError

from ...built_in_methods import BASELINES, SCORE_AGGREGATION


def test_registry_lists_paper_methods():
    """Check that the registry lists the eight paper-000 methods and both baselines by
    name.
    """
    assert list_methods("score-aggregation") == SCORE_AGGREGATION
    assert list_methods("baseline") == BASELINES


@pytest.mark.parametrize("method", SCORE_AGGREGATION + BASELINES)
def test_every_method_returns_permutation(method, small_xy):
    """Check that each method returns each feature exactly once, and a prefix for
    smaller k.
    """
    X, Y = small_xy
    full = rank_features(X, Y, method, random_state=3)
    assert sorted(full.tolist()) == list(range(X.shape[1]))
    assert (
        rank_features(csr_matrix(X), Y, method, k=5, random_state=3).tolist()
        == full[:5].tolist()
    )


@pytest.mark.parametrize("method", SCORE_AGGREGATION + ["Random"])
def test_scores_sort_like_order(method, small_xy):
    """Check that Ranking.scores are finite and sort like Ranking.order."""
    X, Y = small_xy
    r = compute_ranking(X, Y, method, random_state=0)
    assert np.isfinite(r.scores).all()
    assert np.argsort(-r.scores, kind="stable").tolist() == r.order.tolist()


def test_max_and_mean_use_label_scores(small_xy):
    """Check that MaxCS/MeanCS order by the max/mean of the per-label CS matrix."""
    X, Y = small_xy
    S = mlfs_core.measures.label_scores(X, Y, "chi2")
    assert (
        rank_features(X, Y, "MaxCS").tolist()
        == np.argsort(-S.max(0), kind="stable").tolist()
    )
    assert (
        rank_features(X, Y, "MeanCS").tolist()
        == np.argsort(-S.mean(0), kind="stable").tolist()
    )


def test_planted_feature_ranks_first():
    """Check a feature equal to a label is ranked first by every paper-000 method."""
    rng = np.random.default_rng(5)
    Y = (rng.random((100, 1)) < 0.3).astype(int)
    X = (rng.random((100, 6)) < 0.3).astype(float)
    X[:, 4] = Y[:, 0]
    for method in SCORE_AGGREGATION:
        assert rank_features(X, Y, method, k=1, random_state=0).tolist() == [4]


def test_stochastic_methods_are_seeded(small_xy):
    """Check the same seed gives the same RaR/Random ranking, another seed another."""
    X, Y = small_xy
    for method in ["RaRCS", "Random"]:
        a = rank_features(X, Y, method, random_state=11)
        assert a.tolist() == rank_features(X, Y, method, random_state=11).tolist()
    assert (
        rank_features(X, Y, "Random", random_state=1).tolist()
        != rank_features(X, Y, "Random", random_state=2).tolist()
    )


def test_rar_accepts_weighting(small_xy):
    """Check that the RaR weighting option is accepted and validated."""
    X, Y = small_xy
    assert (
        len(rank_features(X, Y, "RaRBNS", weighting="uniform", random_state=0))
        == X.shape[1]
    )
    with pytest.raises(ConfigError, match="weighting"):
        rank_features(X, Y, "RaRBNS", weighting="zipf", random_state=0)


def test_af_keeps_file_order(small_xy):
    """Check that AF returns the features in file order."""
    X, Y = small_xy
    assert rank_features(X, Y, "AF").tolist() == list(range(X.shape[1]))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "MaxXS"}, "unknown method 'MaxXS'"),
        ({"method": "MaxCS", "k": 0}, "k must be at least 1"),
        ({"method": "MaxCS", "k": 99}, "larger than the number of features"),
        ({"method": "MaxCS", "bins": 3}, "unknown parameter"),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs, match, small_xy):
    """Check that bad method names, k values and options raise ConfigError with a clear
    message.
    """
    X, Y = small_xy
    method = kwargs.pop("method")
    with pytest.raises(ConfigError, match=match):
        rank_features(X, Y, method, **kwargs)


def test_bad_inputs_raise_clear_errors():
    """Check that non-binary labels, NaN features and mismatched rows are rejected."""
    X = np.ones((3, 2))
    with pytest.raises(ConfigError, match="binary"):
        rank_features(X, np.array([[0], [2], [1]]), "MaxCS")
    with pytest.raises(ConfigError, match="NaN"):
        rank_features(np.array([[np.nan, 1]] * 3), np.array([[0], [1], [1]]), "MaxCS")
    with pytest.raises(ConfigError, match="rows"):
        rank_features(X, np.array([[0], [1]]), "MaxCS")


def test_rank_filter_methods_equals_one_by_one(small_xy):
    """Check that the shared-work path gives the same rankings as each method alone."""
    from mlfs_core.selectors.filter import rank_filter_methods

    X, Y = small_xy
    together = rank_filter_methods(
        X, Y, SCORE_AGGREGATION, k=7, random_state=np.random.default_rng(9)
    )
    rng = np.random.default_rng(9)  # RaR methods consume the one generator in order
    for name in SCORE_AGGREGATION:
        alone = compute_ranking(X, Y, name, k=7, random_state=rng)
        assert together[name].order.tolist() == alone.order.tolist(), name


def test_rank_filter_methods_rejects_other_methods(small_xy):
    """Check that a non-filter name is rejected with a clear message."""
    from mlfs_core.selectors.filter import rank_filter_methods

    X, Y = small_xy
    with pytest.raises(ConfigError, match="not a measure"):
        rank_filter_methods(X, Y, ["PMU"])
