"""Multi-label evaluation metrics (METHODS.md section 5), each with its direction.

Every metric is a function ``f(Y_true, Y_pred, scores) -> float`` over dense
0/1 arrays of shape (n_samples, n_labels) and a real-valued score array of the
same shape (higher = more likely relevant). :data:`METRICS` maps a metric
name to a :class:`MetricSpec` and is the one list the runner, the CLI and the
app use. Organised by concept:

- :mod:`.registry`: the record (:class:`MetricSpec`), the registry
  (:data:`METRICS`, :func:`register_metric`), the variants' names
  (:data:`VARIANT_METRICS`), lookup (:func:`get_metric`) and direction
  (:func:`higher_is_better`);
- :mod:`.definitions`: each metric's and variant's function and the
  conventions on degenerate data (empty label sets, ties, one label);
- :mod:`.ranking`: ranking loss and average precision, vectorized;
- :mod:`.counts`: the same metrics from the label counts, bit-identical;
- :mod:`.evaluate`: several metrics at once (:func:`compute_metrics`, and
  :func:`lean_metrics` / :func:`lean_variant_metrics` from the counts).
"""

from __future__ import annotations

from .definitions import one_error
from .evaluate import compute_metrics, lean_metrics, lean_variant_metrics
from .ranking import average_precision, ranking_loss
from .registry import (
    METRICS,
    VARIANT_METRICS,
    MetricSpec,
    get_metric,
    higher_is_better,
    metric_identity,
    register_metric,
    unregister_metric,
)

__all__ = [
    "METRICS",
    "VARIANT_METRICS",
    "MetricSpec",
    "average_precision",
    "compute_metrics",
    "get_metric",
    "higher_is_better",
    "lean_metrics",
    "lean_variant_metrics",
    "metric_identity",
    "one_error",
    "ranking_loss",
    "register_metric",
    "unregister_metric",
]
