"""A scikit-learn compatible multi-label feature selector over the method registry."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._random import check_rng
from .._validation import budget_from_percent, check_Y
from ..errors import ConfigError
from ._registry import get_method


def _as_indicator(y) -> np.ndarray:
    """Turn ``y`` into a 0/1 label matrix.

    A 2-D 0/1 matrix is used as is. A 1-D target is one-hot encoded over its
    sorted distinct values (one "label" per class), so the selector also works
    on ordinary single-label problems; a binary 1-D 0/1 target stays one label.
    """
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim == 1:
        classes, codes = np.unique(y, return_inverse=True)
        if set(classes.tolist()) <= {0, 1} and classes.size <= 2:
            return (y == 1).astype(np.int8).reshape(-1, 1)
        return np.eye(classes.size, dtype=np.int8)[codes]
    return y


class MultiLabelSelector(SelectorMixin, BaseEstimator):
    """Select features with any registered multi-label ranking method.

    Parameters
    ----------
    method : str, default="MaxCS"
        A name from :func:`mlfs_core.list_methods` (``"MaxCS"``, ``"RaRBNS"``,
        ``"PMU"``, ``"RFS"``, ...).
    k : int, default=10
        Number of features to keep (clipped to the number of features).
        Ignored when ``percentile`` is given.
    percentile : float, optional
        Percentage of features to keep, in (0, 100]; rounded to nearest, at
        least one feature (paper 000's budgets).
    random_state : int, numpy.random.Generator or None
        Seed for stochastic methods.
    method_params : dict, optional
        Method options, e.g. ``{"weighting": "uniform"}`` or ``{"bins": 5}``.

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features_in_,)
        All features, best first.
    scores_ : ndarray of shape (n_features_in_,)
        Score per feature (higher is better); see :class:`mlfs_core.Ranking`.
    label_scores_ : ndarray of shape (n_labels, n_features_in_) or None
        Per-label scores for the CS/BNS family.
    criterion_path_ : ndarray or None
        Greedy methods: criterion value of each feature when selected.
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.multiclass import OneVsRestClassifier
    >>> from sklearn.svm import LinearSVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.poisson(1.0, size=(60, 8)).astype(float)
    >>> Y = (X[:, :2] > 1).astype(int)
    >>> pipe = make_pipeline(MultiLabelSelector("MaxCS", k=2),
    ...                      OneVsRestClassifier(LinearSVC()))
    >>> _ = pipe.fit(X, Y)
    >>> sorted(pipe[0].get_support(indices=True).tolist())
    [0, 1]
    """

    def __init__(
        self,
        method="MaxCS",
        *,
        k=10,
        percentile=None,
        random_state=None,
        method_params=None,
    ):
        self.method = method
        self.k = k
        self.percentile = percentile
        self.random_state = random_state
        self.method_params = method_params

    def fit(self, X, y):
        """Rank the features of ``X`` for the labels ``y`` and keep the best.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples, n_labels) or (n_samples,)

        Returns
        -------
        self
        """
        rng = check_rng(self.random_state)
        if y is None:
            raise ConfigError(
                f"{type(self).__name__} requires y to be passed, "
                "but the target y is None"
            )
        X = validate_data(
            self, X, accept_sparse="csr", dtype=np.float64, ensure_all_finite=True
        )
        Y = check_Y(_as_indicator(y), X.shape[0], name="y")
        spec = get_method(self.method)
        params = {**spec.defaults, **(self.method_params or {})}
        unknown = set(params) - set(spec.defaults)
        if unknown:
            raise ConfigError(
                f"method {self.method!r} got unknown parameter(s) {sorted(unknown)}"
            )
        ranking = spec.rank(sp.csr_matrix(X), Y, k=X.shape[1], rng=rng, **params)
        self.ranking_ = ranking.order
        self.scores_ = ranking.scores
        self.label_scores_ = ranking.label_scores
        self.criterion_path_ = ranking.criterion_path
        return self

    def _n_selected(self) -> int:
        n = self.n_features_in_
        if self.percentile is not None:
            if not 0 < self.percentile <= 100:
                raise ConfigError(
                    f"percentile must be in (0, 100], got {self.percentile}"
                )
            return budget_from_percent(self.percentile, n)
        if (
            isinstance(self.k, bool)
            or not isinstance(self.k, (int, np.integer))
            or self.k < 1
        ):
            raise ConfigError(f"k must be a positive int, got {self.k!r}")
        return min(int(self.k), n)

    def _get_support_mask(self):
        check_is_fitted(self, "ranking_")
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[self.ranking_[: self._n_selected()]] = True
        return mask

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags
