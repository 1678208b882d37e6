"""Experiment configuration: plain frozen dataclasses that round-trip to TOML.

An :class:`ExperimentConfig` names the datasets, the methods, one
:class:`ProtocolConfig` and a seed. The generic presets A and B
(:data:`PROTOCOL_PRESETS`, METHODS.md section 5) are :func:`protocol_a`,
:func:`protocol_b` and :func:`protocol_preset`; in TOML ``protocol = "B"`` or
``[protocol] name = "B"`` picks one, and the table's other keys override its
defaults. Configs are read with :func:`load_config` / :func:`config_from_toml`
and written with :func:`save_config` / :func:`config_to_toml`; a config read
back equals the one written.

Every setting is stated as a constraint (:data:`PROTOCOL_OPTIONS`,
:data:`EXPERIMENT_OPTIONS`, a method's options) in the one vocabulary of
:class:`~mlfs_core.options.Option`, and filled in and checked by one factory
(:func:`protocol_fields`, :func:`experiment_fields`) that names every problem
at once.

Organised by concept: ``_constraints`` (the constraint table, the presets and
the rules between settings), ``_protocol`` (:class:`ProtocolConfig` and its
factory), ``_experiment`` (:class:`ExperimentConfig`, datasets and methods)
and ``_toml`` (reading and writing).

Example TOML::

    name = "my-study"
    seed = 0
    methods = ["MaxCS", "RaRCS", "Random", "AF"]

    [protocol]
    name = "A"
    n_folds = 10

    [[datasets]]
    path = "../shared/datasets/medical"
"""

from __future__ import annotations

from ._constraints import (
    ALL_METRICS,
    BUDGET_UNITS,
    DEFAULT_CLASSIFIER_PARAMS,
    DISCRETIZE,
    LABEL_HANDLING,
    ON_LARGE_BUDGET,
    ON_SPARSE_LABEL,
    PROTOCOL_DEFAULTS,
    PROTOCOL_OPTIONS,
    PROTOCOL_PRESETS,
    SCALING,
    SPLIT_FIELDS,
    SPLITS,
    unknown_protocol,
)
from ._experiment import (
    EXPERIMENT_OPTIONS,
    DatasetSpec,
    ExperimentConfig,
    MethodConfig,
    experiment_fields,
)
from ._protocol import (
    ClassifierConfig,
    ProtocolConfig,
    middle_budget,
    protocol_a,
    protocol_b,
    protocol_fields,
    protocol_from_table,
    protocol_preset,
)
from ._toml import (
    config_from_dict,
    config_from_toml,
    config_to_dict,
    config_to_toml,
    load_config,
    save_config,
)

__all__ = [
    "ALL_METRICS",
    "BUDGET_UNITS",
    "DEFAULT_CLASSIFIER_PARAMS",
    "DISCRETIZE",
    "EXPERIMENT_OPTIONS",
    "LABEL_HANDLING",
    "ON_LARGE_BUDGET",
    "ON_SPARSE_LABEL",
    "PROTOCOL_DEFAULTS",
    "PROTOCOL_OPTIONS",
    "PROTOCOL_PRESETS",
    "SCALING",
    "SPLITS",
    "SPLIT_FIELDS",
    "ClassifierConfig",
    "DatasetSpec",
    "ExperimentConfig",
    "MethodConfig",
    "ProtocolConfig",
    "config_from_dict",
    "config_from_toml",
    "config_to_dict",
    "config_to_toml",
    "experiment_fields",
    "load_config",
    "middle_budget",
    "protocol_a",
    "protocol_b",
    "protocol_fields",
    "protocol_from_table",
    "protocol_preset",
    "save_config",
    "unknown_protocol",
]
