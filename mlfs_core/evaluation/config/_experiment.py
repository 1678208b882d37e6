"""The experiment: :class:`ExperimentConfig`, its datasets and its methods.

:func:`experiment_fields` is the one place an experiment's fields are put in
their stored form and checked: plug-ins loaded, datasets and methods coerced,
each method's parameters checked against its options
(:func:`mlfs_core.options.resolve`), the seed against
:data:`EXPERIMENT_OPTIONS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ...errors import ConfigError
from ...options import Option, check_all, resolve
from ...plugins import config_plugins
from ._constraints import from_table
from ._protocol import ProtocolConfig, protocol_from_table
from ._tuning import TuningConfig, candidates, grid_options, tuning_from

EXPERIMENT_OPTIONS = (
    Option("seed", 0, low=0, help="the seed every random draw derives from"),
)
"""The experiment's own scalar settings as :class:`~mlfs_core.options.Option` s
(a seed is a 64-bit integer, as TOML and numpy hold)."""


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
    module names or ``.py`` paths, relative to the config's folder). A
    method's option given as a list is a grid (:mod:`._tuning`), searched on
    the inner split ``tuning`` states (a ``[tuning]`` table; with a grid and
    none given, :class:`TuningConfig`'s defaults, written back). Every field
    is checked by :func:`experiment_fields`.
    """

    datasets: tuple
    methods: tuple
    protocol: ProtocolConfig = field(default_factory=ProtocolConfig)
    seed: int = EXPERIMENT_OPTIONS[0].default
    name: str = "experiment"
    base_dir: str | None = field(default=None, compare=False)
    plugins: tuple = ()
    tuning: TuningConfig | None = None

    def __post_init__(self) -> None:
        given = {f.name: getattr(self, f.name) for f in fields(self)}
        for name, value in experiment_fields(given).items():
            object.__setattr__(self, name, value)  # frozen: the factory's values


def experiment_fields(given: Mapping[str, Any]) -> dict[str, Any]:
    """Every field of an :class:`ExperimentConfig`, in stored form and checked.

    ``given`` maps every field of :class:`ExperimentConfig` to its value; the
    result maps each to its checked value, as
    :func:`~mlfs_core.evaluation.config.protocol_fields` does for a protocol.

    Raises
    ------
    ConfigError
        Every problem in one message (each once): plug-ins that cannot be
        loaded, bad datasets or methods, the protocol's problems, a method's
        unknown parameters or bad values, a bad seed, and, when there is any
        of these, the method names the registry does not know (alone, an
        unknown name is left to the runner: a plug-in may register it after
        the config is made).
    """
    values = dict(given)
    problems: list[str] = []
    values["plugins"] = config_plugins(values["plugins"], values["base_dir"], problems)
    values["datasets"] = _collect(values["datasets"], _as_dataset_spec, problems)
    values["methods"] = methods = _collect(values["methods"], _as_method, problems)
    if isinstance(values["protocol"], (Mapping, str)):
        try:
            values["protocol"] = protocol_from_table(values["protocol"])
        except ConfigError as exc:
            problems.append(str(exc))
    if not values["datasets"] and not problems:
        problems.append("datasets: at least one dataset is needed")
    if not methods and not problems:
        problems.append("methods: at least one method is needed")
    labels = [m.display for m in methods]
    if len(set(labels)) != len(labels):
        problems.append(f"methods: names/labels must be unique, got {labels}")
    problems += _long_names(values["name"], methods, values["datasets"])
    unknown: list[str] = []
    grids = _method_problems(methods, problems, unknown)
    try:
        values["tuning"] = tuning_from(values["tuning"])
    except ConfigError as exc:
        problems.append(str(exc))
    if grids and values["tuning"] is None:
        values["tuning"] = TuningConfig()
    try:
        values.update(check_all(EXPERIMENT_OPTIONS, values))
    except ConfigError as exc:
        problems.append(str(exc))
    if problems:  # the unknown methods too: one message names everything
        raise ConfigError("; ".join(dict.fromkeys([*problems, *unknown])))
    return values


def _long_names(name, methods, datasets) -> list[str]:
    """The experiment's, methods' and datasets' names above the name budget
    (``MLFS_MAX_NAME_CHARS``, :mod:`mlfs_core.data.limits`)."""
    from ...data.limits import check_names, current_limits

    limits, problems = current_limits(), []
    for names, what, where in (
        ([name], "experiment", "name"),
        ([m.display for m in methods], "method", "methods"),
        ([getattr(d, "name", None) for d in datasets], "dataset", "datasets"),
    ):
        try:
            check_names(names, what, where, limits)
        except ValueError as exc:
            problems.append(str(exc))
    return problems


def _collect(items, coerce, problems: list[str]) -> tuple:
    """``coerce`` of every item; each failure's message appended to ``problems``."""
    out = []
    for item in items:
        try:
            out.append(coerce(item))
        except ConfigError as exc:
            problems.append(str(exc))
    return tuple(out)


def _method_problems(methods, problems: list[str], unknown: list[str]) -> bool:
    """Append every unknown parameter and bad option value of every registered
    method (each grid value checked) to ``problems``; whether any method has a
    grid.

    The message of a name the registry does not know (it lists the known
    methods) goes to ``unknown``: it is reported with the config's other
    problems, or left to the runner (a plugin may register it later).
    """
    from ...selectors._registry import get_method

    grids = False
    for m in methods:
        try:
            spec = get_method(m.name)
        except ConfigError as exc:
            unknown.append(f"methods: {exc}")
            continue
        try:
            grids |= bool(grid_options(m, spec))
            for params in candidates(m, spec):
                resolve(spec.options, params, owner=f"methods: {m.display!r}: ")
        except ConfigError as exc:
            problems.append(str(exc))
    return grids


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
        return from_table(cls, item, f"{where}[]")
    raise ConfigError(f"{where}: cannot use a {type(item).__name__} here")
