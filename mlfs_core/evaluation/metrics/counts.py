"""The metrics computed from the label counts, without scikit-learn's checks.

Protocol B scores hundreds of small ML-kNN predictions; scikit-learn's input
validation (target-type detection, CSR conversion, label checks) cost about
15 ms per call, more than the fit. These formulas compute the values of
:mod:`.definitions` from the 0/1 arrays directly, with the same formulas and
the same floating-point operations in the same order, so every value is
bit-identical (tested on random and real predictions). The counts every
threshold metric needs (true positives, predicted and true positives per label
and per sample) are computed once (:class:`_Counts`).

Ranking loss on 0/1 scores has a closed form: a relevant label predicted 1 is
mis-ordered against every irrelevant label predicted 1 (ties count), one
predicted 0 against every irrelevant label.
"""

from __future__ import annotations

import numpy as np

from .definitions import one_error
from .ranking import average_precision, ranking_loss


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


_COUNTED = {
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
"""Metric name -> its formula over ``(counts, Y, S)``."""


def _ranking_loss_01(c) -> float:
    n, q = c.shape
    t1 = c.tp_sample.astype(np.int64)  # relevant, predicted
    t0 = c.true_sample - t1  # relevant, not predicted
    f1 = c.pred_sample - t1  # irrelevant, predicted
    n_pos = c.true_sample
    loss = (t0 * (q - n_pos) + t1 * f1).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        loss /= (q - n_pos) * n_pos
    loss[np.logical_or(n_pos == 0, n_pos == q)] = 0.0
    return float(np.average(loss))


def _label_jaccard(c) -> np.ndarray:
    denom = c.true_label + c.pred_label - c.tp_label
    zero = denom == 0
    out = c.tp_label.astype(np.float64) / np.where(zero, 1, denom).astype(np.float64)
    out[zero] = 0.0
    return out


def _weighted(values: np.ndarray, weights: np.ndarray) -> float:
    if not np.any(weights):
        return np.average(values)
    return np.average(values, weights=weights)
