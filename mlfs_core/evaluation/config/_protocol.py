"""The protocol: :class:`ProtocolConfig`, its factory and :func:`protocol_preset`.

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
    DEFAULT_BUDGETS,
    DEFAULT_CLASSIFIER,
    PROTOCOL_DEFAULTS,
    PROTOCOL_OPTIONS,
    SPLIT_FIELDS,
    budget_problems,
    convention_problems,
    from_table,
    preset_value,
)
from ._presets import PROTOCOL_PRESETS, protocol_preset_spec, unknown_protocol


@dataclass(frozen=True)
class ClassifierConfig:
    """A classifier by registry name (see ``evaluation.CLASSIFIERS``) and parameters.

    Inside a :class:`ProtocolConfig` the parameters not given take those its
    preset states for the classifier
    (:attr:`~._presets.ProtocolPreset.classifier_defaults`), else the
    classifier's own defaults (ML-kNN k = 10, s = 1): naming ``"mlknn"`` in a
    TOML file never inherits another classifier's parameters.
    """

    name: str = "mlknn"
    params: dict | None = None


@dataclass(frozen=True)
class ProtocolConfig:
    """How methods are evaluated on one dataset.

    Every field is checked by :func:`protocol_fields` (the constraints of
    :data:`~._constraints.PROTOCOL_OPTIONS` and the rules between fields),
    which names every problem in one :class:`~mlfs_core.errors.ConfigError`.

    Attributes
    ----------
    name : str
        A registered preset (:data:`PROTOCOL_PRESETS`, default ``"field"``,
        :data:`~._presets.FIELD`), written to the ``protocol`` column: the
        fields not given (``None``) take its settings, else the defaults of
        :data:`~._constraints.PROTOCOL_OPTIONS`, so a ``[protocol]`` table
        with only ``name = "field"`` runs the preset. Case-sensitive; a name
        not registered (after loading the installed plug-ins) is an error.
    split : {"cv", "holdout", "own", "repeated_holdout"}
        k-fold CV; one seeded stratified hold-out split; the dataset's own
        train/test split, falling back to the hold-out split when it has
        none; or ``n_holdouts`` seeded stratified random hold-out splits.
    n_folds : int
        Folds of ``"cv"``, in [2, 1000].
    n_holdouts : int
        Random splits of ``"repeated_holdout"``, in [1, 1000]; each is a
        "fold" of the results.
    test_size : float
        Test fraction of ``"holdout"`` and ``"repeated_holdout"`` (and of
        ``"own"`` without a split), in (0, 1).
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
        every fit after column selection: ``"none"`` (the default), ``"l2-rows"`` (each row divided by its Euclidean norm over
        the selected columns, the usual text normalisation; an all-zero row
        stays zero) or ``"maxabs"`` (each column divided by its largest
        absolute value in the training part; a zero column stays zero). Part
        of every fit's cache key.
    label_handling : {"keep", "drop_constant"}
        ``"drop_constant"`` leaves labels constant in the training part out
        of the metrics; ``"keep"`` scores them.
    on_sparse_label : {"warn", "error", "ignore"}
        What a label with fewer positives than folds triggers (CV only).
    metrics : tuple of str
        Names from ``evaluation.METRICS`` (default: the preset's, else
        every one of :data:`~._constraints.ALL_METRICS`); under conventions also the metric
        variants they allow (:func:`~mlfs_core.evaluation.conventions.allowed_metrics`),
        and a convention's default list replaces the default (a preset of
        conventions may bring its own list).
    evaluation : str or mapping
        ``"definition"`` (default): METHODS.md section 5 as written. Else a
        set of registered conventions (:mod:`mlfs_core.evaluation.conventions`),
        given as the TOML table ``[protocol.evaluation]`` (one ``aspect =
        choice`` per convention, or ``preset = NAME``) or as a preset's name
        or ``+``-joined convention names; stored as the canonical string.
        Conventions run on the budget-batched ML-kNN path only (an ML-kNN
        classifier on discretized codes, no scaling). Plug-ins
        register them (for example the conventions of a published method's
        own code). Part of every fit's cache key when not ``"definition"``.
    splits_dir : str, optional
        The folder of published train/test pairs that a convention's
        ``"predefined"`` split provider reads (:mod:`~mlfs_core.evaluation.predefined`);
        relative paths resolve like dataset paths. Default: ``datasets-splits``
        beside the datasets' folder.
    """  # noqa: E501

    # None: the preset's setting, else the default (protocol_fields)
    name: str = "field"
    split: str = None  # type: ignore[assignment]
    n_folds: int = None  # type: ignore[assignment]
    n_holdouts: int = None  # type: ignore[assignment]
    test_size: float = None  # type: ignore[assignment]
    budgets: tuple = None  # type: ignore[assignment]
    budget_unit: str = None  # type: ignore[assignment]
    on_large_budget: str = None  # type: ignore[assignment]
    n_repeats: int = None  # type: ignore[assignment]
    classifier: ClassifierConfig = None  # type: ignore[assignment]
    discretize: str = None  # type: ignore[assignment]
    bins: int = None  # type: ignore[assignment]
    scaling: str = None  # type: ignore[assignment]
    label_handling: str = None  # type: ignore[assignment]
    on_sparse_label: str = None  # type: ignore[assignment]
    metrics: tuple = None  # type: ignore[assignment]
    evaluation: Any = None
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
    preset = protocol_preset_spec(values["name"])
    metrics_given = values["metrics"] is not None or "metrics" in preset.settings
    for key, value in {**_FALLBACKS, **PROTOCOL_DEFAULTS, **preset.settings}.items():
        if values[key] is None:
            values[key] = value
    problems += _canonical_forms(values, preset.classifier_defaults, metrics_given)
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


_FALLBACKS = {
    "budgets": DEFAULT_BUDGETS,
    "classifier": DEFAULT_CLASSIFIER,
    "metrics": ALL_METRICS,
    "evaluation": conventions.DEFINITION,
}


def _canonical_forms(values: dict, classifier_defaults, metrics_given) -> list[str]:
    """Budgets, metrics, classifier and evaluation of ``values`` in their stored
    form (in place); the problems met on the way. A classifier's parameters
    not given take ``classifier_defaults[name]`` (the preset's), else stay
    out (the classifier's own defaults); a convention's default metric list
    applies when ``metrics_given`` is false."""
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
            classifier = from_table(ClassifierConfig, classifier, where)
        if isinstance(classifier, ClassifierConfig):
            given = dict(classifier.params or {})
            preset = classifier_defaults.get(classifier.name, {})
            classifier = ClassifierConfig(classifier.name, {**preset, **given})
        values["classifier"] = classifier
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
    if defaults and not metrics_given:
        values["metrics"] = tuple(defaults[-1])
    return problems


def middle_budget(protocol: ProtocolConfig) -> int | float:
    """The middle of a protocol's sorted budgets: the one rule for "the middle budget".

    The similarity table of an experiment and of a study is taken there
    (50 % for budgets 10..90 %); with an even number of budgets it is the
    upper of the two middle ones.

    Examples
    --------
    >>> middle_budget(protocol_preset("field", budgets=(10, 30, 50, 70, 90)))
    50
    >>> middle_budget(protocol_preset("field", budgets=(1, 2, 3, 4)))
    3
    """
    budgets = sorted(protocol.budgets)
    return budgets[len(budgets) // 2]


def protocol_preset(name: str, /, **overrides: Any) -> ProtocolConfig:
    """The protocol of the registered preset ``name``, then ``overrides``.

    The preset fills in the fields it sets that ``overrides`` does not give;
    the other fields take the defaults of
    :data:`~._constraints.PROTOCOL_OPTIONS`. Names are case-sensitive:
    ``"Field"`` is an error that suggests ``"field"`` (the name is also the
    label written to the ``protocol`` column, so one spelling per protocol
    keeps tables comparable).

    Parameters
    ----------
    name : str
        A registered preset (:data:`PROTOCOL_PRESETS`; the installed
        plug-ins are loaded once if it is not there).
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
    >>> p = protocol_preset("field", split="cv")
    >>> (p.name, p.split, p.n_folds, p.classifier.name, p.budgets[-1])
    ('field', 'cv', 10, 'mlknn', 50)
    >>> protocol_preset("Field")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mlfs_core.errors.ConfigError: protocol.name: unknown protocol 'Field'; ...
    """
    if "name" in overrides:
        raise ConfigError(
            f"protocol: the preset {name!r} is the protocol's name; pass no "
            "name= override (protocol_preset(NAME, ...) picks another preset)"
        )
    return protocol_from_table({**overrides, "name": name})


def protocol_from_table(table: Mapping | str) -> ProtocolConfig:
    """A :class:`ProtocolConfig` from a ``[protocol]`` table or a preset's name.

    ``table["name"]`` (default ``"field"``) picks the preset whose settings
    fill the keys the table does not give; ``protocol = "field"`` in TOML is
    the same as ``[protocol] name = "field"``.

    Raises
    ------
    ConfigError
        For an unknown protocol name, unknown keys and invalid values: every
        problem in one message.

    Examples
    --------
    >>> protocol_from_table({"name": "field"}).budgets[-1]
    50
    >>> protocol_from_table("field").n_holdouts
    5
    """
    if isinstance(table, str):
        table = {"name": table}
    if not isinstance(table, Mapping):
        raise ConfigError(
            f"protocol must be a table or a protocol name, got {type(table).__name__}"
        )
    name = table.get("name", "field")
    if isinstance(name, str) and name not in PROTOCOL_PRESETS:
        from ...plugins import load_plugins

        load_plugins()
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
