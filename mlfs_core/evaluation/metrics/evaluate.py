"""Evaluate predictions with several metrics at once.

:func:`compute_metrics` evaluates any registered metrics
(:data:`~.registry.METRICS`, a plug-in's included) with their
:mod:`.definitions`; :func:`lean_metrics` and :func:`lean_variant_metrics`
return the same values, bit-identical, from the label counts
(:mod:`.counts`), without scikit-learn's input checks, for protocol B's
hundreds of small evaluations. Single-label inputs (after the label mask) go
to ``compute_metrics``, whose padding and binary conventions apply there.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .counts import (
    _COUNTED,
    _Counts,
    _coverage,
    _f_score,
    _label_jaccard,
    _ranking_loss_01,
    _weighted,
)
from .registry import _BUILT_IN, METRICS, VARIANT_METRICS, get_metric


def compute_metrics(
    Y_true,
    Y_pred,
    scores,
    *,
    metrics: Sequence[str] | None = None,
    label_mask=None,
) -> dict[str, float]:
    """Evaluate predictions with several metrics at once.

    Parameters
    ----------
    Y_true, Y_pred : array-like of shape (n_samples, n_labels)
        Binary true and predicted labels.
    scores : array-like of shape (n_samples, n_labels)
        Label scores (decision values or probabilities).
    metrics : sequence of str, optional
        Names from :data:`METRICS` (default all).
    label_mask : array-like of bool of shape (n_labels,), optional
        Labels to evaluate (default all). Protocol B passes the labels that
        are not constant in the training part.

    Returns
    -------
    dict
        Metric name -> value; every value is NaN when the mask keeps no label.

    Examples
    --------
    >>> out = compute_metrics([[1, 0]], [[1, 0]], [[0.9, 0.1]], metrics=["micro_f1"])
    >>> out["micro_f1"]
    1.0
    """
    names = list(METRICS) if metrics is None else list(metrics)
    specs = [get_metric(n) for n in names]
    Y_true, Y_pred = np.asarray(Y_true), np.asarray(Y_pred)
    scores = np.asarray(scores, dtype=float)
    if label_mask is not None:
        mask = np.asarray(label_mask, dtype=bool)
        Y_true, Y_pred, scores = Y_true[:, mask], Y_pred[:, mask], scores[:, mask]
    if Y_true.shape[1] == 0:
        return dict.fromkeys(names, float("nan"))
    if all(n in _BUILT_IN for n in names):
        return {n: s.function(Y_true, Y_pred, scores) for n, s in zip(names, specs)}
    from ..._code import blame  # a user's metric is named if it raises

    out = {}
    for n, s in zip(names, specs):
        if n in _BUILT_IN:
            out[n] = s.function(Y_true, Y_pred, scores)
        else:
            with blame("metric", n):
                out[n] = s.function(Y_true, Y_pred, scores)
    return out


def lean_metrics(
    Y_true: np.ndarray,
    Y_pred: np.ndarray,
    scores: np.ndarray,
    *,
    metrics: Sequence[str],
    label_mask: np.ndarray | None = None,
) -> dict[str, float]:
    """Same result as ``compute_metrics(Y_true, Y_pred, scores, ...)``, faster.

    Examples
    --------
    >>> Y, P = np.array([[1, 0], [0, 1]]), np.array([[1, 1], [0, 1]])
    >>> lean_metrics(Y, P, P * 1.0, metrics=["micro_f1", "hamming_loss"])
    {'micro_f1': 0.8, 'hamming_loss': 0.25}
    """
    names = list(metrics)
    Y, P = np.asarray(Y_true), np.asarray(Y_pred)
    S = np.asarray(scores, dtype=float)
    if label_mask is not None:
        mask = np.asarray(label_mask, dtype=bool)
        Y, P, S = Y[:, mask], P[:, mask], S[:, mask]
    if Y.shape[1] < 2 or Y.shape[0] == 0 or any(n not in _COUNTED for n in names):
        return compute_metrics(Y, P, S, metrics=names)
    counts = _Counts(Y != 0, P != 0)
    return {n: _COUNTED[n](counts, Y, S) for n in names}


def lean_variant_metrics(Y, P, variants: Sequence[str]) -> dict[str, float]:
    """Variant metrics of 0/1 predictions ``P`` against ``Y`` (at least 2 labels).

    The values of :data:`~.registry.VARIANT_METRICS`' functions,
    bit-identical, from the label counts.

    Parameters
    ----------
    Y, P : array-like of shape (n_samples, n_labels)
        True and predicted 0/1 labels.
    variants : sequence of str
        Names from :data:`~.registry.VARIANT_METRICS`.

    Returns
    -------
    dict
        Variant name -> value.
    """
    c = _Counts(np.asarray(Y) != 0, np.asarray(P) != 0)
    out = {}
    for m in variants:
        if m == "ranking_loss_on_predictions":
            out[m] = _ranking_loss_01(c)
        elif m == "weighted_f1":
            f = _f_score(c.tp_label, c.true_label, c.pred_label)
            out[m] = float(_weighted(f, c.true_label))
        elif m == "weighted_jaccard":
            out[m] = float(_weighted(_label_jaccard(c), c.true_label))
        elif m == "coverage_error_on_predictions":
            out[m] = _coverage(c, Y, np.asarray(P, dtype=np.float64))
        else:
            out[m] = VARIANT_METRICS[m].function(Y, P, P)
    return out
