"""Evaluation: splits, metrics, classifiers, protocols and the experiment runner."""

from __future__ import annotations

from .._lazy import lazy_exports

# Lazy exports (PEP 562): importing the package must not import scikit-learn,
# whose import costs about a second (the app's first page needs none of it).
_EXPORTS = {
    "CLASSIFIERS": ".classifiers",
    "BinaryRelevance": ".classifiers",
    "make_classifier": ".classifiers",
    "register_classifier": ".classifiers",
    "METRICS": ".metrics",
    "MetricSpec": ".metrics",
    "compute_metrics": ".metrics",
    "get_metric": ".metrics",
    "higher_is_better": ".metrics",
    "one_error": ".metrics",
    "read_results": ".io",
    "read_selections": ".io",
    "MLkNN": ".mlknn",
    "ClassifierConfig": ".protocols",
    "DatasetSpec": ".protocols",
    "ExperimentConfig": ".protocols",
    "MethodConfig": ".protocols",
    "ProtocolConfig": ".protocols",
    "config_from_toml": ".protocols",
    "config_to_toml": ".protocols",
    "load_config": ".protocols",
    "protocol_a": ".protocols",
    "protocol_b": ".protocols",
    "save_config": ".protocols",
    "ExperimentResult": ".runner",
    "run_experiment": ".runner",
    "SparseLabelWarning": ".splits",
    "check_n_folds": ".splits",
    "holdout_split": ".splits",
    "own_split": ".splits",
    "stratified_kfold": ".splits",
}


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)


__all__ = [  # noqa: F822 - resolved lazily by __getattr__
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
    "read_results",
    "read_selections",
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
