"""The metrics' registry: the record a metric is, the names, lookup and direction.

:data:`METRICS` maps a metric name to a :class:`MetricSpec` and is the one list
the runner, the CLI and the app use; :func:`register_metric` adds a plug-in's
metric to it. :data:`VARIANT_METRICS` names the metric variants outside that
list (known to :func:`higher_is_better`). The functions are defined in
:mod:`.definitions`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ... import plugins
from ...errors import ConfigError
from . import definitions as _d


@dataclass(frozen=True)
class MetricSpec:
    """One evaluation metric.

    Attributes
    ----------
    function : callable
        ``function(Y_true, Y_pred, scores) -> float``.
    higher_is_better : bool
        Direction of the metric (False for losses, coverage and one-error).
    needs_scores : bool
        Whether the metric uses the classifier's label scores (ranking metrics)
        rather than its 0/1 predictions.
    description : str
        One line for tables and the UI.
    """

    function: Callable[[np.ndarray, np.ndarray, np.ndarray], float]
    higher_is_better: bool
    needs_scores: bool
    description: str = ""


METRICS: dict[str, MetricSpec] = {
    "micro_f1": MetricSpec(
        _d._micro_f1, True, False, "F1 of the pooled label decisions"
    ),
    "macro_f1": MetricSpec(_d._macro_f1, True, False, "mean of the per-label F1"),
    "example_f1": MetricSpec(_d._example_f1, True, False, "mean of the per-sample F1"),
    "hamming_loss": MetricSpec(
        _d._hamming, False, False, "fraction of wrong label bits"
    ),
    "ranking_loss": MetricSpec(
        _d._ranking_loss_of, False, True, "fraction of mis-ordered label pairs"
    ),
    "coverage_error": MetricSpec(
        _d._coverage,
        False,
        True,
        "depth of the ranking needed to cover all true labels "
        "(scikit-learn's: Zhang & Zhou's / Mulan's coverage + 1)",
    ),
    "one_error": MetricSpec(_d._one_error_of, False, True, "top-ranked label is wrong"),
    "average_precision": MetricSpec(
        _d._average_precision_of, True, True, "label ranking average precision"
    ),
    "jaccard_samples": MetricSpec(
        _d._jaccard, True, False, "mean per-sample intersection over union"
    ),
    "subset_accuracy": MetricSpec(
        _d._subset_accuracy, True, False, "fraction of exactly right label sets"
    ),
}
"""Metric name -> :class:`MetricSpec`; keys feed configs, the CLI and the UI."""

VARIANT_METRICS: dict[str, MetricSpec] = {
    "weighted_f1": MetricSpec(
        _d._weighted_f1, True, False, "per-label F1, support-weighted"
    ),
    "weighted_jaccard": MetricSpec(
        _d._weighted_jaccard, True, False, "per-label Jaccard, support-weighted"
    ),
    "ranking_loss_on_predictions": MetricSpec(
        _d._ranking_loss_on_predictions,
        False,
        False,
        "ranking loss of the 0/1 predictions",
    ),
    "coverage_error_on_predictions": MetricSpec(
        _d._coverage_on_predictions,
        False,
        False,
        "coverage error of the 0/1 predictions",
    ),
}
"""Variant name -> :class:`MetricSpec`: the metric variants outside
:data:`METRICS` (support-weighted scores, ranking metrics of 0/1 predictions;
:mod:`.definitions`), known by name to :func:`higher_is_better`."""

_BUILT_IN = frozenset(METRICS)
_VERSIONS: dict[str, str] = {}


def register_metric(
    name: str,
    function,
    *,
    higher_is_better: bool,
    needs_scores: bool = False,
    description: str = "",
    version: str = "",
) -> MetricSpec:
    """Add a metric of your own to :data:`METRICS` (plug-ins call this).

    Parameters
    ----------
    name : str
        The name configs and result tables use.
    function : callable
        ``function(Y_true, Y_pred, scores) -> float`` over dense 0/1 arrays
        of shape (n_samples, n_labels) and real-valued scores.
    higher_is_better : bool
        The metric's direction.
    needs_scores : bool, default=False
        Whether it reads the label scores rather than the 0/1 predictions.
    description : str
        One line for tables and the app.
    version : str
        Version of the implementation; with a digest of the function's file
        it enters the cache keys of fits that compute it.

    Returns
    -------
    MetricSpec

    Raises
    ------
    ConfigError
        If the name is taken (a metric or a metric variant) or ``function``
        is not callable.
    """
    if name in METRICS or name in VARIANT_METRICS:
        raise ConfigError(f"a metric called {name!r} is already registered")
    if not callable(function):
        raise ConfigError(f"metric {name!r}: function must be callable")
    spec = MetricSpec(function, bool(higher_is_better), bool(needs_scores), description)
    METRICS[name] = spec
    _VERSIONS[name] = str(version)
    return spec


def unregister_metric(name: str) -> None:
    """Remove a metric added by :func:`register_metric`."""
    if name in _BUILT_IN:
        raise ConfigError(f"{name!r} is a built-in metric and cannot be removed")
    if name not in METRICS:
        raise ConfigError(f"no metric called {name!r} is registered")
    del METRICS[name]
    _VERSIONS.pop(name, None)


def metric_identity(name: str) -> dict | None:
    """Part of a fit's cache key identifying a registered metric's code.

    None for the built-in metrics and the variants; else the metric's
    ``version`` and the SHA-256 of the file defining its function.
    """
    from ..._code import source_digest

    if name in _BUILT_IN or name not in METRICS:
        return None
    code = source_digest(METRICS[name].function)
    return {"version": _VERSIONS.get(name, ""), "code": code}


def higher_is_better(metric: str) -> bool:
    """Return the direction of ``metric``: a registered metric or a variant.

    Knows :data:`METRICS` and the variants of :data:`VARIANT_METRICS`
    (``weighted_f1``, ``weighted_jaccard``, ...).

    Raises
    ------
    ConfigError
        If ``metric`` is in neither registry (the message lists ours).

    Examples
    --------
    >>> higher_is_better("hamming_loss"), higher_is_better("weighted_f1")
    (False, True)
    """
    if metric not in METRICS:
        if metric in VARIANT_METRICS:
            return VARIANT_METRICS[metric].higher_is_better
    return get_metric(metric).higher_is_better


def get_metric(name: str) -> MetricSpec:
    """Return the :class:`MetricSpec` registered under ``name``.

    Raises
    ------
    ConfigError
        If ``name`` is unknown; the message lists the known metrics.
    """
    if name not in METRICS:
        from ..._code import on_unknown_name  # a plug-in may register it

        on_unknown_name()
    try:
        return METRICS[name]
    except KeyError:
        known = ", ".join(METRICS)
        raise ConfigError(f"unknown metric {name!r}; known metrics: {known}") from None


def _export(name: str) -> tuple:
    return METRICS[name], _VERSIONS.get(name, "")


def _restore(name: str, payload: tuple) -> None:
    """Register a metric a parent process sent (:mod:`mlfs_core.plugins`)."""
    spec, version = payload
    register_metric(
        name,
        spec.function,
        higher_is_better=spec.higher_is_better,
        needs_scores=spec.needs_scores,
        description=spec.description,
        version=version,
    )


plugins.add_registry(
    plugins.Registry(
        "metrics", METRICS, _BUILT_IN, unregister_metric, _export, _restore
    )
)
