"""Tests of the scikit-learn compatible selector."""

import dataclasses

import numpy as np
import pytest
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlfs_core import rank_features
from mlfs_core.errors import ConfigError
from mlfs_core.selectors.estimator import MultiLabelSelector

_SKLEARN_CHECKS = parametrize_with_checks(
    [
        MultiLabelSelector(),  # the defaults: k=10 on data with fewer features
        MultiLabelSelector("MaxCS", k=2),
        MultiLabelSelector("RaRBNS", k=2, random_state=0),
        MultiLabelSelector("Random", percentile=50, random_state=0),
    ]
)
# The array-API checks only run with SCIPY_ARRAY_API=1 set before scipy is
# imported and skip otherwise; the selector converts to numpy/scipy.sparse at
# fit, so they are left out rather than reported as skipped.
_SKLEARN_CHECKS = pytest.mark.parametrize(
    _SKLEARN_CHECKS.args[0],
    [p for p in _SKLEARN_CHECKS.args[1] if "array_api" not in repr(p[1])],
    **_SKLEARN_CHECKS.kwargs,
)


@_SKLEARN_CHECKS
def test_sklearn_compatible(estimator, check):
    """Check that the selector passes scikit-learn's estimator checks."""
    check(estimator)


def test_fitted_attributes_match_rank_features(small_xy):
    """Check that order_, scores_ and get_support agree with rank_features."""
    X, Y = small_xy
    sel = MultiLabelSelector("MeanBNS", k=4).fit(X, Y)
    assert sel.order_.tolist() == rank_features(X, Y, "MeanBNS", k=4).tolist()
    assert sel.n_selected_ == 4
    assert sorted(sel.get_support(indices=True).tolist()) == sorted(sel.order_.tolist())
    assert sel.label_scores_.shape == (Y.shape[1], X.shape[1])
    assert sel.transform(X).shape == (X.shape[0], 4)


def test_percentile_rounds_to_nearest(small_xy):
    """Check that percentile keeps round(M * p / 100) features, at least one."""
    X, Y = small_xy  # 12 features
    assert MultiLabelSelector(percentile=10).fit(X, Y).transform(X).shape[1] == 1
    assert MultiLabelSelector(percentile=1).fit(X, Y).transform(X).shape[1] == 1
    assert MultiLabelSelector(percentile=50).fit(X, Y).transform(X).shape[1] == 6


def test_works_in_pipeline():
    """Check that the selector works inside a Pipeline with a multi-label classifier."""
    rng = np.random.default_rng(0)
    X = rng.poisson(1.0, size=(120, 20)).astype(float)
    Y = np.column_stack([X[:, 3] > 1, X[:, 7] > 1]).astype(int)
    pipe = Pipeline(
        [
            ("select", MultiLabelSelector("MaxCS", k=2)),
            ("clf", OneVsRestClassifier(LinearSVC())),
        ]
    ).fit(X, Y)
    assert sorted(pipe["select"].get_support(indices=True).tolist()) == [3, 7]
    assert pipe.predict(X).shape == Y.shape


def test_seed_reproducible(small_xy):
    """Check that the same random_state gives the same selection for a stochastic
    method.
    """
    X, Y = small_xy
    a = MultiLabelSelector("Random", k=5, random_state=4).fit(X, Y).order_
    b = MultiLabelSelector("Random", k=5, random_state=4).fit(X, Y).order_
    assert a.tolist() == b.tolist()


def test_unknown_method_param_raises(small_xy):
    """Check that an option the method does not take raises a ValueError."""
    X, Y = small_xy
    with pytest.raises(ValueError, match="unknown parameter"):
        MultiLabelSelector("MaxCS", method_params={"tau": 3}).fit(X, Y)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"k": -3}, "k == -3, must be >= 1"),
        ({"k": 0}, "k == 0, must be >= 1"),
        ({"k": True}, "k must be a number, not a bool"),
        ({"k": 2.5}, "k must be an instance of"),
        ({"percentile": 0}, "percentile == 0, must be > 0"),
        ({"percentile": 150}, "percentile == 150, must be <= 100"),
        ({"percentile": "10"}, "percentile must be an instance of"),
    ],
)
def test_bad_k_and_percentile_raise_at_fit(small_xy, params, match):
    """Check that k and percentile are validated at fit, naming the parameter."""
    X, Y = small_xy
    with pytest.raises(ConfigError, match=match):
        MultiLabelSelector("MaxCS", **params).fit(X, Y)


def test_k_above_n_features_warns_and_keeps_all_like_select_k_best(small_xy):
    """Check that k > M warns and keeps every feature (SelectKBest's rule), in
    the order rank_features gives, while rank_features itself stays strict."""
    X, Y = small_xy  # 12 features
    with pytest.raises(ConfigError, match="k=13 is larger"):
        rank_features(X, Y, "MaxCS", k=13)
    with pytest.warns(UserWarning, match="k=13 is greater than n_features=12"):
        sel = MultiLabelSelector("MaxCS", k=13).fit(X, Y)
    assert sel.n_selected_ == 12
    assert sel.get_support().all()
    assert sel.order_.tolist() == rank_features(X, Y, "MaxCS").tolist()


def test_random_state_accepts_a_numpy_random_state(small_xy):
    """Check that a RandomState seeds like sklearn: same state, same selection."""
    X, Y = small_xy
    a = MultiLabelSelector("RaRBNS", k=6, random_state=np.random.RandomState(3))
    b = MultiLabelSelector("RaRBNS", k=6, random_state=np.random.RandomState(3))
    assert a.fit(X, Y).order_.tolist() == b.fit(X, Y).order_.tolist()
    state = np.random.RandomState(3)
    first = MultiLabelSelector("Random", k=6, random_state=state).fit(X, Y).order_
    second = MultiLabelSelector("Random", k=6, random_state=state).fit(X, Y).order_
    assert first.tolist() != second.tolist()  # the stream advanced


@pytest.mark.parametrize("method", ["D2F", "MaxCS", "RaRBNS"])
def test_only_the_selected_number_of_features_is_ranked(small_xy, method):
    """Check that fit asks the method for k features, not all M (the selector
    takes the spec itself: a MethodSpec is a valid ``method``)."""
    from mlfs_core.selectors import get_method

    X, Y = small_xy
    asked = []
    real = get_method(method)

    def rank(*args, k, **kwargs):
        asked.append(k)
        return real.rank(*args, k=k, **kwargs)

    spy = dataclasses.replace(real, rank=rank)
    sel = MultiLabelSelector(spy, k=3, random_state=0).fit(X, Y)
    assert asked == [3]
    assert len(sel.order_) == 3
    sel = MultiLabelSelector(spy, percentile=25, random_state=0).fit(X, Y)
    assert asked == [3, 3]


def test_greedy_selector_runs_only_k_steps(small_xy):
    """Check that a greedy method's criterion path has k entries, not M."""
    X, Y = small_xy
    sel = MultiLabelSelector("D2F", k=3).fit(X, Y)
    assert sel.criterion_path_.shape == (3,)
    assert np.count_nonzero(sel.scores_) == 3
