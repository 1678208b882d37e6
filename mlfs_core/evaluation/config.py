"""Experiment configuration: plain frozen dataclasses that round-trip to TOML.

An :class:`ExperimentConfig` names the datasets, the methods, one
:class:`ProtocolConfig` and a seed. The generic presets A and B
(:data:`PROTOCOL_PRESETS`, METHODS.md section 5) are :func:`protocol_a`,
:func:`protocol_b` and :func:`protocol_preset`; in TOML ``protocol = "B"`` or
``[protocol] name = "B"`` picks one, and the table's other keys override its
defaults. Configs are read with
:func:`load_config` / :func:`config_from_toml` and written with
:func:`save_config` / :func:`config_to_toml`; a config read back equals the
one written.

Example TOML::

    name = "paper000"
    seed = 0
    methods = ["MaxCS", "RaRCS", "RFS", "AF"]

    [protocol]
    name = "A"
    n_folds = 10

    [[datasets]]
    path = "../shared/datasets/medical"
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import tomli_w

from .._validation import check_int64, is_int
from ..errors import ConfigError
from ..options import Option, check_all
from . import conventions

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SPLITS = ("cv", "holdout", "own")
BUDGET_UNITS = ("percent", "count")
ON_LARGE_BUDGET = ("error", "clip")
LABEL_HANDLING = ("keep", "drop_constant")
ON_SPARSE_LABEL = ("warn", "error", "ignore")
DISCRETIZE = ("none", "uniform", "quantile", "binary")
SCALING = ("none", "l2-rows", "maxabs")
PROTOCOL_OPTIONS = (
    Option("split", "cv", choices=SPLITS, help="cross-validation, hold-out or own"),
    Option("n_folds", 10, low=2, high=1000, help="folds of the cross-validation"),
    Option("budget_unit", "percent", choices=BUDGET_UNITS),
    Option("on_large_budget", "error", choices=ON_LARGE_BUDGET),
    Option("n_repeats", 3, low=1, high=1000, help="runs of each stochastic method"),
    Option("discretize", "none", choices=DISCRETIZE),
    Option("bins", 3, low=2, high=1000, help="bins of the classifier's input"),
    Option("scaling", "none", choices=SCALING),
    Option("label_handling", "keep", choices=LABEL_HANDLING),
    Option("on_sparse_label", "warn", choices=ON_SPARSE_LABEL),
)
"""The protocol's scalar settings as :class:`~mlfs_core.options.Option` s: what
:class:`ProtocolConfig` checks (every problem reported at once), what the app's
form offers."""
ALL_METRICS = (
    "micro_f1",
    "macro_f1",
    "example_f1",
    "hamming_loss",
    "ranking_loss",
    "coverage_error",
    "one_error",
    "average_precision",
    "jaccard_samples",
    "subset_accuracy",
)


@dataclass(frozen=True)
class ClassifierConfig:
    """A classifier by registry name (see ``evaluation.CLASSIFIERS``) and parameters.

    Without ``params`` a classifier gets the papers' settings where this
    project fixes them (:data:`DEFAULT_CLASSIFIER_PARAMS`: LinearSVC C = 3,
    tol = 1e-3), else its own defaults (ML-kNN k = 10, s = 1): naming
    ``"mlknn"`` in a TOML file never inherits LinearSVC's parameters.
    """

    name: str = "linear_svc"
    params: dict | None = None

    def __post_init__(self) -> None:
        if self.params is None:
            defaults = DEFAULT_CLASSIFIER_PARAMS.get(self.name, {})
            object.__setattr__(self, "params", dict(defaults))


DEFAULT_CLASSIFIER_PARAMS = {"linear_svc": {"C": 3.0, "tol": 0.001}}
"""Parameters a classifier gets when a config names it without any."""


@dataclass(frozen=True)
class ProtocolConfig:
    """How methods are evaluated on one dataset.

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
        Folds of ``"cv"``.
    test_size : float
        Test fraction of ``"holdout"`` (and of ``"own"`` without a split).
    budgets : tuple of float
        Numbers of selected features, as percentages of M (``budget_unit =
        "percent"``: round to nearest, at least 1) or as counts.
    budget_unit : {"percent", "count"}
    on_large_budget : {"error", "clip"}
        A budget above M is an error, or is dropped (``"clip"``: budgets
        1..50 on a dataset with 19 features become 1..19).
    n_repeats : int
        Runs of each stochastic method (RaR, RFS), with different seeds.
    classifier : ClassifierConfig
    discretize : {"none", "uniform", "quantile", "binary"}
        Discretization of the classifier's input, fitted on the training part.
    bins : int
        Bins of that discretization.
    scaling : {"none", "l2-rows", "maxabs"}
        Scaling of the classifier's input (the selected columns), applied in
        every fit after column selection: ``"none"`` (the papers' setting),
        ``"l2-rows"`` (each row divided by its Euclidean norm over the
        selected columns, the usual text normalisation; an all-zero row stays
        zero) or ``"maxabs"`` (each column divided by its largest absolute
        value in the training part; a zero column stays zero). Part of every
        fit's cache key.
    label_handling : {"keep", "drop_constant"}
        ``"drop_constant"`` leaves labels constant in the training part out
        of the metrics (protocol B); ``"keep"`` scores them (protocol A).
    on_sparse_label : {"warn", "error", "ignore"}
        What a label with fewer positives than folds triggers (CV only).
    metrics : tuple of str
        Names from ``evaluation.METRICS``; under conventions also the metric
        variants they allow (:func:`~.conventions.allowed_metrics`), and a
        convention's default list replaces the default (the preset
        ``"reference-code"`` has its own six).
    evaluation : str or mapping
        ``"definition"`` (default): METHODS.md section 5 as written. Else a
        set of registered conventions (:mod:`mlfs_core.evaluation.conventions`),
        given as the TOML table ``[protocol.evaluation]`` (one ``aspect =
        choice`` per convention, or ``preset = NAME``) or as a preset's name
        or ``+``-joined convention names; stored as the canonical string.
        Conventions run on the budget-batched ML-kNN path only (protocol B:
        an ML-kNN classifier on discretized codes, no scaling). The
        reproduction of paper 001's published code registers four of them
        and the preset ``"reference-code"``. Part of every fit's cache key
        when not ``"definition"``.
    splits_dir : str, optional
        The folder of published train/test pairs that a convention's
        ``"predefined"`` split provider reads (:mod:`~.predefined`);
        relative paths resolve like dataset paths. Default: ``datasets-splits``
        beside the datasets' folder.
    """

    name: str = "A"
    split: str = None  # type: ignore[assignment]  # None: the preset's
    n_folds: int = 10
    test_size: float = 0.4
    budgets: tuple = None  # type: ignore[assignment]
    budget_unit: str = None  # type: ignore[assignment]
    on_large_budget: str = None  # type: ignore[assignment]
    n_repeats: int = None  # type: ignore[assignment]
    classifier: ClassifierConfig = None  # type: ignore[assignment]
    discretize: str = None  # type: ignore[assignment]
    bins: int = None  # type: ignore[assignment]
    scaling: str = "none"
    label_handling: str = None  # type: ignore[assignment]
    on_sparse_label: str = "warn"
    metrics: tuple = ALL_METRICS
    evaluation: Any = "definition"
    splits_dir: str | None = None

    def __post_init__(self) -> None:
        problems = []
        if not isinstance(self.name, str) or self.name not in PROTOCOL_PRESETS:
            problems.append(unknown_protocol(self.name))
        preset = PROTOCOL_PRESETS.get(self.name, PROTOCOL_PRESETS["A"])
        for key, value in preset.items():  # the fields not given: the preset's
            if getattr(self, key) is None:
                if key == "classifier":
                    value = ClassifierConfig(value["name"], dict(value["params"]))
                object.__setattr__(self, key, value)
        object.__setattr__(self, "budgets", tuple(self.budgets))
        budget_problems = _budget_problems(self.budgets, self.budget_unit)
        problems += budget_problems
        if not budget_problems:
            plain = tuple(int(b) if is_int(b) else float(b) for b in self.budgets)
            object.__setattr__(self, "budgets", plain)  # TOML-writable numbers
        object.__setattr__(self, "metrics", tuple(self.metrics))
        try:
            if isinstance(self.evaluation, Mapping):
                evaluation = conventions.from_table(self.evaluation)
            else:
                evaluation = conventions.canonical(self.evaluation)
        except ConfigError as exc:
            raise ConfigError("; ".join([*problems, str(exc)])) from None
        object.__setattr__(self, "evaluation", evaluation)
        defaults = [
            c.default_metrics
            for c in conventions.resolve(evaluation)
            if c.default_metrics is not None
        ]
        if defaults and self.metrics == ALL_METRICS:
            object.__setattr__(self, "metrics", tuple(defaults[-1]))
        if isinstance(self.classifier, Mapping):
            try:
                classifier = _from_mapping(
                    ClassifierConfig, self.classifier, "protocol.classifier"
                )
            except ConfigError as exc:
                raise ConfigError("; ".join([*problems, str(exc)])) from None
            object.__setattr__(self, "classifier", classifier)
        values = {o.name: getattr(self, o.name) for o in PROTOCOL_OPTIONS}
        try:
            checked = check_all(PROTOCOL_OPTIONS, values, prefix="protocol.")
        except ConfigError as exc:
            problems.append(str(exc))
        else:
            for name, value in checked.items():
                object.__setattr__(self, name, value)
        ok = isinstance(self.test_size, (int, float)) and not isinstance(
            self.test_size, bool
        )
        if not ok or not 0.0 < float(self.test_size) < 1.0:
            problems.append(
                f"protocol.test_size must lie in (0, 1), got {self.test_size!r}"
            )
        if not problems and self.evaluation != "definition":
            try:
                self._check_conventions()
            except ConfigError as exc:
                problems.append(str(exc))
        if problems:
            raise ConfigError("; ".join(problems))
        self._reset_unused_fields()

    def _reset_unused_fields(self) -> None:
        """Give the fields the split does not use the preset's values.

        ``n_folds`` and ``on_sparse_label`` mean something under ``"cv"``
        only, ``test_size`` under ``"holdout"`` and ``"own"`` only; a saved
        config leaves them out (:func:`config_to_dict`), so resetting them
        keeps a config read back equal to the one written.
        """
        for name, splits in SPLIT_FIELDS.items():
            if self.split not in splits:
                object.__setattr__(self, name, _preset_value(self.name, name))

    def _check_conventions(self) -> None:
        name = self.classifier.name
        scaling = self.classifier.params.get("scaling", "none")
        if name != "mlknn" or self.discretize == "none" or self.scaling != "none":
            raise ConfigError(
                f"protocol.evaluation = {self.evaluation!r} is protocol B's: it needs "
                'classifier "mlknn", a discretize rule and scaling "none" (got '
                f"{name!r}, {self.discretize!r}, {self.scaling!r})"
            )
        if scaling != "none":
            raise ConfigError(
                f"protocol.evaluation = {self.evaluation!r} compares distances of "
                "discretized codes: protocol.classifier.params.scaling must be "
                f'"none", got {scaling!r}'
            )
        allowed = conventions.allowed_metrics(self.evaluation, ALL_METRICS)
        unknown = [m for m in self.metrics if m not in allowed]
        if unknown:
            raise ConfigError(
                f"protocol.metrics under evaluation = {self.evaluation!r}: "
                f"{unknown} not among {list(allowed)}"
            )


PROTOCOL_PRESETS: dict[str, dict] = {
    "A": {
        "split": "cv",
        "budgets": (10, 20, 30, 40, 50, 60, 70, 80, 90),
        "budget_unit": "percent",
        "on_large_budget": "error",
        "n_repeats": 3,
        "classifier": {"name": "linear_svc", "params": {"C": 3.0, "tol": 0.001}},
        "discretize": "none",
        "bins": 3,
        "label_handling": "keep",
    },
    "B": {
        "split": "own",
        "budgets": tuple(range(1, 51)),
        "budget_unit": "count",
        "on_large_budget": "clip",
        "n_repeats": 3,
        "classifier": {"name": "mlknn", "params": {"k": 10, "s": 1.0}},
        "discretize": "uniform",
        "bins": 3,
        "label_handling": "drop_constant",
    },
}
"""The generic protocol presets: name -> the :class:`ProtocolConfig` fields it sets.

