"""The metrics of :func:`~.metrics.compute_metrics` without scikit-learn's checks.

Protocol B scores hundreds of small ML-kNN predictions; scikit-learn's input
validation (target-type detection, CSR conversion, label checks) cost about
15 ms per call, more than the fit. :func:`lean_metrics` computes the same
values from the 0/1 arrays directly, with the same formulas and the same
floating-point operations in the same order, so every value is bit-identical
to :func:`~.metrics.compute_metrics` (tested on random and real predictions).
The counts every threshold metric needs (true positives, predicted and true
positives per label and per sample) are computed once per call.

Single-label inputs (after the label mask) go to ``compute_metrics``, whose
padding and binary conventions apply there.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import compute_metrics, one_error
from .ranking import average_precision, ranking_loss


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
    if Y.shape[1] < 2 or Y.shape[0] == 0 or any(n not in _LEAN for n in names):
        return compute_metrics(Y, P, S, metrics=names)
    counts = _Counts(Y != 0, P != 0)
    return {n: _LEAN[n](counts, Y, S) for n in names}


class _Counts:
    """True positives, predicted and true positives, per label and per sample."""

    def __init__(self, Y: np.ndarray, P: np.ndarray):
        both = Y & P
        self.shape = Y.shape
        self.tp_label, self.tp_sample = both.sum(axis=0), both.sum(axis=1)
        self.pred_label, self.pred_sample = P.sum(axis=0), P.sum(axis=1)
        self.true_label, self.true_sample = Y.sum(axis=0), Y.sum(axis=1)
        self.wrong_sample = (Y != P).sum(axis=1)


def _f_score(tp, true, pred) -> np.ndarray:
    # scikit-learn: (1 + beta^2) tp / (beta^2 true + pred), 0 where undefined.
    denom = 1.0 * np.asarray(true, dtype=np.float64) + np.asarray(pred, np.float64)
    zero = denom == 0
    denom[zero] = 1
    out = (2.0 * np.asarray(tp, dtype=np.float64)) / denom
    out[zero] = 0.0
    return out


def _micro_f1(c: _Counts, Y, S) -> float:
    f = _f_score(
        np.reshape(c.tp_label.sum(), (1,)),
        np.reshape(c.true_label.sum(), (1,)),
        np.reshape(c.pred_label.sum(), (1,)),
    )
    return float(np.mean(f))


def _macro_f1(c: _Counts, Y, S) -> float:
    return float(np.mean(_f_score(c.tp_label, c.true_label, c.pred_label)))


def _example_f1(c: _Counts, Y, S) -> float:
    return float(np.mean(_f_score(c.tp_sample, c.true_sample, c.pred_sample)))


def _hamming(c: _Counts, Y, S) -> float:
    n, q = c.shape
    return float(int(c.wrong_sample.sum())) / (n * q * 1.0)


def _jaccard(c: _Counts, Y, S) -> float:
    union = c.true_sample + c.pred_sample - c.tp_sample
    zero = union == 0
    denom = union.astype(np.float64)
    denom[zero] = 1
    out = c.tp_sample.astype(np.float64) / denom
    out[zero] = 0.0
    return float(np.average(out))


def _subset_accuracy(c: _Counts, Y, S) -> float:
    return float(np.average(c.wrong_sample == 0))


def _coverage(c: _Counts, Y, S) -> float:
    relevant = Y != 0
    lowest = np.where(relevant, S, np.inf).min(axis=1, keepdims=True)
    depth = np.where(relevant.any(axis=1), (S >= lowest).sum(axis=1), 0)
    return float(np.average(depth))


_LEAN = {
    "micro_f1": _micro_f1,
    "macro_f1": _macro_f1,
    "example_f1": _example_f1,
    "hamming_loss": _hamming,
    "ranking_loss": lambda c, Y, S: ranking_loss(Y, S),
    "coverage_error": _coverage,
    "one_error": lambda c, Y, S: one_error(Y, S),
    "average_precision": lambda c, Y, S: average_precision(Y, S),
    "jaccard_samples": _jaccard,
    "subset_accuracy": _subset_accuracy,
}
