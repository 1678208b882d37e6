"""Tests of the scikit-learn compatible selector."""

import numpy as np
import pytest
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from mlfs_core import rank_features
from mlfs_core.selectors.estimator import MultiLabelSelector

_SKLEARN_CHECKS = parametrize_with_checks(
    [
        MultiLabelSelector("MaxCS", k=2),
        MultiLabelSelector("RaRBNS", k=2, random_state=0),
        MultiLabelSelector("RFS", percentile=50, random_state=0),
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
    """Check that ranking_, scores_ and get_support agree with rank_features."""
    X, Y = small_xy
    sel = MultiLabelSelector("MeanBNS", k=4).fit(X, Y)
    assert sel.ranking_.tolist() == rank_features(X, Y, "MeanBNS").tolist()
    assert sorted(sel.get_support(indices=True).tolist()) == sorted(
        sel.ranking_[:4].tolist()
    )
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
    a = MultiLabelSelector("RFS", k=5, random_state=4).fit(X, Y).ranking_
    b = MultiLabelSelector("RFS", k=5, random_state=4).fit(X, Y).ranking_
    assert a.tolist() == b.tolist()


def test_unknown_method_param_raises(small_xy):
    """Check that an option the method does not take raises a ValueError."""
    X, Y = small_xy
    with pytest.raises(ValueError, match="unknown parameter"):
        MultiLabelSelector("MaxCS", method_params={"tau": 3}).fit(X, Y)