Every preset sets the same fields; a :class:`ProtocolConfig` takes those not
given from the preset its ``name`` picks (``ProtocolConfig(name="B")`` is
:func:`protocol_b`). ``"A"`` is 10-fold stratified CV, budgets 10..90 % of M,
binary relevance + LinearSVC; ``"B"`` a train/test split (the dataset's
own, else a 60/40 hold-out), budgets k = 1..50 features and ML-kNN on
uniformly discretized features, scoring only labels that vary in the training
part (METHODS.md section 5). A config picks one with ``protocol = "B"`` or
``[protocol] name = "B"``; what the table gives overrides the preset.
"""

SPLIT_FIELDS: dict[str, tuple[str, ...]] = {
    "n_folds": ("cv",),
    "on_sparse_label": ("cv",),
    "test_size": ("holdout", "own"),
}
"""Fields that apply to some splits only: a saved config omits them elsewhere."""

_FIELD_DEFAULTS = {
    f.name: f.default for f in fields(ProtocolConfig) if f.name in SPLIT_FIELDS
}


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


def evaluation_conventions(evaluation: str) -> tuple[str, ...]:
    """The convention names an ``evaluation`` switches on (canonical order).

    Kept for old callers: :func:`mlfs_core.evaluation.conventions.names_of`.
    """
    return conventions.names_of(evaluation)


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
    return _from_mapping(ProtocolConfig, table, "protocol")


def unknown_protocol(name: object) -> str:
    """The message for a protocol name that is not a preset's.

    Examples
    --------
    >>> unknown_protocol("b")
    "protocol.name: unknown protocol 'b'; known: A, B (names are case-sensitive: did you mean 'B'?)"
    """  # noqa: E501
    known = ", ".join(PROTOCOL_PRESETS)
    message = f"protocol.name: unknown protocol {name!r}; known: {known}"
    if isinstance(name, str) and name.upper() in PROTOCOL_PRESETS:
        message += f" (names are case-sensitive: did you mean {name.upper()!r}?)"
    return message


def _preset_value(protocol: str, name: str):
    preset = PROTOCOL_PRESETS.get(protocol, {})
    if name in preset:
        return preset[name]
    return _FIELD_DEFAULTS[name]


@dataclass(frozen=True)
class DatasetSpec:
    """A dataset by path (file or folder) or the name ``"sample"``, with label hints.

    Relative paths are looked up against the current directory first, then
    against the folder of the config file.
    """

    path: str
    name: str | None = None
    labels: tuple | None = None
    label_count: int | None = None
    label_prefix: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.labels, str):  # one name, not its letters
            object.__setattr__(self, "labels", (self.labels,))
        elif self.labels is not None:
            object.__setattr__(self, "labels", tuple(self.labels))


@dataclass(frozen=True)
class MethodConfig:
    """A registered ranking method with its parameters.

    ``label`` names the method in the results (default ``name``), so one
    method can appear twice with different parameters.
    """

    name: str
    params: dict = field(default_factory=dict)
    label: str | None = None

    @property
    def display(self) -> str:
        """The name used in the ``method`` column."""
        return self.label or self.name


@dataclass(frozen=True)
class ExperimentConfig:
    """Datasets x methods under one protocol, with one seed.

    ``datasets`` items may be :class:`DatasetSpec`, path strings, or
    in-memory ``mlfs_core.data.Dataset`` objects (uploads; these cannot be
    written to TOML). ``methods`` items may be :class:`MethodConfig` or names.
    ``plugins`` are loaded first (:func:`mlfs_core.plugins.config_plugins`:
    module names or ``.py`` paths, relative to the config's folder).
    """

    datasets: tuple
    methods: tuple
    protocol: ProtocolConfig = field(default_factory=ProtocolConfig)
    seed: int = 0
    name: str = "experiment"
    base_dir: str | None = field(default=None, compare=False)
    plugins: tuple = ()

    def __post_init__(self) -> None:
        from ..plugins import config_plugins

        problems: list[str] = []
        plugins = config_plugins(self.plugins, self.base_dir, problems)
        object.__setattr__(self, "plugins", plugins)
        datasets = _collect(self.datasets, _as_dataset_spec, problems)
        methods = _collect(self.methods, _as_method, problems)
        object.__setattr__(self, "datasets", datasets)
        object.__setattr__(self, "methods", methods)
        if isinstance(self.protocol, (Mapping, str)):
            try:
                protocol = protocol_from_table(self.protocol)
            except ConfigError as exc:
                problems.append(str(exc))
            else:
                object.__setattr__(self, "protocol", protocol)
        if not datasets and not problems:
            problems.append("datasets: at least one dataset is needed")
        if not methods and not problems:
            problems.append("methods: at least one method is needed")
        labels = [m.display for m in methods]
        if len(set(labels)) != len(labels):
            problems.append(f"methods: names/labels must be unique, got {labels}")
        problems += _method_problems(methods)
        try:
            object.__setattr__(self, "seed", _check_int("seed", self.seed, 0))
        except ConfigError as exc:
            problems.append(str(exc))
        if problems:
            raise ConfigError("; ".join(dict.fromkeys(problems)))


def _collect(items, coerce, problems: list[str]) -> tuple:
    """``coerce`` of every item; each failure's message appended to ``problems``."""
    out = []
    for item in items:
        try:
            out.append(coerce(item))
        except ConfigError as exc:
            problems.append(str(exc))
    return tuple(out)


def _method_problems(methods) -> list[str]:
    """Every bad option value of every registered method, in one list.

    A name the registry does not know is left to the runner (a plugin may
    register it later); its message lists the known methods.
    """
    from ..selectors._registry import get_method

    problems = []
    for m in methods:
        try:
            spec = get_method(m.name)
        except ConfigError:
            continue
        where = f"methods: {m.display!r}: "
        unknown = sorted(set(m.params) - {o.name for o in spec.options})
        if unknown:
            allowed = ", ".join(o.name for o in spec.options) or "none"
            problems.append(
                f"{where}unknown parameter(s) {unknown}; allowed: {allowed}"
            )
        try:
            check_all(spec.options, m.params, prefix=where)
        except ConfigError as exc:
            problems.append(str(exc))
    return problems


def config_to_dict(config: ExperimentConfig) -> dict:
    """Plain nested dict of ``config`` (None values left out, as TOML has no null)."""
    for d in config.datasets:
        if not isinstance(d, DatasetSpec):
            raise ConfigError("datasets: in-memory datasets cannot be written to TOML")
    out = {
        "name": config.name,
        "seed": config.seed,
        "protocol": _plain(config.protocol),
        "datasets": [_plain(d) for d in config.datasets],
        "methods": [_plain(m) for m in config.methods],
    }
    if config.plugins:
        out["plugins"] = list(config.plugins)
    return out


def config_from_dict(data: Mapping, *, base_dir: str | None = None) -> ExperimentConfig:
    """Build an :class:`ExperimentConfig` from a nested dict (as read from TOML)."""
    data = dict(data)
    data["base_dir"] = base_dir
    return _from_mapping(ExperimentConfig, data, "config")


def config_to_toml(config: ExperimentConfig) -> str:
    """TOML text of ``config``."""
    return tomli_w.dumps(config_to_dict(config))


def config_from_toml(text: str, *, base_dir: str | None = None) -> ExperimentConfig:
    """Parse TOML text into an :class:`ExperimentConfig` (ConfigError if invalid)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config is not valid TOML: {exc}") from None
    return config_from_dict(data, base_dir=base_dir)


def load_config(path) -> ExperimentConfig:
    """Read a TOML config file; relative dataset paths may be relative to its folder."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from None
    return config_from_toml(text, base_dir=str(path.resolve().parent))


def save_config(config: ExperimentConfig, path) -> None:
    """Write ``config`` as TOML to ``path``."""
    Path(path).write_text(config_to_toml(config), encoding="utf-8")


def _plain(obj) -> dict:
    out = {}
    for f in fields(obj):
        if f.name == "base_dir":
            continue
        value = getattr(obj, f.name)
        if value is None:
            continue
        if isinstance(obj, ProtocolConfig) and obj.split not in SPLIT_FIELDS.get(
            f.name, (obj.split,)
        ):
            continue  # e.g. no n_folds for a train/test run
        if f.name == "evaluation" and value != conventions.DEFINITION:
            value = conventions.to_table(value)  # [protocol.evaluation]
        elif hasattr(value, "__dataclass_fields__"):
            value = _plain(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def _from_mapping(cls, data: Mapping, where: str):
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where} must be a table, got {type(data).__name__}")
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; known: {sorted(known)}")
    try:
        return cls(**data)
    except TypeError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _as_dataset_spec(item):
    if hasattr(item, "X"):  # an in-memory Dataset
        return item
    return _coerce(item, DatasetSpec, "path", "datasets")


def _as_method(item) -> MethodConfig:
    return _coerce(item, MethodConfig, "name", "methods")


def _coerce(item, cls, string_field: str, where: str):
    """``item`` as a ``cls``: itself, ``cls(<string_field>=item)`` or from a table."""
    if isinstance(item, cls):
        return item
    if isinstance(item, str):
        return cls(**{string_field: item})
    if isinstance(item, Mapping):
        return _from_mapping(cls, item, f"{where}[]")
    raise ConfigError(f"{where}: cannot use a {type(item).__name__} here")


def _check_int(name: str, value, minimum: int) -> int:
    """``value`` as a Python int (numpy integers accepted, bools refused)."""
    if not is_int(value) or value < minimum:
        raise ConfigError(f"{name} must be an int >= {minimum}, got {value!r}")
    return check_int64(value, name)


def _budget_problems(budgets: tuple, unit: str) -> list[str]:
    if not budgets:
        return ["protocol.budgets must not be empty"]
    problems = []
    for b in budgets:
        number = is_int(b) or isinstance(b, (float, np.floating))
        if not number or b <= 0:
            problems.append(f"protocol.budgets must be positive numbers, got {b!r}")
        elif unit == "percent" and b > 100:
            problems.append(f"protocol.budgets: a percentage above 100 ({b})")
        elif unit == "count" and float(b) != int(b):
            problems.append(f"protocol.budgets: counts must be integers, got {b!r}")
    return problems
