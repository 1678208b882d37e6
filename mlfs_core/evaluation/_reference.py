"""Protocol B under ``evaluation = "reference-code"``: the runner's side.

The conventions themselves live in :mod:`.reference_code` (documented there
one by one); this module applies them in the runner:

- :func:`reference_dataset`: with ``split = "own"``, a dataset with a Mulan
  predefined train/test pair is loaded from it (same features as the full
  file, train rows first, ``Dataset.split`` set); the pairs are read from
  ``$MLFS_SPLITS`` or from ``datasets-splits`` beside the datasets folder
  (``../shared/datasets-splits``). Datasets without a pair keep the
  protocol's fallback split (seeded hold-out).
- :func:`reference_predictions` and :func:`lean_reference_metrics`: the
  prediction rule and the metrics of the fits (the runner's budget-batched
  path computes the neighbour counts, with each training sample its own
  neighbour, and picks the labels each convention keeps).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .metrics.lean import (
    _Counts,
    _coverage,
    _f_score,
    _hamming,
    _subset_accuracy,
)
from .reference_code import (
    REFERENCE_METRICS,
    load_predefined_split,
    predefined_split_folder,
)

REFERENCE = "reference-code"


def splits_folder(dataset_path: Path) -> Path | None:
    """The folder of predefined pairs for a dataset at ``dataset_path``, if any."""
    env = os.environ.get("MLFS_SPLITS")
    folder = Path(env) if env else Path(dataset_path).resolve().parent.parent
    folder = folder if env else folder / "datasets-splits"
    return folder if folder.is_dir() else None


def reference_dataset(ds, path: Path):
    """``ds`` as loaded from its predefined train/test pair, or ``ds`` itself."""
    folder = splits_folder(path)
    if folder is None or predefined_split_folder(path, splits_dir=folder) is None:
        return ds
    return load_predefined_split(path, splits_dir=folder, features_like=ds)


def reference_predictions(
    prior: np.ndarray, cond_pos: np.ndarray, cond_neg: np.ndarray, counts
) -> np.ndarray:
    """scikit-multilearn's rule: 1 where P(H1) P(E_c|H1) >= P(H0) P(E_c|H0)."""
    labels = np.arange(counts.shape[1])[None, :]
    pos = prior * cond_pos[labels, counts]
    neg = (1.0 - prior) * cond_neg[labels, counts]
    return (pos >= neg).astype(np.int8)


def lean_reference_metrics(Y, P, metrics) -> dict[str, float]:
    """:data:`REFERENCE_METRICS` of 0/1 predictions without scikit-learn's checks.

    The same formulas and floating-point steps as scikit-learn's functions
    (bit-identical, tested); the counts are shared. Ranking loss on 0/1
    scores has a closed form: a relevant label predicted 1 is mis-ordered
    against every irrelevant label predicted 1 (ties count), one predicted 0
    against every irrelevant label. Needs at least two labels.
    """
    c = _Counts(np.asarray(Y) != 0, np.asarray(P) != 0)
    out = {}
    for m in metrics:
        if m == "ranking_loss":
            out[m] = _ranking_loss_01(c)
        elif m == "weighted_f1":
            f = _f_score(c.tp_label, c.true_label, c.pred_label)
            out[m] = float(_weighted(f, c.true_label))
        elif m == "weighted_jaccard":
            out[m] = float(_weighted(_label_jaccard(c), c.true_label))
        elif m == "coverage_error":
            out[m] = _coverage(c, Y, np.asarray(P, dtype=np.float64))
        elif m == "hamming_loss":
            out[m] = _hamming(c, Y, P)
        elif m == "subset_accuracy":
            out[m] = _subset_accuracy(c, Y, P)
        else:
            out[m] = REFERENCE_METRICS[m].function(Y, P, P)
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
