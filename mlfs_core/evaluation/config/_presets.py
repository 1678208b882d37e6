"""The registry of protocol presets: named sets of protocol settings.

A *protocol preset* names the settings of a :class:`~.ProtocolConfig` that a
config does not give (``protocol = "field"`` or ``[protocol] name =
"field"``), the parameters a classifier gets when a config names it without
any, and how a comparison under it is tested. The engine ships one preset,
``"field"``, the protocol the multi-label feature selection literature
reports (:data:`FIELD`); plug-ins register theirs with
:func:`register_protocol_preset`, like methods, classifiers and metrics
(:mod:`mlfs_core.plugins`; the module :mod:`._preset_registry` registers and
declares the registry): a name the registry does not know triggers one
load of the installed plug-ins (the entry-point group
:data:`~mlfs_core.plugins.PLUGIN_GROUP`, and ``MLFS_PLUGINS``) before the
lookup fails.

Examples
--------
>>> preset = protocol_preset_spec("field")
>>> preset.settings["classifier"]["name"], preset.settings["budgets"][-1]
('mlknn', 50)
>>> preset.control_test
'bonferroni_dunn'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ... import plugins
from ...errors import ConfigError

CONTROL_TESTS = ("bonferroni_dunn", "nemenyi")
"""The post-hoc tests after Friedman a preset can name (Demšar 2006)."""
_NOT_SETTABLE = ("name", "splits_dir")


@dataclass(frozen=True)
class ProtocolPreset:
    """One registered protocol preset.

    Attributes
    ----------
    name : str
        The name a config gives (``[protocol] name = ...``), written to the
        results' ``protocol`` column. Case-sensitive.
    settings : dict
        (Read only.) :class:`~.ProtocolConfig` field -> value, for the fields a config
        does not give (any field but ``name`` and ``splits_dir``); the fields
        it does not set take the defaults of
        :data:`~._constraints.PROTOCOL_OPTIONS`.
    classifier_defaults : mapping
        Classifier name -> the parameters it gets under this preset when a
        config names it without ``params`` (else the classifier's own
        defaults).
    control_test : {"bonferroni_dunn", "nemenyi"}
        The post-hoc test after Friedman: each method against a control
        (Bonferroni-Dunn) or all pairs (Nemenyi), Demšar (2006).
    alpha : float
        The significance level of those tests.
    description : str
        One line for the docs, the command line and the app.
    citation : str
        Where the protocol is described.
    """

    name: str
    settings: Mapping = field(default_factory=dict)
    classifier_defaults: Mapping = field(default_factory=dict)
    control_test: str = "bonferroni_dunn"
    alpha: float = 0.05
    description: str = ""
    citation: str = ""


PROTOCOL_PRESETS: dict[str, ProtocolPreset] = {}
"""Preset name -> :class:`ProtocolPreset`, built-in and registered (live)."""

FIELD_METRICS = (
    "hamming_loss",
    "ranking_loss",
    "one_error",
    "coverage_error",
    "average_precision",
    "macro_f1",
)
"""The six metrics the field reports (their directions are the metrics
registry's ``higher_is_better``: average precision and macro-F1 up, the
four losses down)."""


def unregister_protocol_preset(name: str) -> None:
    """Remove a preset added by :func:`register_protocol_preset`.

    Raises
    ------
    ConfigError
        For a built-in preset or a name not registered.
    """
    if name in _BUILT_IN:
        raise ConfigError(
            f"{name!r} is a built-in protocol preset and cannot be removed"
        )
    if name not in PROTOCOL_PRESETS:
        raise ConfigError(f"no protocol preset called {name!r} is registered")
    del PROTOCOL_PRESETS[name]


def protocol_preset_spec(name: str) -> ProtocolPreset:
    """The registered preset ``name`` (the installed plug-ins loaded once if needed).

    Raises
    ------
    ConfigError
        For an unknown name, listing the known ones (and the name in
        another case, if registered).
    """
    if isinstance(name, str) and name not in PROTOCOL_PRESETS:
        plugins.load_plugins()
    if not isinstance(name, str) or name not in PROTOCOL_PRESETS:
        raise ConfigError(unknown_protocol(name))
    return PROTOCOL_PRESETS[name]


def protocol_preset_names() -> tuple[str, ...]:
    """The names of every preset, installed plug-ins' included, built-in first."""
    plugins.load_plugins()
    return tuple(PROTOCOL_PRESETS)


def unknown_protocol(name: object) -> str:
    """The message for a protocol name that is not a preset's.

    Examples
    --------
    >>> unknown_protocol("Field")  # doctest: +ELLIPSIS
    "protocol.name: unknown protocol 'Field'; known: field... (names are case-sensitive: did you mean 'field'?)"
    """  # noqa: E501
    known = ", ".join(PROTOCOL_PRESETS)
    message = f"protocol.name: unknown protocol {name!r}; known: {known}"
    if isinstance(name, str):
        same = [n for n in PROTOCOL_PRESETS if n.lower() == name.lower()]
        if same:
            message += f" (names are case-sensitive: did you mean {same[0]!r}?)"
    return message


FIELD = ProtocolPreset(
    "field",
    {
        "split": "repeated_holdout",
        "n_holdouts": 5,
        "test_size": 0.3,
        "budgets": tuple(range(1, 51)),
        "budget_unit": "count",
        "on_large_budget": "clip",
        "classifier": {"name": "mlknn", "params": {"k": 10, "s": 1.0}},
        "discretize": "none",
        "label_handling": "keep",
        "metrics": FIELD_METRICS,
    },
    {"mlknn": {"k": 10, "s": 1.0}},
    "bonferroni_dunn",
    0.05,
    "the field's protocol: ML-kNN (k = 10, s = 1) on the top 1..50 features, "
    "5 seeded stratified random 70/30 splits (or split = 'cv': 10-fold CV), six "
    "metrics, Friedman then Bonferroni-Dunn against the control",
    "Zhang and Zhou (2007) for ML-kNN; Demšar (2006) for the tests",
)
"""The field's protocol, the engine's one preset and the default of a config.

ML-kNN with k = 10 and smoothing s = 1 on the raw selected features (no
discretization or scaling); budgets the top 1..50 features (those above M
dropped); 5 random 70/30 splits, each stratified by iterative stratification
and seeded from the experiment's seed (``split = "cv"`` gives 10-fold CV
instead); labels constant in a training part kept; Hamming loss, ranking loss,
one-error, coverage, average precision and macro-F1 (:data:`FIELD_METRICS`);
Friedman, then Bonferroni-Dunn against the control at alpha = 0.05."""

PROTOCOL_PRESETS[FIELD.name] = FIELD
_BUILT_IN = frozenset(PROTOCOL_PRESETS)
