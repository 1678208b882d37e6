"""Evaluation: splits, metrics, classifiers, protocols and the experiment runner."""

from .classifiers import (
    CLASSIFIERS,
    BinaryRelevance,
    make_classifier,
    register_classifier,
)
from .metrics import (
    METRICS,
    MetricSpec,
    compute_metrics,
    get_metric,
    higher_is_better,
    one_error,
)
from .mlknn import MLkNN
from .splits import (
    SparseLabelWarning,
    check_n_folds,
    holdout_split,
    own_split,
    stratified_kfold,
)

__all__ = [
    "CLASSIFIERS",
    "METRICS",
    "BinaryRelevance",
    "MLkNN",
    "MetricSpec",
    "SparseLabelWarning",
    "check_n_folds",
    "compute_metrics",
    "get_metric",
    "higher_is_better",
    "holdout_split",
    "make_classifier",
    "one_error",
    "own_split",
    "register_classifier",
    "stratified_kfold",
]
