"""A scikit-learn compatible multi-label feature selector over the method registry."""

from __future__ import annotations

import pickle
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import check_scalar
from sklearn.utils.validation import check_is_fitted, validate_data

from .._random import check_rng
from .._validation import budget_from_percent, check_k, check_Y
from ..errors import ConfigError
from ._registry import as_spec
from .api import run_method

# Declarative parameter rules, in the spirit of scikit-learn's
# ``_parameter_constraints`` (whose machinery is private): each entry gives
# the keyword arguments of the public ``sklearn.utils.check_scalar``, plus
# whether None is allowed. ``method``, ``random_state`` and ``method_params``
# are checked where they are used (registry, check_rng, spec defaults).
_PARAMETER_RULES: dict[str, dict] = {
    "k": {"target_type": Integral, "min_val": 1, "none": False},
    "percentile": {
        "target_type": Real,
        "min_val": 0,
        "max_val": 100,
        "include_boundaries": "right",
        "none": True,
    },
}


def _validate_params(estimator: BaseEstimator) -> None:
    """Check the parameters of ``estimator`` against :data:`_PARAMETER_RULES`."""
    params = estimator.get_params(deep=False)
    for name, rule in _PARAMETER_RULES.items():
        rule = dict(rule)
        value = params[name]
        if value is None and rule.pop("none"):
            continue
        rule.pop("none", None)
        if isinstance(value, bool):
            raise ConfigError(f"{name} must be a number, not a bool; got {value!r}")
        try:
            check_scalar(value, name, **rule)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"invalid parameter {exc}") from None


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
    method : str, MethodSpec or callable, default="MaxCS"
        A name from :func:`mlfs_core.list_methods` (``"MaxCS"``, ``"RaRBNS"``,
        ``"PMU"``, ``"Random"``, a plug-in's method...), a :class:`MethodSpec`, or
        a plain function ``rank(X, Y, *, k, random_state, **options)``
        returning an order (see :func:`mlfs_core.selectors.register`).
    k : int, default=10
        Number of features to keep, at least 1. A ``k`` larger than the
        number of features warns and keeps every feature, as scikit-learn's
        ``SelectKBest`` does (:func:`mlfs_core.rank_features` raises instead).
        Ignored when ``percentile`` is given.
    percentile : float, optional
        Percentage of features to keep, in (0, 100]; rounded to nearest, at
        least one feature (the budgets of Spolaôr and Tsoumakas, 2013).
    random_state : int, numpy.random.Generator, numpy.random.RandomState or None
        Seed for stochastic methods (a ``RandomState`` is advanced by one draw).
    method_params : dict, optional
        Method options, e.g. ``{"weighting": "uniform"}`` or ``{"bins": 5}``.

    Attributes
    ----------
    order_ : ndarray of shape (n_selected_,)
        The selected features, best first. Only these are ranked: a greedy
        method stops after ``n_selected_`` steps.
    n_selected_ : int
        Number of selected features (from ``k`` or ``percentile``).
    scores_ : ndarray of shape (n_features_in_,)
        Score per feature (higher is better; 0 for features a greedy method
        did not rank); see :class:`mlfs_core.Ranking`.
    label_scores_ : ndarray of shape (n_labels, n_features_in_) or None
        Per-label scores for the CS/BNS family.
    criterion_path_ : ndarray of shape (n_selected_,) or None
        Greedy methods: criterion value of each feature when selected.
    n_features_in_ : int

    Notes
    -----
    A pickled selector carries the specs of the plug-ins loaded in its
    process (:func:`mlfs_core.plugins.plugin_specs`) and loads them when
    unpickled, so ``GridSearchCV(..., n_jobs=2)`` workers know a plug-in's
    methods.

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
        _validate_params(self)
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
        spec = as_spec(self.method)
        params = spec.resolve(self.method_params or {})
        n_selected = self._n_selected(X.shape[1])
        ranking = run_method(
            spec, sp.csr_matrix(X), Y, k=n_selected, rng=rng, options=params
        )
        self.n_selected_ = n_selected
        self.order_ = ranking.order[:n_selected]
        self.scores_ = ranking.scores
        self.label_scores_ = ranking.label_scores
        self.criterion_path_ = ranking.criterion_path
        return self

    def _n_selected(self, n_features: int) -> int:
        if self.percentile is not None:
            return budget_from_percent(self.percentile, n_features)
        if self.k > n_features:
            warnings.warn(
                f"k={self.k} is greater than n_features={n_features}; "
                "all features will be kept",
                UserWarning,
                stacklevel=3,
            )
            return n_features
        return check_k(self.k, n_features)

    def __reduce_ex__(self, protocol):
        from ..plugins import plugin_specs

        specs = plugin_specs()
        if not specs:
            return super().__reduce_ex__(protocol)
        # The state is pickled inside, so that the plug-ins are loaded before a
        # method object from a plug-in file is looked up.
        state = _dumps(self.__getstate__(), protocol)
        return _restore, (type(self), specs, state)

    def _get_support_mask(self):
        check_is_fitted(self, "order_")
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[self.order_] = True
        return mask

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags


def _dumps(obj, protocol) -> bytes:
    """cloudpickle (joblib's, which also pickles local functions), else pickle."""
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - older joblib vendors it
        try:
            from joblib.externals import cloudpickle
        except ImportError:
            cloudpickle = pickle
    return cloudpickle.dumps(obj, protocol=protocol)


def _restore(cls, specs, state: bytes):
    """Unpickle a selector pickled with plug-ins loaded: load them, then the state."""
    from ..plugins import ensure_plugins

    ensure_plugins(specs)
    obj = cls.__new__(cls)
    obj.__setstate__(pickle.loads(state))
    return obj
