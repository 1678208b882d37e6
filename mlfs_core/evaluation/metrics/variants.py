"""Metric variants outside the default registry: support-weighted scores and
ranking metrics of 0/1 predictions.

They are not in :data:`~mlfs_core.evaluation.metrics.METRICS` (the default
list every config, the CLI and the app offer) but are known by name to
:func:`~mlfs_core.evaluation.metrics.higher_is_better`, and an evaluation can
use them (e.g. a plug-in's evaluation conventions). Each takes ``(Y_true, Y_pred,
scores)`` like the registry's functions.

- ``weighted_f1``, ``weighted_jaccard``: per-label F1 / Jaccard averaged with
  weights proportional to each label's positives (scikit-learn's
  ``average="weighted"``, ``zero_division=0``); ``scores`` ignored.
- ``ranking_loss_on_predictions``, ``coverage_error_on_predictions``:
  scikit-learn's ranking loss and coverage error given the 0/1 predictions as
  the scores (ties count against); they need at least two labels.
"""

from __future__ import annotations

import numpy as np

from ...errors import ConfigError
from .spec import MetricSpec


def _skm():
    from sklearn import metrics  # ~1 s to import; only when a metric runs

    return metrics


def _need_two_labels(Y: np.ndarray, what: str) -> None:
    if Y.ndim != 2 or Y.shape[1] < 2:
        raise ConfigError(
            f"{what} on 0/1 predictions needs at least 2 labels after dropping "
            f"constant ones, got {Y.shape[1] if Y.ndim == 2 else Y.ndim}"
        )


def _ranking_loss_on_predictions(Y, P, S) -> float:
    _need_two_labels(Y, "ranking loss")
    return float(_skm().label_ranking_loss(Y, P))


def _coverage_on_predictions(Y, P, S) -> float:
    _need_two_labels(Y, "coverage error")
    return float(_skm().coverage_error(Y, P))


def _weighted_f1(Y, P, S) -> float:
    return float(_skm().f1_score(Y, P, average="weighted", zero_division=0))


def _weighted_jaccard(Y, P, S) -> float:
    return float(_skm().jaccard_score(Y, P, average="weighted", zero_division=0))


VARIANT_METRICS: dict[str, MetricSpec] = {
    "weighted_f1": MetricSpec(
        _weighted_f1, True, False, "per-label F1, support-weighted"
    ),
    "weighted_jaccard": MetricSpec(
        _weighted_jaccard, True, False, "per-label Jaccard, support-weighted"
    ),
    "ranking_loss_on_predictions": MetricSpec(
        _ranking_loss_on_predictions,
        False,
        False,
        "ranking loss of the 0/1 predictions",
    ),
    "coverage_error_on_predictions": MetricSpec(
        _coverage_on_predictions, False, False, "coverage error of the 0/1 predictions"
    ),
}
"""Variant name -> :class:`~mlfs_core.evaluation.metrics.MetricSpec`."""
