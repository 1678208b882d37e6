"""The protocol's constraints: each setting's default and allowed values, the presets.

:data:`PROTOCOL_OPTIONS` states every scalar setting of a protocol in the one
vocabulary of :class:`~mlfs_core.options.Option` (as scikit-learn's
``_parameter_constraints``); the rules that tie settings together (budgets
and their unit, conventions and the classifier) are the functions below.
:func:`~._protocol.protocol_fields` is the factory that applies them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields

import numpy as np

from ..._validation import is_int
from ...errors import ConfigError
from ...options import Option
from .. import conventions

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
    Option(
        "test_size",
        0.4,
        low=0.0,
        high=1.0,
        closed="neither",
        help="test fraction of a hold-out split",
    ),
    Option("budget_unit", "percent", choices=BUDGET_UNITS),
    Option("on_large_budget", "error", choices=ON_LARGE_BUDGET),
    Option("n_repeats", 3, low=1, high=1000, help="runs of each stochastic method"),
    Option("discretize", "none", choices=DISCRETIZE),
    Option("bins", 3, low=2, high=1000, help="bins of the classifier's input"),
    Option("scaling", "none", choices=SCALING),
    Option("label_handling", "keep", choices=LABEL_HANDLING),
    Option("on_sparse_label", "warn", choices=ON_SPARSE_LABEL),
)
"""The protocol's scalar settings as :class:`~mlfs_core.options.Option` s: their
defaults (those of :class:`~.ProtocolConfig` where no preset sets them) and
allowed values, checked all at once; what the app's form offers."""
PROTOCOL_DEFAULTS = {o.name: o.default for o in PROTOCOL_OPTIONS}
"""Setting name -> its default (:data:`PROTOCOL_OPTIONS`)."""
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
DEFAULT_CLASSIFIER_PARAMS = {"linear_svc": {"C": 3.0, "tol": 0.001}}
"""Parameters a classifier gets when a config names it without any."""

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
"""The generic protocol presets: name -> the :class:`~.ProtocolConfig` fields it sets.

Every preset sets the same fields; a :class:`~.ProtocolConfig` takes those not
given from the preset its ``name`` picks (``ProtocolConfig(name="B")`` is
:func:`~.protocol_b`). ``"A"`` is 10-fold stratified CV, budgets 10..90 % of M,
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


def preset_value(protocol: str, name: str):
    """Setting ``name`` under the preset ``protocol`` (else its default)."""
    preset = PROTOCOL_PRESETS.get(protocol, {})
    if name in preset:
        return preset[name]
    return PROTOCOL_DEFAULTS[name]


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


def budget_problems(budgets, unit: str) -> list[str]:
    """What is wrong with ``budgets`` under ``unit`` (empty when nothing).

    Examples
    --------
    >>> budget_problems((10, 120), "percent")
    ['protocol.budgets: a percentage above 100 (120)']
    >>> budget_problems((2.5,), "count")
    ['protocol.budgets: counts must be integers, got 2.5']
    """
    if not isinstance(budgets, (list, tuple)):
        return [f"protocol.budgets must be a list of numbers, got {budgets!r}"]
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


def convention_problems(values: Mapping) -> list[str]:
    """What keeps a protocol's conventions (``evaluation``) from applying.

    Conventions run on protocol B's path only: an ML-kNN classifier on
    discretized codes, no scaling, and metrics the conventions allow.
    """
    evaluation, classifier = values["evaluation"], values["classifier"]
    scaling = classifier.params.get("scaling", "none")
    if (
        classifier.name != "mlknn"
        or values["discretize"] == "none"
        or values["scaling"] != "none"
    ):
        return [
            f"protocol.evaluation = {evaluation!r} is protocol B's: it needs "
            'classifier "mlknn", a discretize rule and scaling "none" (got '
            f"{classifier.name!r}, {values['discretize']!r}, {values['scaling']!r})"
        ]
    if scaling != "none":
        return [
            f"protocol.evaluation = {evaluation!r} compares distances of "
            "discretized codes: protocol.classifier.params.scaling must be "
            f'"none", got {scaling!r}'
        ]
    allowed = conventions.allowed_metrics(evaluation, ALL_METRICS)
    unknown = [m for m in values["metrics"] if m not in allowed]
    if unknown:
        return [
            f"protocol.metrics under evaluation = {evaluation!r}: "
            f"{unknown} not among {list(allowed)}"
        ]
    return []


def from_table(cls, data: Mapping, where: str):
    """``cls(**data)`` of a dataclass ``cls``; unknown keys named, with the known."""
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
