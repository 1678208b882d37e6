"""The two kinds of task of an experiment: one selection, one classifier fit.

Both are plain functions of arrays returning JSON-serialisable dicts, so that
joblib can ship them to worker processes (or a Dask cluster) and the cache can
store their results.
"""

from __future__ import annotations

import warnings
from time import perf_counter

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from ..selectors.api import compute_ranking
from .classifiers import make_classifier
from .metrics import compute_metrics


def run_selection(X, Y, method: str, params: dict, k: int, seed: int | None) -> dict:
    """Rank the training part's features once, at the largest budget.

    Returns
    -------
    dict
        ``order`` (feature indices, best first, length ``k``) and ``seconds``.
    """
    start = perf_counter()
    ranking = compute_ranking(X, Y, method, k=k, random_state=seed, **params)
    seconds = perf_counter() - start
    return {
        "order": np.asarray(ranking.order, dtype=np.int64).tolist(),
        "seconds": seconds,
    }


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
) -> dict:
    """Train the classifier on the selected columns and score the test part.

    LinearSVC's ConvergenceWarning is silenced here: a grid runs thousands of
    fits, and the paper's setting (C = 3, tol = 1e-3) is kept as stated.
    Native thread pools (OpenMP, BLAS) are limited to one thread: the runner
    parallelises over tasks, and nested threads made small neighbour searches
    up to 30x slower on a busy machine.

    Returns
    -------
    dict
        ``metrics`` (name -> value), ``fit_seconds``, ``predict_seconds`` and
        ``metric_seconds``.
    """
    with threadpool_limits(limits=1):
        return _fit_and_score(
            X_train, Y_train, X_test, Y_test, classifier, seed, metrics, drop_constant
        )


def _fit_and_score(
    X_train, Y_train, X_test, Y_test, classifier, seed, metrics, drop_constant
) -> dict:
    name, params = classifier
    model = make_classifier(name, params, random_state=seed)
    start = perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X_train, Y_train)
    fit_seconds = perf_counter() - start
    start = perf_counter()
    Y_pred = model.predict(X_test)
    scores = model.decision_function(X_test)
    predict_seconds = perf_counter() - start
    mask = None
    if drop_constant:
        positives = np.asarray(Y_train).sum(axis=0)
        mask = (positives > 0) & (positives < Y_train.shape[0])
    start = perf_counter()
    values = compute_metrics(Y_test, Y_pred, scores, metrics=metrics, label_mask=mask)
    return {
        "metrics": values,
        "fit_seconds": fit_seconds,
        "predict_seconds": predict_seconds,
        "metric_seconds": perf_counter() - start,
    }
