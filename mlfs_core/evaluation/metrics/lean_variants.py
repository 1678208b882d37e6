"""The metric variants of :mod:`.variants` without scikit-learn's checks.

The same formulas and floating-point steps as scikit-learn's functions
(bit-identical, tested); the label counts are shared with :mod:`.lean`.
Ranking loss on 0/1 scores has a closed form: a relevant label predicted 1 is
mis-ordered against every irrelevant label predicted 1 (ties count), one
predicted 0 against every irrelevant label.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .lean import _Counts, _coverage, _f_score
from .variants import VARIANT_METRICS


def lean_variant_metrics(Y, P, variants: Sequence[str]) -> dict[str, float]:
    """Variant metrics of 0/1 predictions ``P`` against ``Y`` (at least 2 labels).

    Parameters
    ----------
    Y, P : array-like of shape (n_samples, n_labels)
        True and predicted 0/1 labels.
    variants : sequence of str
        Names from :data:`~.variants.VARIANT_METRICS`.

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
