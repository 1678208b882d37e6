"""The two kinds of task of an experiment: one selection, one classifier fit.

Both are plain functions of arrays returning JSON-serialisable dicts, so that
joblib can ship them to worker processes (or a Dask cluster) and the cache can
store their results.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from time import perf_counter

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from .... import blas
from ....columns import REUSED
from ....errors import MLFSError, RankingError, UserCodeError
from ....selectors.api import compute_ranking
from ...classifiers import kernel_dependent, make_classifier
from ...metrics import compute_metrics


@dataclass(frozen=True)
class SelectionValues:
    """What a selection task computes. The cache stores :meth:`to_dict`.

    Attributes
    ----------
    order : list of int
        Feature indices, best first.
    seconds : float
        Time of the ranking.
    """

    order: list
    seconds: float

    def to_dict(self) -> dict:
        """The plain dict the task cache stores."""
        return {"order": list(self.order), "seconds": float(self.seconds)}

    @classmethod
    def from_dict(cls, value: Mapping) -> SelectionValues:
        """Read a cached value back."""
        return cls(list(value["order"]), float(value["seconds"]))


@dataclass(frozen=True)
class FitValues:
    """What a fit task computes. The cache stores :meth:`to_dict`.

    Attributes
    ----------
    metrics : dict
        Metric name -> value.
    fit_seconds, predict_seconds, metric_seconds : float
    n_fitted : int
        Per-label classifiers fitted (constant labels get none).
    n_not_converged : int
        Of those, how many stopped at ``max_iter``.
    max_n_iter : int or None
        The largest solver iteration count (None without an iterative solver).
    blas : str or None
        The BLAS kernel of a kernel-dependent fit (:func:`mlfs_core.blas.kernel_id`).
    reused : bool
        True when the values are an identical earlier fit's (timings 0).
    """

    metrics: dict
    fit_seconds: float
    predict_seconds: float
    metric_seconds: float
    n_fitted: int
    n_not_converged: int
    max_n_iter: int | None = None
    blas: str | None = None
    reused: bool = False

    def to_dict(self) -> dict:
        """The plain dict the task cache stores (``blas``, ``reused`` only if set)."""
        out = {
            "metrics": dict(self.metrics),
            "fit_seconds": self.fit_seconds,
            "predict_seconds": self.predict_seconds,
            "metric_seconds": self.metric_seconds,
            "n_fitted": self.n_fitted,
            "n_not_converged": self.n_not_converged,
            "max_n_iter": self.max_n_iter,
        }
        if self.blas is not None:
            out["blas"] = self.blas
        if self.reused:
            out[REUSED] = True
        return out

    @classmethod
    def from_dict(cls, value: Mapping) -> FitValues:
        """Read a cached value back (entries from older engines included).

        Examples
        --------
        >>> v = FitValues({"micro_f1": 0.5}, 1.0, 0.5, 0.1, 3, 0)
        >>> FitValues.from_dict(v.to_dict()) == v
        True
        """
        return cls(
            metrics=dict(value["metrics"]),
            fit_seconds=value["fit_seconds"],
            predict_seconds=value["predict_seconds"],
            metric_seconds=value.get("metric_seconds", float("nan")),
            n_fitted=value.get("n_fitted", 0),
            n_not_converged=value.get("n_not_converged", 0),
            max_n_iter=value.get("max_n_iter"),
            blas=value.get("blas"),
            reused=bool(value.get(REUSED, False)),
        )


def run_selection(
    X, Y, method: str, params: dict, k: int, seed: int | None, place: str = ""
) -> dict:
    """Rank the training part's features once, at the largest budget.

    ``place`` (``dataset 'emotions', fold 0, repeat 0``) is added to the
    message of a user method's error (:class:`~mlfs_core.errors.UserCodeError`,
    :class:`~mlfs_core.errors.RankingError`), in the worker, so it travels
    back with the error.

    Returns
    -------
    dict
        ``order`` (feature indices, best first, length ``k``) and ``seconds``.
    """
    start = perf_counter()
    try:
        ranking = compute_ranking(X, Y, method, k=k, random_state=seed, **params)
    except UserCodeError as exc:
        raise exc.located(place) from exc
    except RankingError as exc:
        raise RankingError(f"{exc} (on {place})" if place else str(exc)) from exc
    seconds = perf_counter() - start
    order = np.asarray(ranking.order, dtype=np.int64).tolist()
    return SelectionValues(order, seconds).to_dict()


def run_fit(
    X_train,
    Y_train,
    X_test,
    Y_test,
    *,
    classifier: tuple[str, dict],
    seed: int,
    metrics: tuple[str, ...],
    drop_constant: bool,
    scaling: str = "none",
    place: str = "",
) -> dict:
    """Train the classifier on the selected columns and score the test part.

    The classifier always gets the same representation, whatever the caller
    passed: a CSR float64 matrix with sorted indices, scaled by ``scaling``
    (see :func:`scale_pair`); liblinear gave different models for the same
    values as CSR or dense. LinearSVC's ConvergenceWarning is silenced here (a
    grid runs thousands of fits, and a preset's C and tol are kept as the preset
    states them), but every fit records its solver state: ``n_fitted``,
    ``n_not_converged`` (per-label fits that stopped at ``max_iter``) and
    ``max_n_iter``.
    Native thread pools (OpenMP, BLAS) are limited to one thread: the runner
    parallelises over tasks, and nested threads made small neighbour searches
    up to 30x slower on a busy machine. ``place`` (dataset, fold, repeat,
    budget) is added to the message of a user classifier's or metric's error.

    Returns
    -------
    dict
        ``metrics`` (name -> value), ``fit_seconds``, ``predict_seconds``,
        ``metric_seconds``, ``n_fitted``, ``n_not_converged``, ``max_n_iter``.
    """
    X_train, X_test = scale_pair(X_train, X_test, scaling)
    try:
        with threadpool_limits(limits=1):
            return _fit_and_score(
                X_train,
                Y_train,
                X_test,
                Y_test,
                classifier,
                seed,
                metrics,
                drop_constant,
            )
    except UserCodeError as exc:
        raise exc.located(place) from exc


def as_classifier_input(X) -> sp.csr_matrix:
    """The one representation every classifier gets: CSR, float64, sorted indices."""
    X = sp.csr_matrix(X, dtype=np.float64, copy=True)
    X.sum_duplicates()
    X.eliminate_zeros()
    X.sort_indices()
    return X


def scale_pair(X_train, X_test, scaling: str):
    """Scale the classifier's training and test inputs (``ProtocolConfig.scaling``).

    ``"none"`` leaves values as they are; ``"l2-rows"`` divides each row by
    its Euclidean norm (all-zero rows stay zero); ``"maxabs"`` divides each
    column by its largest absolute value in the training part (zero columns
    stay zero). Both outputs are :func:`as_classifier_input` matrices.

    Examples
    --------
    >>> a, b = scale_pair(np.array([[3.0, 4.0]]), np.array([[6.0, 8.0]]), "l2-rows")
    >>> a.toarray().round(12).tolist(), b.toarray().round(12).tolist()
    ([[0.6, 0.8]], [[0.6, 0.8]])
    """
    X_train, X_test = as_classifier_input(X_train), as_classifier_input(X_test)
    if scaling == "l2-rows":
        return _l2_rows(X_train), _l2_rows(X_test)
    if scaling == "maxabs":
        peak = np.asarray(abs(X_train).max(axis=0).todense()).ravel()
        inv = sp.diags(np.divide(1.0, peak, out=np.zeros_like(peak), where=peak > 0))
        return as_classifier_input(X_train @ inv), as_classifier_input(X_test @ inv)
    if scaling != "none":
        raise ValueError(f"scaling must be none, l2-rows or maxabs, got {scaling!r}")
    return X_train, X_test


def _l2_rows(X: sp.csr_matrix) -> sp.csr_matrix:
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    inv = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    out = X.copy()
    out.data *= np.repeat(inv, np.diff(X.indptr))
    return out


def _blame_classifier(name: str):
    """:class:`~mlfs_core._code.blame` for a classifier that is not built in."""
    from contextlib import nullcontext

    from ...._code import blame
    from ...classifiers import _BUILT_IN

    return nullcontext() if name in _BUILT_IN else blame("classifier", name)


def _fit_and_score(
    X_train, Y_train, X_test, Y_test, classifier, seed, metrics, drop_constant
) -> dict:
    name, params = classifier
    dependent = kernel_dependent(name, params)
    if dependent:
        check_kernel(name)
    model = make_classifier(name, params, random_state=seed)
    blame = _blame_classifier(name)  # a user's classifier is named if it raises
    start = perf_counter()
    with warnings.catch_warnings(), blame:
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X_train, Y_train)
    fit_seconds = perf_counter() - start
    n_fitted, n_not_converged, max_n_iter = _convergence(model, Y_train)
    start = perf_counter()
    with blame:
        Y_pred = model.predict(X_test)
        scores = model.decision_function(X_test)
    predict_seconds = perf_counter() - start
    mask = None
    if drop_constant:
        positives = np.asarray(Y_train).sum(axis=0)
        mask = (positives > 0) & (positives < Y_train.shape[0])
    start = perf_counter()
    values = compute_metrics(Y_test, Y_pred, scores, metrics=metrics, label_mask=mask)
    return FitValues(
        metrics=values,
        fit_seconds=fit_seconds,
        predict_seconds=predict_seconds,
        metric_seconds=perf_counter() - start,
        n_fitted=n_fitted,
        n_not_converged=n_not_converged,
        max_n_iter=max_n_iter,
        blas=blas.kernel_id() if dependent else None,
    ).to_dict()


def check_kernel(classifier: str) -> None:
    """Refuse to fit a kernel-dependent classifier under a kernel other than the pin.

    Raises
    ------
    MLFSError
        In a process (e.g. a Dask worker started elsewhere) whose OpenBLAS
        runs another kernel than the one :mod:`mlfs_core.blas` pinned.
    """
    if not blas.kernel_matches():
        raise MLFSError(
            f"classifier {classifier!r} depends on the BLAS kernel, and this "
            f"process runs {blas.kernel_id()} instead of the pinned "
            f"{blas.expected_kernel_id()}: start it with "
            f"OPENBLAS_CORETYPE={blas.pinned_kernel()} (or import mlfs_core before "
            "numpy), or set MLFS_BLAS_KERNEL=native everywhere to compute "
            "under each CPU's own kernel"
        )


def _convergence(model, Y_train) -> tuple[int, int, int | None]:
    if hasattr(model, "convergence"):
        return model.convergence()
    return int(np.asarray(Y_train).shape[1]), 0, None
