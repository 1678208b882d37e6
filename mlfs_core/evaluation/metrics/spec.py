"""The record every metric is registered as."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MetricSpec:
    """One evaluation metric.

    Attributes
    ----------
    function : callable
        ``function(Y_true, Y_pred, scores) -> float``.
    higher_is_better : bool
        Direction of the metric (False for losses, coverage and one-error).
    needs_scores : bool
        Whether the metric uses the classifier's label scores (ranking metrics)
        rather than its 0/1 predictions.
    description : str
        One line for tables and the UI.
    """

    function: Callable[[np.ndarray, np.ndarray, np.ndarray], float]
    higher_is_better: bool
    needs_scores: bool
    description: str = ""
