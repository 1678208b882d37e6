"""Multi-label classifiers: Binary Relevance over any scikit-learn classifier, ML-kNN,
classifier chains, label powerset and CART per label (:mod:`.transforms`).

:data:`CLASSIFIERS` maps the names used in experiment configs to factories
``factory(*, random_state, **params) -> estimator``; an estimator has
``fit(X, Y)``, ``predict(X) -> (n, q) 0/1`` and ``decision_function(X) ->
(n, q) scores``. Register more with :func:`register_classifier` (a plug-in
does so when loaded, see :mod:`mlfs_core.plugins`).

A classifier's parameters are stated in the one vocabulary of
:class:`~mlfs_core.options.Option` (a default and the allowed values) or by
name alone (passed on to a scikit-learn estimator, which checks it):
:func:`make_classifier` refuses an unknown parameter and a value out of range
with one error naming the classifier, the parameter, what is allowed and the
value (:func:`mlfs_core.options.resolve`).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

from ... import plugins
from ..._validation import check_XY
from ...errors import ConfigError
from ...options import Option, resolve
from . import transforms as _transforms
from .mlknn import SCALINGS, MLkNN


class BinaryRelevance(ClassifierMixin, BaseEstimator):
    """One independent binary classifier per label (Binary Relevance).

    A label with a single class in the training data gets a constant
    predictor (that class, METHODS.md section 5 A): it predicts the class
    and scores +1 / -1 (decision values) or 1 / 0 (probabilities).

    Parameters
    ----------
    estimator : scikit-learn classifier
        Cloned once per label. Scores come from its ``decision_function``
        when it has one, else from the positive column of ``predict_proba``.

    Attributes
    ----------
    estimators_ : list
        Per label, the fitted clone, or an int 0/1 for a constant label.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.svm import LinearSVC
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> Y = np.array([[0, 1], [0, 1], [1, 1], [1, 1]])
    >>> br = BinaryRelevance(LinearSVC()).fit(X, Y)
    >>> br.predict(np.array([[3.0]])).tolist()
    [[1, 1]]
    """

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, Y) -> BinaryRelevance:
        """Fit one classifier per label column of ``Y``."""
        X, Y = check_XY(X, Y)
        base = LinearSVC() if self.estimator is None else self.estimator
        self.estimators_ = [self._fit_one(base, X, Y[:, i]) for i in range(Y.shape[1])]
        self.n_labels_ = Y.shape[1]
        return self

    @staticmethod
    def _fit_one(base, X, y):
        classes = np.unique(y)
        if classes.size == 1:
            return int(classes[0])
        return clone(base).fit(X, y)

    def convergence(self) -> tuple[int, int, int | None]:
        """Solver state of the fitted per-label classifiers.

        Returns
        -------
        (n_fitted, n_not_converged, max_n_iter)
            Labels that got a fitted classifier (constant labels do not);
            those whose iterative solver stopped at ``max_iter`` (an
            estimator with ``n_iter_`` and ``max_iter``, e.g. LinearSVC,
            has converged when ``n_iter_ < max_iter``); and the largest
            ``n_iter_`` (None when no estimator reports iterations).
        """
        fitted = [e for e in self.estimators_ if not isinstance(e, int)]
        iters = [
            (int(np.max(e.n_iter_)), e.get_params().get("max_iter"))
            for e in fitted
            if getattr(e, "n_iter_", None) is not None  # None: a direct solver
        ]
        not_converged = sum(1 for n, cap in iters if cap is not None and n >= cap)
        biggest = max((n for n, _ in iters), default=None)
        return len(fitted), not_converged, biggest

    def predict(self, X) -> np.ndarray:
        """0/1 predictions of shape (n_samples, n_labels)."""
        columns = [
            np.full(X.shape[0], est) if isinstance(est, int) else est.predict(X)
            for est in self.estimators_
        ]
        return np.column_stack(columns).astype(np.int8)

    def decision_function(self, X) -> np.ndarray:
        """Real-valued label scores of shape (n_samples, n_labels)."""
        return np.column_stack([_score(est, X) for est in self.estimators_]).astype(
            float
        )


def _score(est, X) -> np.ndarray:
    if isinstance(est, int):
        return np.full(X.shape[0], 1.0 if est == 1 else -1.0)
    if hasattr(est, "decision_function"):
        return np.asarray(est.decision_function(X), dtype=float)
    return np.asarray(est.predict_proba(X), dtype=float)[:, 1]


def _linear_svc(*, random_state: int, C: float = 1.0, tol: float = 1e-4, **params):
    svc = LinearSVC(C=C, tol=tol, random_state=random_state, **params)
    return BinaryRelevance(svc)


def _logistic(*, random_state: int, **params):
    return BinaryRelevance(LogisticRegression(random_state=random_state, **params))


def _mlknn(*, random_state: int, k: int = 10, s: float = 1.0, scaling: str = "none"):
    return MLkNN(k=k, s=s, scaling=scaling)


def _br_sklearn(*, random_state: int, estimator: str, **params):
    """Binary Relevance over ``estimator``, a dotted scikit-learn class path."""
    module_name, _, class_name = estimator.rpartition(".")
    if not module_name.startswith("sklearn."):
        raise ConfigError(
            f"classifier estimator must be a scikit-learn class path such as "
            f"'sklearn.svm.LinearSVC', got {estimator!r}"
        )
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError):
        raise ConfigError(f"classifier estimator {estimator!r} not found") from None
    if "random_state" in cls().get_params():
        params = {"random_state": random_state, **params}
    return BinaryRelevance(cls(**params))


def _cart(
    *,
    random_state: int,
    criterion: str = "gini",
    max_depth: int = 0,
    min_samples_leaf: int = 1,
):
    """Binary relevance over a seeded CART tree (Breiman et al. 1984)."""
    from sklearn.tree import DecisionTreeClassifier

    tree = DecisionTreeClassifier(
        criterion=criterion,
        max_depth=None if max_depth == 0 else max_depth,
        min_samples_leaf=min_samples_leaf,
        random_state=random_state,
    )
    return BinaryRelevance(tree)


CLASSIFIERS: dict[str, Callable[..., object]] = {
    "linear_svc": _linear_svc,
    "logistic_regression": _logistic,
    "mlknn": _mlknn,
    "br": _br_sklearn,
    **_transforms.FACTORIES,
    "cart": _cart,
}
"""Classifier name -> factory ``(*, random_state, **params) -> estimator``."""


def _liblinear_uses_blas(params: dict) -> bool:
    # LIBLINEAR's dual coordinate descent calls no BLAS routine; its primal
    # trust-region Newton solver (what dual="auto" picks when n > M) does.
    return params.get("dual", "auto") is not True


# Classifier name -> does a fit's result depend on the BLAS kernel (given the
# params)? Measured by tests/core/platform: LinearSVC primal and L-BFGS
# logistic regression do; LinearSVC dual and ML-kNN (exact integer or BLAS-free
# distances) do not. Unknown classifiers are assumed to depend on it.
_KERNEL_DEPENDENT: dict[str, Callable[[dict], bool]] = {
    "linear_svc": _liblinear_uses_blas,
    "logistic_regression": lambda params: True,
    "mlknn": lambda params: False,
    "br": lambda params: True,
    # not measured: assumed to depend on it (the safe side)
    **{name: (lambda params: True) for name in ("cc", "lp", "cart")},
}


_BUILT_IN = frozenset(CLASSIFIERS)

LINEAR_SVC_OPTIONS = (
    Option("C", 1.0, low=0.0, closed="neither", help="inverse of the regularisation"),
    Option("tol", 1e-4, low=0.0, closed="neither", help="stopping tolerance"),
)
"""The parameters of ``"linear_svc"`` that the engine checks, with
scikit-learn's defaults (a protocol preset may give others,
:class:`~mlfs_core.evaluation.ProtocolPreset`); its other LinearSVC
parameters are passed on, and LinearSVC checks them."""
MLKNN_OPTIONS = (
    Option("k", 10, low=1, help="neighbours (clipped to the training size - 1)"),
    Option("s", 1.0, low=0.0, help="Laplace smoothing"),
    Option("scaling", "none", choices=SCALINGS, help="feature scaling"),
)
"""The parameters of ``"mlknn"``."""

# The parameters of each classifier: Options (checked, with defaults) and
# names passed on to a scikit-learn estimator. A factory missing here is read
# from its signature (classifier_parameters).
_PARAMETERS: dict[str, Callable[[], tuple[Option | str, ...]]] = {
    "linear_svc": lambda: (*LINEAR_SVC_OPTIONS, *_estimator_params(LinearSVC)),
    "logistic_regression": lambda: _estimator_params(LogisticRegression),
    "mlknn": lambda: MLKNN_OPTIONS,
    **{name: (lambda o=o: o) for name, o in _transforms.OPTIONS.items()},
}
_VERSIONS: dict[str, str] = {}


def _estimator_params(cls) -> tuple[str, ...]:
    fixed = {o.name for o in LINEAR_SVC_OPTIONS} if cls is LinearSVC else set()
    return tuple(
        p for p in cls().get_params() if p != "random_state" and p not in fixed
    )


def register_classifier(
    name: str,
    factory: Callable[..., object],
    *,
    kernel_dependent: bool = True,
    parameters=None,
    version: str = "",
) -> None:
    """Make ``factory`` available to experiment configs under ``name``.

    Parameters
    ----------
    name : str
        The name experiment configs use.
    factory : callable
        ``factory(*, random_state, **params) -> estimator``.
    kernel_dependent : bool, default=True
        Whether the estimator's results may depend on the BLAS kernel (it calls
        BLAS routines whose summation order is the CPU's: most iterative
        solvers do). Such fits always run under the pinned kernel (see
        :mod:`mlfs_core.blas`). Say False only for a classifier shown to give
        bit-identical results under every kernel.
    parameters : sequence of Option or str, optional
        The parameters the factory accepts: an
        :class:`~mlfs_core.options.Option` states one with its default and
        allowed values (checked by :func:`make_classifier`), a name alone one
        the factory checks itself. By default they are read from the
        factory's signature (names alone; any name for ``**params``).
    version : str, default=""
        Version of the implementation; with a digest of the factory's file it
        enters the cache keys of this classifier's fits.
    """
    CLASSIFIERS[name] = factory
    _KERNEL_DEPENDENT[name] = lambda params, dep=bool(kernel_dependent): dep
    if parameters is not None:
        _PARAMETERS[name] = lambda names=tuple(parameters): names
    else:
        _PARAMETERS.pop(name, None)
    _VERSIONS[name] = str(version)


def _unregister_classifier(name: str) -> None:
    """Remove a classifier added by :func:`register_classifier`."""
    if name in _BUILT_IN:
        raise ConfigError(f"{name!r} is a built-in classifier and cannot be removed")
    if name not in CLASSIFIERS:
        raise ConfigError(f"no classifier called {name!r} is registered")
    del CLASSIFIERS[name]
    for table in (_KERNEL_DEPENDENT, _PARAMETERS, _VERSIONS):
        table.pop(name, None)


def classifier_parameters(name: str) -> tuple[str, ...] | None:
    """The names of the parameters classifier ``name`` accepts (None: any).

    Examples
    --------
    >>> classifier_parameters("mlknn")
    ('k', 's', 'scaling')
    """
    declared = _declared(name)
    if declared is None:
        return None
    return tuple(p if isinstance(p, str) else p.name for p in declared)


def _declared(name: str) -> tuple[Option | str, ...] | None:
    """The parameters of classifier ``name`` as declared (None: any name)."""
    if name in _PARAMETERS:
        return tuple(_PARAMETERS[name]())
    try:
        signature = inspect.signature(CLASSIFIERS[name])
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = []
    for p in signature.parameters.values():
        if p.kind is inspect.Parameter.VAR_KEYWORD:
            return None
        if p.kind in kinds and p.name != "random_state":
            names.append(p.name)
    return tuple(names)


def classifier_identity(name: str) -> dict | None:
    """Part of a fit's cache key identifying a registered classifier's code.

    None for the built-in classifiers (their keys stay as they were); else
    its ``version`` and the SHA-256 of the file defining its factory.
    """
    from ..._code import source_digest

    factory = CLASSIFIERS.get(name)
    if name in _BUILT_IN or factory is None:
        return None
    return {"version": _VERSIONS.get(name, ""), "code": source_digest(factory)}


def kernel_dependent(name: str, params: dict | None = None) -> bool:
    """Whether classifier ``name`` with ``params`` gives values that follow the kernel.

    Parameters
    ----------
    name : str
    params : dict, optional

    Returns
    -------
    bool

    Examples
    --------
    >>> kernel_dependent("linear_svc"), kernel_dependent("linear_svc", {"dual": True})
    (True, False)
    >>> kernel_dependent("mlknn")
    False
    """
    rule = _KERNEL_DEPENDENT.get(name)
    return True if rule is None else bool(rule(dict(params or {})))


def make_classifier(name: str, params: dict | None = None, *, random_state: int = 0):
    """Build the classifier ``name`` with ``params``.

    Its declared parameters (:func:`classifier_parameters`) take their
    defaults where ``params`` does not give them.

    Raises
    ------
    ConfigError
        For an unknown name, an unknown parameter or a value a parameter does
        not allow (every problem named), or parameters the factory refuses.
    """
    if name not in CLASSIFIERS:
        from ..._code import on_unknown_name  # a plug-in may register it

        on_unknown_name()
    try:
        factory = CLASSIFIERS[name]
    except KeyError:
        known = ", ".join(CLASSIFIERS)
        raise ConfigError(f"unknown classifier {name!r}; known: {known}") from None
    params = dict(params or {})
    declared = _declared(name)
    if declared is not None:  # else a factory taking **params checks them
        params = resolve(declared, params, owner=f"classifier {name!r}: ")
    try:
        return factory(random_state=random_state, **params)
    except TypeError as exc:
        raise ConfigError(f"classifier {name!r}: bad parameters: {exc}") from None


def _export(name: str) -> tuple:
    params = _PARAMETERS.get(name)
    return (
        CLASSIFIERS[name],
        kernel_dependent(name, {}),
        None if params is None else tuple(params()),
        _VERSIONS.get(name, ""),
    )


def _restore(name: str, payload: tuple) -> None:
    """Register a classifier a parent process sent (:mod:`mlfs_core.plugins`)."""
    factory, dependent, parameters, version = payload
    register_classifier(
        name,
        factory,
        kernel_dependent=dependent,
        parameters=parameters,
        version=version,
    )


plugins.add_registry(
    plugins.Registry(
        "classifiers", CLASSIFIERS, _BUILT_IN, _unregister_classifier, _export, _restore
    )
)

__all__ = [
    "CLASSIFIERS",
    "LINEAR_SVC_OPTIONS",
    "MLKNN_OPTIONS",
    "SCALINGS",
    "BinaryRelevance",
    "MLkNN",
    "classifier_identity",
    "classifier_parameters",
    "kernel_dependent",
    "make_classifier",
    "register_classifier",
    "unregister_classifier",
]
