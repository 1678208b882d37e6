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
from .protocols import (
    ClassifierConfig,
    DatasetSpec,
    ExperimentConfig,
    MethodConfig,
    ProtocolConfig,
    config_from_toml,
    config_to_toml,
    load_config,
    protocol_a,
    protocol_b,
    save_config,
)
from .runner import ExperimentResult, run_experiment
from .splits import (
    SparseLabelWarning,
    check_n_folds,
    holdout_split,
    own_split,
    stratified_kfold,
)

__all__ = [
    "ClassifierConfig",
    "DatasetSpec",
    "ExperimentConfig",
    "ExperimentResult",
    "MethodConfig",
    "ProtocolConfig",
    "config_from_toml",
    "config_to_toml",
    "load_config",
    "protocol_a",
    "protocol_b",
    "run_experiment",
    "save_config",
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
