"""Experiment configuration: plain frozen dataclasses that round-trip to TOML.

An :class:`ExperimentConfig` names the datasets, the methods, one
:class:`ProtocolConfig` and a seed. A protocol starts from a registered
*preset* (:data:`PROTOCOL_PRESETS`, :func:`register_protocol_preset`; the
engine's one preset is the field's protocol ``"field"``, plug-ins add theirs)
and :func:`protocol_preset` builds one; in TOML ``protocol = "field"`` or
``[protocol] name = "field"`` picks one, and the table's other keys override
its settings. Configs are read with :func:`load_config` / :func:`config_from_toml`
and written with :func:`save_config` / :func:`config_to_toml`; a config read
back equals the one written.

Every setting is stated as a constraint (:data:`PROTOCOL_OPTIONS`,
:data:`EXPERIMENT_OPTIONS`, a method's options) in the one vocabulary of
:class:`~mlfs_core.options.Option`, and filled in and checked by one factory
(:func:`protocol_fields`, :func:`experiment_fields`) that names every problem
at once.

Organised by concept: ``_presets`` and ``_preset_registry`` (the presets'
registry), ``_constraints``
(the constraint table and the rules between settings), ``_protocol``
(:class:`ProtocolConfig` and its factory), ``_experiment``
(:class:`ExperimentConfig`, datasets and methods) and ``_toml`` (reading and
writing).

Example TOML::

    name = "my-study"
    seed = 0
    methods = ["MaxCS", "RaRCS", "Random", "AF"]

    [protocol]
    name = "field"
    split = "cv"
    n_folds = 10

    [[datasets]]
    path = "../shared/datasets/medical"
"""

from __future__ import annotations

from ._constraints import (
    ALL_METRICS,
    BUDGET_UNITS,
    DEFAULT_BUDGETS,
    DEFAULT_CLASSIFIER,
    DISCRETIZE,
    LABEL_HANDLING,
    ON_LARGE_BUDGET,
    ON_SPARSE_LABEL,
    PROTOCOL_DEFAULTS,
    PROTOCOL_OPTIONS,
    SCALING,
    SPLIT_FIELDS,
    SPLITS,
)
from ._experiment import (
    EXPERIMENT_OPTIONS,
    DatasetSpec,
    ExperimentConfig,
    MethodConfig,
    experiment_fields,
)
from ._preset_registry import register_protocol_preset
from ._presets import (
    CONTROL_TESTS,
    FIELD,
    FIELD_METRICS,
    PROTOCOL_PRESETS,
    ProtocolPreset,
    protocol_preset_names,
    protocol_preset_spec,
    unknown_protocol,
    unregister_protocol_preset,
)
from ._protocol import (
    ClassifierConfig,
    ProtocolConfig,
    middle_budget,
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
from ._tuning import MAX_CANDIDATES, TuningConfig

__all__ = [
    "ALL_METRICS",
    "BUDGET_UNITS",
    "CONTROL_TESTS",
    "DEFAULT_BUDGETS",
    "DEFAULT_CLASSIFIER",
    "DISCRETIZE",
    "EXPERIMENT_OPTIONS",
    "FIELD",
    "FIELD_METRICS",
    "LABEL_HANDLING",
    "MAX_CANDIDATES",
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
    "ProtocolPreset",
    "TuningConfig",
    "config_from_dict",
    "config_from_toml",
    "config_to_dict",
    "config_to_toml",
    "experiment_fields",
    "load_config",
    "middle_budget",
    "protocol_fields",
    "protocol_from_table",
    "protocol_preset",
    "protocol_preset_names",
    "protocol_preset_spec",
    "register_protocol_preset",
    "save_config",
    "unknown_protocol",
    "unregister_protocol_preset",
]
