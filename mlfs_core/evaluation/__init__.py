"""Evaluation: the experiment config, splits, metrics, classifiers and the runner.

Organised by concept:

- :mod:`.config`: the typed experiment config, its TOML form and the protocol
  presets' registry (:func:`register_protocol_preset`, :func:`protocol_preset`);
- :mod:`.dense`: the warning for presence-based scores on dense data;
- :mod:`.splits`: cross-validation, hold-out and a dataset's own split;
- :mod:`.metrics`: one registry of metrics (:data:`METRICS`), their
  definitions and the fast paths beside them (``metrics.counts``,
  ``metrics.ranking``);
- :mod:`.classifiers`: Binary Relevance, ML-kNN and its exact neighbours;
- :mod:`.runner`: plan -> execute -> tables (:func:`plan_experiment`,
  :func:`execute_plan`, :func:`result_tables`, :func:`run_experiment`), with
  ``runner.results.verify`` and ``runner.execute.cluster`` (Dask);
- :mod:`.io` and :mod:`.outputs`: reading and writing an experiment's files.
"""

from __future__ import annotations

from .._lazy import lazy_exports

# Lazy exports (PEP 562): importing the package must not import scikit-learn,
# whose import costs about a second (the app's first page needs none of it).
_EXPORTS = {
    "TIMINGS_FILE": ".outputs",
    "TUNING_FILE": ".outputs",
    "estimate_output_bytes": ".outputs",
    "write_atomically": ".outputs",
    "write_run_files": ".outputs",
    "output_lock": ".runner.guard.lock",
    "check_text_trusted": ".runner.guard.trust",
    "REUSE_ENV": ".runner.identity",
    "escape_csv_text": ".io",
    "CLASSIFIERS": ".classifiers",
    "BinaryRelevance": ".classifiers",
    "make_classifier": ".classifiers",
    "register_classifier": ".classifiers",
    "register_metric": ".metrics",
    "METRICS": ".metrics",
    "MetricSpec": ".metrics",
    "compute_metrics": ".metrics",
    "get_metric": ".metrics",
    "higher_is_better": ".metrics",
    "one_error": ".metrics",
    "read_results": ".io",
    "read_selections": ".io",
    "MLkNN": ".classifiers.mlknn",
    "ClassifierConfig": ".config",
    "DatasetSpec": ".config",
    "ExperimentConfig": ".config",
    "MethodConfig": ".config",
    "TuningConfig": ".config",
    "ProtocolConfig": ".config",
    "config_from_toml": ".config",
    "config_to_toml": ".config",
    "load_config": ".config",
    "middle_budget": ".config",
    "PROTOCOL_PRESETS": ".config",
    "ProtocolPreset": ".config",
    "protocol_preset": ".config",
    "protocol_preset_names": ".config",
    "register_protocol_preset": ".config",
    "unregister_protocol_preset": ".config",
    "save_config": ".config",
    "DenseDataWarning": ".dense",
    "dense_warning": ".dense",
    "presence_methods": ".dense",
    "ExperimentResult": ".runner",
    "FitTask": ".runner",
    "FitValues": ".runner.execute.tasks",
    "SelectionValues": ".runner.execute.tasks",
    "Outcome": ".runner",
    "Plan": ".runner",
    "SelectionTask": ".runner",
    "execute_plan": ".runner",
    "plan_experiment": ".runner",
    "result_tables": ".runner",
    "run_experiment": ".runner",
    "SparseLabelWarning": ".splits",
    "check_n_folds": ".splits",
    "holdout_split": ".splits",
    "repeated_holdout": ".splits",
    "own_split": ".splits",
    "stratified_kfold": ".splits",
}


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)


__all__ = sorted(_EXPORTS)  # resolved lazily by __getattr__
