"""Problem-transformation evaluators: classifier chains, label powerset, CART per label.

Besides binary relevance + linear SVM and ML-kNN, papers of the field evaluate
selected features with a classifier chain (Read et al. 2011), the label
powerset transformation (Tsoumakas and Katakis 2007) or a CART tree per label
(Breiman et al. 1984, binary relevance). Each estimator here follows the
engine's contract (``fit(X, Y)``, ``predict(X) -> (n, q) 0/1``,
``decision_function(X) -> (n, q)`` real scores for the ranking metrics),
accepts a sparse ``X`` without densifying it, and is deterministic: the same
``random_state`` gives the same bits in every process (the chain's order and
every base estimator's seed come from it, :mod:`mlfs_core._random`).

A label with one class in the training part (never or always present) gets a
constant predictor, as in :class:`~mlfs_core.evaluation.BinaryRelevance`: it
predicts that class and, in a chain, scores it +1 / -1 (as binary relevance
does for decision values); under the label powerset its marginal probability
is 1 / 0. The scores stay finite.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, clone

from ..._random import check_rng, derive_seed
from ..._validation import check_XY
from ...errors import ConfigError
from ...options import Option

_BASES = ("logistic_regression", "linear_svc")
"""The base classifiers a chain may use (each per label, seeded)."""
_POWERSET_BASES = ("logistic_regression", "cart")
"""The base classifiers of the label powerset (they must give probabilities)."""


def _base_estimator(name: str, *, random_state: int, C: float = 1.0):
    """A seeded scikit-learn binary or multi-class classifier by name.

    ``"logistic_regression"`` is L2 logistic regression (lbfgs, up to 1000
    iterations), ``"linear_svc"`` LinearSVC, both with inverse regularisation
    ``C``; ``"cart"`` a CART tree (:class:`~sklearn.tree.DecisionTreeClassifier`,
    Gini, grown fully). Each gets ``random_state``.

    Raises
    ------
    ConfigError
        For an unknown name.
    """
    if name == "logistic_regression":
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(C=C, max_iter=1000, random_state=random_state)
    if name == "linear_svc":
        from sklearn.svm import LinearSVC

        return LinearSVC(C=C, random_state=random_state)
    if name == "cart":
        from sklearn.tree import DecisionTreeClassifier

        return DecisionTreeClassifier(random_state=random_state)
    raise ConfigError(f"unknown base classifier {name!r}")


def chain_order(n_labels: int, random_state) -> np.ndarray:
    """The chain's label order: a permutation drawn from ``random_state``.

    ``check_rng(random_state).permutation(n_labels)``: the same seed gives
    the same order, another seed (usually) another.

    Examples
    --------
    >>> chain_order(4, 0).tolist() == chain_order(4, 0).tolist()
    True
    >>> sorted(chain_order(5, 1).tolist())
    [0, 1, 2, 3, 4]
    """
    return check_rng(random_state).permutation(int(n_labels))


def _score(est, X) -> np.ndarray:
    """Positive-class scores of a fitted binary estimator (a constant: +1 / -1)."""
    if isinstance(est, int):
        return np.full(X.shape[0], 1.0 if est == 1 else -1.0)
    if hasattr(est, "decision_function"):
        return np.asarray(est.decision_function(X), dtype=float)
    return np.asarray(est.predict_proba(X), dtype=float)[:, 1]


def _predict(est, X) -> np.ndarray:
    if isinstance(est, int):
        return np.full(X.shape[0], est, dtype=np.int8)
    return np.asarray(est.predict(X)).astype(np.int8)


def _augmented(X, columns: np.ndarray):
    """``X`` with ``columns`` (n, j) appended, sparse when ``X`` is."""
    if sp.issparse(X):
        return sp.hstack([X, sp.csr_matrix(columns, dtype=float)], format="csr")
    return np.hstack([np.asarray(X, dtype=float), columns.astype(float)])


class ClassifierChain(ClassifierMixin, BaseEstimator):
    """A classifier chain (Read, Pfahringer, Holmes and Frank 2011).

    Labels are learnt one after the other in a seeded random order
    (:func:`chain_order`); the classifier of the j-th label of the order sees
    the features and the j - 1 labels before it: their true values when
    fitting, the chain's own predictions (0/1) when predicting, as
    scikit-learn's :class:`~sklearn.multioutput.ClassifierChain` with
    ``cv=None``. The chain is sequential by definition, one fit per label.

    Parameters
    ----------
    base : {"logistic_regression", "linear_svc"}, default="logistic_regression"
        The per-label classifier (``_base_estimator``); scores are its
        decision values (a logistic regression's log-odds, an SVM's margin).
    C : float, default=1.0
        Its inverse regularisation.
    random_state : int, default=0
        Seeds the order and every per-label classifier (the same seed each).

    Attributes
    ----------
    order_ : ndarray of shape (n_labels,)
        Label indices in chain order.
    estimators_ : list
        Per position of the order, the fitted classifier or an int 0/1 for a
        label with one class in the training part.
    """

    def __init__(self, base="logistic_regression", C=1.0, random_state=0):
        self.base = base
        self.C = C
        self.random_state = random_state

    def fit(self, X, Y) -> ClassifierChain:
        """Fit the chain on ``X`` (dense or sparse) and the 0/1 matrix ``Y``."""
        X, Y = check_XY(X, Y)
        Y = np.asarray(Y)
        self.order_ = chain_order(Y.shape[1], self.random_state)
        seed = derive_seed(check_rng(self.random_state))
        template = _base_estimator(self.base, random_state=seed, C=self.C)
        self.estimators_ = []
        for j, label in enumerate(self.order_):
            y = Y[:, label]
            if np.unique(y).size == 1:
                self.estimators_.append(int(y[0]))
                continue
            inputs = _augmented(X, Y[:, self.order_[:j]])
            self.estimators_.append(clone(template).fit(inputs, y))
        self.n_labels_ = Y.shape[1]
        return self

    def _walk(self, X):
        """Predictions and scores along the chain, in label order."""
        n = X.shape[0]
        predicted = np.zeros((n, self.n_labels_), dtype=np.int8)
        scores = np.zeros((n, self.n_labels_))
        for j, (label, est) in enumerate(zip(self.order_, self.estimators_)):
            inputs = _augmented(X, predicted[:, self.order_[:j]])
            predicted[:, label] = _predict(est, inputs)
            scores[:, label] = _score(est, inputs)
        return predicted, scores

    def predict(self, X) -> np.ndarray:
        """0/1 predictions of shape (n_samples, n_labels)."""
        return self._walk(X)[0]

    def decision_function(self, X) -> np.ndarray:
        """Per-label scores of shape (n_samples, n_labels), higher = more likely."""
        return self._walk(X)[1]


class LabelPowerset(ClassifierMixin, BaseEstimator):
    """The label powerset transformation (Tsoumakas and Katakis 2007).

    Each distinct label set of the training part is one class of a
    multi-class classifier; a prediction is the label set of the predicted
    class, and a label's score is the probability mass of the classes whose
    label set holds it (the marginal probability), so the ranking metrics
    have real-valued scores. Label sets found only in the test part cannot
    be predicted (the transformation's known limit). With one label set in
    the training part the classifier is that constant.

    Parameters
    ----------
    base : {"logistic_regression", "cart"}, default="logistic_regression"
        The multi-class classifier (``_base_estimator``: multinomial
        logistic regression or a CART tree, both with probabilities).
    C : float, default=1.0
        The logistic regression's inverse regularisation.
    random_state : int, default=0
        Seeds the base classifier.

    Attributes
    ----------
    label_sets_ : ndarray of shape (n_classes, n_labels)
        The distinct label sets, in lexicographic order (class i is row i).
    estimator_ : estimator or None
        The fitted multi-class classifier (None with one label set).
    """

    def __init__(self, base="logistic_regression", C=1.0, random_state=0):
        self.base = base
        self.C = C
        self.random_state = random_state

    def fit(self, X, Y) -> LabelPowerset:
        """Fit on ``X`` (dense or sparse) and the 0/1 matrix ``Y``."""
        X, Y = check_XY(X, Y)
        sets, classes = np.unique(
            np.asarray(Y, dtype=np.int8), axis=0, return_inverse=True
        )
        self.label_sets_ = sets
        self.estimator_ = None
        if sets.shape[0] > 1:
            seed = derive_seed(check_rng(self.random_state))
            model = _base_estimator(self.base, random_state=seed, C=self.C)
            self.estimator_ = model.fit(X, np.ravel(classes))
        return self

    def _proba(self, X) -> np.ndarray:
        if self.estimator_ is None:
            return np.ones((X.shape[0], 1))
        proba = np.zeros((X.shape[0], self.label_sets_.shape[0]))
        proba[:, self.estimator_.classes_] = self.estimator_.predict_proba(X)
        return proba

    def predict(self, X) -> np.ndarray:
        """The label set of the most probable class (ties: the lowest class)."""
        return self.label_sets_[np.argmax(self._proba(X), axis=1)].astype(np.int8)

    def decision_function(self, X) -> np.ndarray:
        """Marginal label probabilities, shape (n_samples, n_labels)."""
        return self._proba(X) @ self.label_sets_.astype(float)


def _cc(*, random_state: int, base: str = "logistic_regression", C: float = 1.0):
    return ClassifierChain(base=base, C=C, random_state=random_state)


def _lp(*, random_state: int, base: str = "logistic_regression", C: float = 1.0):
    return LabelPowerset(base=base, C=C, random_state=random_state)


_C = Option("C", 1.0, low=0.0, closed="neither", help="inverse of the regularisation")
CC_OPTIONS = (
    Option("base", "logistic_regression", choices=_BASES, help="per-label classifier"),
    _C,
)
"""The parameters of ``"cc"`` (:class:`ClassifierChain`)."""
LP_OPTIONS = (
    Option("base", "logistic_regression", choices=_POWERSET_BASES, help="classifier"),
    _C,
)
"""The parameters of ``"lp"`` (:class:`LabelPowerset`)."""
CART_OPTIONS = (
    Option("criterion", "gini", choices=("gini", "entropy", "log_loss")),
    Option("max_depth", 0, low=0, help="depth limit (0: none)"),
    Option("min_samples_leaf", 1, low=1, help="samples in a leaf"),
)
"""The parameters of ``"cart"`` (binary relevance over a CART tree; its scores
are the trees' leaf frequencies of the positive class)."""
FACTORIES = {"cc": _cc, "lp": _lp}
"""Name -> factory of this module's classifiers (registered by the package,
which also registers ``"cart"``: binary relevance over a CART tree)."""
OPTIONS = {"cc": CC_OPTIONS, "lp": LP_OPTIONS, "cart": CART_OPTIONS}
"""Name -> their parameters."""
