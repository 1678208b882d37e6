"""The protocol's constraints: each setting's default and allowed values.

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
from ._presets import PROTOCOL_PRESETS

SPLITS = ("cv", "holdout", "own", "repeated_holdout")
BUDGET_UNITS = ("percent", "count")
ON_LARGE_BUDGET = ("error", "clip")
LABEL_HANDLING = ("keep", "drop_constant")
ON_SPARSE_LABEL = ("warn", "error", "ignore")
DISCRETIZE = ("none", "uniform", "quantile", "binary")
SCALING = ("none", "l2-rows", "maxabs")
PROTOCOL_OPTIONS = (
    Option(
        "split",
        "repeated_holdout",
        choices=SPLITS,
        help="cross-validation, hold-out, own or repeated hold-out",
    ),
    Option("n_folds", 10, low=2, high=1000, help="folds of the cross-validation"),
    Option(
        "n_holdouts",
        5,
        low=1,
        high=1000,
        help="random train/test splits of a repeated hold-out",
    ),
    Option(
        "test_size",
        0.3,
        low=0.0,
        high=1.0,
        closed="neither",
        help="test fraction of a hold-out split",
    ),
    Option("budget_unit", "count", choices=BUDGET_UNITS),
    Option("on_large_budget", "clip", choices=ON_LARGE_BUDGET),
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
DEFAULT_BUDGETS = tuple(range(1, 51))
"""The budgets of a protocol whose preset sets none: the top 1..50 features."""
DEFAULT_CLASSIFIER = {"name": "mlknn"}
"""The classifier of a protocol whose preset sets none (ML-kNN, its defaults)."""

SPLIT_FIELDS: dict[str, tuple[str, ...]] = {
    "n_folds": ("cv",),
    "on_sparse_label": ("cv",),
    "n_holdouts": ("repeated_holdout",),
    "test_size": ("holdout", "own", "repeated_holdout"),
}
"""Fields that apply to some splits only: a saved config omits them elsewhere."""


def preset_value(protocol: str, name: str):
    """Setting ``name`` under the preset ``protocol`` (else its default)."""
    preset = PROTOCOL_PRESETS.get(protocol)
    if preset is not None and name in preset.settings:
        return preset.settings[name]
    return PROTOCOL_DEFAULTS[name]


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

    Conventions run on the budget-batched ML-kNN path only: an ML-kNN
    classifier on discretized codes, no scaling, and metrics the conventions
    allow.
    """
    evaluation, classifier = values["evaluation"], values["classifier"]
    scaling = classifier.params.get("scaling", "none")
    if (
        classifier.name != "mlknn"
        or values["discretize"] == "none"
        or values["scaling"] != "none"
    ):
        return [
            f"protocol.evaluation = {evaluation!r} needs "
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
