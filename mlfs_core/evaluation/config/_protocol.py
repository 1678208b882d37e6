"""The protocol: :class:`ProtocolConfig`, its presets' constructors and its factory.

:func:`protocol_fields` is the one place a protocol's fields are filled in (a
preset's values for the fields not given, then the defaults of
:data:`~._constraints.PROTOCOL_OPTIONS`) and checked (every problem named at
once); :class:`ProtocolConfig` stores what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..._validation import is_int
from ...errors import ConfigError
from ...options import check_all
from .. import conventions
from ._constraints import (
    ALL_METRICS,
    DEFAULT_CLASSIFIER_PARAMS,
    PROTOCOL_DEFAULTS,
    PROTOCOL_OPTIONS,
    PROTOCOL_PRESETS,
    SPLIT_FIELDS,
    budget_problems,
    convention_problems,
    from_table,
    preset_value,
    unknown_protocol,
)


@dataclass(frozen=True)
class ClassifierConfig:
    """A classifier by registry name (see ``evaluation.CLASSIFIERS``) and parameters.

    Without ``params`` a classifier gets the settings this project fixes
    for it (:data:`DEFAULT_CLASSIFIER_PARAMS`: LinearSVC C = 3, tol = 1e-3),
    else its own defaults (ML-kNN k = 10, s = 1): naming ``"mlknn"`` in a TOML
    file never inherits LinearSVC's parameters.
    """

    name: str = "linear_svc"
    params: dict | None = None

    def __post_init__(self) -> None:
        if self.params is None:
            defaults = DEFAULT_CLASSIFIER_PARAMS.get(self.name, {})
            object.__setattr__(self, "params", dict(defaults))


@dataclass(frozen=True)
class ProtocolConfig:
    """How methods are evaluated on one dataset.

    Every field is checked by :func:`protocol_fields` (the constraints of
    :data:`~._constraints.PROTOCOL_OPTIONS` and the rules between fields),
    which names every problem in one :class:`~mlfs_core.errors.ConfigError`.

    Attributes
    ----------
    name : {"A", "B"}
        The preset (:data:`PROTOCOL_PRESETS`), written to the ``protocol``
        column: the preset-controlled fields not given (``None``) take its
        values, so ``ProtocolConfig(name="B")`` equals :func:`protocol_b`
        and a ``[protocol]`` table with only ``name = "B"`` runs protocol B.
        Case-sensitive; any other name is an error.
    split : {"cv", "holdout", "own"}
        k-fold CV; one seeded stratified hold-out split; or the dataset's own
        train/test split, falling back to the hold-out split when it has none.
    n_folds : int
        Folds of ``"cv"``, in [2, 1000].
    test_size : float
        Test fraction of ``"holdout"`` (and of ``"own"`` without a split), in
        (0, 1).
    budgets : tuple of float
        Numbers of selected features, as percentages of M (``budget_unit =
        "percent"``: round to nearest, at least 1) or as counts.
    budget_unit : {"percent", "count"}
    on_large_budget : {"error", "clip"}
        A budget above M is an error, or is dropped (``"clip"``: budgets
        1..50 on a dataset with 19 features become 1..19).
    n_repeats : int
        Runs of each stochastic method (RaR, Random), with different seeds, in
        [1, 1000].
    classifier : ClassifierConfig
    discretize : {"none", "uniform", "quantile", "binary"}
        Discretization of the classifier's input, fitted on the training part.
    bins : int
        Bins of that discretization, in [2, 1000].
    scaling : {"none", "l2-rows", "maxabs"}
        Scaling of the classifier's input (the selected columns), applied in
        every fit after column selection: ``"none"`` (the setting of the
        presets), ``"l2-rows"`` (each row divided by its Euclidean norm over
        the selected columns, the usual text normalisation; an all-zero row
        stays zero) or ``"maxabs"`` (each column divided by its largest
        absolute value in the training part; a zero column stays zero). Part
        of every fit's cache key.
    label_handling : {"keep", "drop_constant"}
        ``"drop_constant"`` leaves labels constant in the training part out
        of the metrics (protocol B); ``"keep"`` scores them (protocol A).
    on_sparse_label : {"warn", "error", "ignore"}
        What a label with fewer positives than folds triggers (CV only).
    metrics : tuple of str
        Names from ``evaluation.METRICS``; under conventions also the metric
        variants they allow (:func:`~mlfs_core.evaluation.conventions.allowed_metrics`),
        and a convention's default list replaces the default (a preset of
        conventions may bring its own list).
    evaluation : str or mapping
        ``"definition"`` (default): METHODS.md section 5 as written. Else a
        set of registered conventions (:mod:`mlfs_core.evaluation.conventions`),
        given as the TOML table ``[protocol.evaluation]`` (one ``aspect =
        choice`` per convention, or ``preset = NAME``) or as a preset's name
        or ``+``-joined convention names; stored as the canonical string.
        Conventions run on the budget-batched ML-kNN path only (protocol B:
        an ML-kNN classifier on discretized codes, no scaling). Plug-ins
        register them (for example the conventions of a published method's
        own code). Part of every fit's cache key when not ``"definition"``.
    splits_dir : str, optional
        The folder of published train/test pairs that a convention's
        ``"predefined"`` split provider reads (:mod:`~mlfs_core.evaluation.predefined`);
        relative paths resolve like dataset paths. Default: ``datasets-splits``
        beside the datasets' folder.
    """  # noqa: E501

    name: str = "A"
    split: str = None  # type: ignore[assignment]  # None: the preset's
    n_folds: int = PROTOCOL_DEFAULTS["n_folds"]
    test_size: float = PROTOCOL_DEFAULTS["test_size"]
    budgets: tuple = None  # type: ignore[assignment]
    budget_unit: str = None  # type: ignore[assignment]
    on_large_budget: str = None  # type: ignore[assignment]
    n_repeats: int = None  # type: ignore[assignment]
    classifier: ClassifierConfig = None  # type: ignore[assignment]
    discretize: str = None  # type: ignore[assignment]
    bins: int = None  # type: ignore[assignment]
    scaling: str = PROTOCOL_DEFAULTS["scaling"]
    label_handling: str = None  # type: ignore[assignment]
    on_sparse_label: str = PROTOCOL_DEFAULTS["on_sparse_label"]
    metrics: tuple = ALL_METRICS
    evaluation: Any = conventions.DEFINITION
    splits_dir: str | None = None

    def __post_init__(self) -> None:
        given = {f.name: getattr(self, f.name) for f in fields(self)}
        for name, value in protocol_fields(given).items():
            object.__setattr__(self, name, value)  # frozen: the factory's values


def protocol_fields(given: Mapping[str, Any]) -> dict[str, Any]:
    """Every field of a :class:`ProtocolConfig`, filled in and checked.

    The fields ``given`` as ``None`` take the values of the preset ``name``
    picks (:data:`PROTOCOL_PRESETS`); then budgets, metrics, the classifier
    and the evaluation take their canonical form, the settings of
    :data:`~._constraints.PROTOCOL_OPTIONS` are checked and converted, and
    the rules between fields apply (budgets and their unit, conventions and
    the classifier). The fields the split does not use take the preset's
    values, so that a config read back equals the one written.

    Parameters
    ----------
    given : mapping
        Field name -> value, for every field of :class:`ProtocolConfig`.

    Returns
    -------
    dict
        Field name -> checked value.

    Raises
    ------
    ConfigError
        Every problem in one message, each naming the setting, what is
        allowed and the value given.
    """
    values = dict(given)
    problems = []
    if not isinstance(values["name"], str) or values["name"] not in PROTOCOL_PRESETS:
        problems.append(unknown_protocol(values["name"]))
    preset = PROTOCOL_PRESETS.get(values["name"], PROTOCOL_PRESETS["A"])
    for key, value in preset.items():
        if values[key] is None:
            values[key] = value
    problems += _canonical_forms(values)
    try:
        values.update(check_all(PROTOCOL_OPTIONS, values, prefix="protocol."))
    except ConfigError as exc:
        problems.append(str(exc))
    if not problems and values["evaluation"] != conventions.DEFINITION:
        problems += convention_problems(values)
    if problems:
        raise ConfigError("; ".join(problems))
    for name, splits in SPLIT_FIELDS.items():
        if values["split"] not in splits:
            values[name] = preset_value(values["name"], name)
    return values


def _canonical_forms(values: dict) -> list[str]:
    """Budgets, metrics, classifier and evaluation of ``values`` in their stored
    form (in place); the problems met on the way."""
    budgets = values["budgets"]
    if not isinstance(budgets, (str, Mapping)) and hasattr(budgets, "__iter__"):
        values["budgets"] = tuple(budgets)
    problems = budget_problems(values["budgets"], values["budget_unit"])
    if not problems:  # TOML-writable numbers
        values["budgets"] = tuple(
            int(b) if is_int(b) else float(b) for b in values["budgets"]
        )
    values["metrics"] = tuple(values["metrics"])
    classifier = values["classifier"]
    try:
        if isinstance(classifier, Mapping):
            where = "protocol.classifier"
            values["classifier"] = from_table(ClassifierConfig, classifier, where)
        evaluation = values["evaluation"]
        if isinstance(evaluation, Mapping):
            values["evaluation"] = conventions.from_table(evaluation)
        else:
            values["evaluation"] = conventions.canonical(evaluation)
    except ConfigError as exc:
        return [*problems, str(exc)]
    defaults = [
        c.default_metrics
        for c in conventions.resolve(values["evaluation"])
        if c.default_metrics is not None
    ]
    if defaults and values["metrics"] == ALL_METRICS:
        values["metrics"] = tuple(defaults[-1])
    return problems


def middle_budget(protocol: ProtocolConfig) -> int | float:
    """The middle of a protocol's sorted budgets: the one rule for "the middle budget".

    The similarity table of an experiment and of a study is taken there
    (50 % for protocol A's 10..90 %); with an even number of budgets it is
    the upper of the two middle ones.

    Examples
    --------
    >>> middle_budget(protocol_a())
    50
    >>> middle_budget(protocol_b(budgets=(1, 2, 3, 4)))
    3
    """
    budgets = sorted(protocol.budgets)
    return budgets[len(budgets) // 2]


def protocol_a(**overrides: Any) -> ProtocolConfig:
    """Protocol A: 10-fold stratified CV, 10..90 % of M, BR + LinearSVC.

    The same as ``protocol_preset("A", **overrides)``.

    Raises
    ------
    ConfigError
        For an unknown or invalid override (the message names every one).
    """
    return protocol_preset("A", **overrides)


def protocol_b(**overrides: Any) -> ProtocolConfig:
    """Protocol B: own or 60/40 split, k = 1..50, discretized ML-kNN.

    The same as ``protocol_preset("B", **overrides)``.
    """
    return protocol_preset("B", **overrides)


def protocol_preset(name: str, /, **overrides: Any) -> ProtocolConfig:
    """The protocol ``name`` (``"A"`` or ``"B"``) with its defaults, then ``overrides``.

    A preset fills in the fields of :data:`PROTOCOL_PRESETS` that ``overrides``
    does not give and nothing else; the other fields keep the
    :class:`ProtocolConfig` defaults. Names are case-sensitive: ``"b"`` is an
    error that suggests ``"B"`` (the name is also the label written to the
    ``protocol`` column, so one spelling per protocol keeps tables
    comparable).

    Parameters
    ----------
    name : str
        A key of :data:`PROTOCOL_PRESETS`.
    **overrides
        Fields of :class:`ProtocolConfig` (``name`` excepted).

    Returns
    -------
    ProtocolConfig

    Raises
    ------
    ConfigError
        For an unknown name (the message lists the known ones) or an unknown
        or invalid override (every one named).

    Examples
    --------
    >>> p = protocol_preset("B", bins=5)
    >>> (p.name, p.split, p.classifier.name, p.bins)
    ('B', 'own', 'mlknn', 5)
    >>> protocol_preset("C")
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: protocol.name: unknown protocol 'C'; known: A, B
    """
    if "name" in overrides:
        raise ConfigError(
            f"protocol: the preset {name!r} is the protocol's name; pass no "
            "name= override (protocol_preset(NAME, ...) picks another preset)"
        )
    return protocol_from_table({**overrides, "name": name})


def protocol_from_table(table: Mapping | str) -> ProtocolConfig:
    """A :class:`ProtocolConfig` from a ``[protocol]`` table or a preset's name.

    ``table["name"]`` (default ``"A"``) picks the preset whose defaults fill
    the keys the table does not give; ``protocol = "B"`` in TOML is the same
    as ``[protocol] name = "B"``.

    Raises
    ------
    ConfigError
        For an unknown protocol name, unknown keys and invalid values: every
        problem in one message.

    Examples
    --------
    >>> protocol_from_table({"name": "B"}).budgets[-1]
    50
    >>> protocol_from_table("A").n_folds
    10
    """
    if isinstance(table, str):
        table = {"name": table}
    if not isinstance(table, Mapping):
        raise ConfigError(
            f"protocol must be a table or a protocol name, got {type(table).__name__}"
        )
    name = table.get("name", "A")
    if not isinstance(name, str) or name not in PROTOCOL_PRESETS:
        problems = [unknown_protocol(name)]
        known = {f.name for f in fields(ProtocolConfig)}
        unknown = sorted(set(table) - known)
        if unknown:
            problems.append(
                f"protocol: unknown key(s) {unknown}; known: {sorted(known)}"
            )
        raise ConfigError("; ".join(problems))
    return from_table(ProtocolConfig, table, "protocol")
