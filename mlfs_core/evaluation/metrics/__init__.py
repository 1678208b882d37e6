"""Multi-label evaluation metrics (METHODS.md section 5), each with its direction.

Every metric is a function ``f(Y_true, Y_pred, scores) -> float`` over dense
0/1 arrays of shape (n_samples, n_labels) and a real-valued score array of the
same shape (higher = more likely relevant). Threshold metrics ignore
``scores``; ranking metrics ignore ``Y_pred``. :data:`METRICS` maps a metric
name to a :class:`MetricSpec` and is the one list the runner, the CLI and the
app use.

Conventions on degenerate data (all values stay finite):

- F1 and Jaccard use ``zero_division=0``: a label (macro) or sample
  (examples) with neither a true nor a predicted positive scores 0.
- Ranking loss, coverage error and average precision follow scikit-learn's
  definitions; ranking loss and average precision are vectorized
  re-implementations (``_ranking_metrics``), tested equal to scikit-learn's,
  because its per-sample loops dominated protocol B.
- **Coverage error is scikit-learn's**, which equals Zhang & Zhou's (and
  Mulan's) *coverage plus 1*: it counts the depth of the ranking including
  the last relevant label (a perfect single-label prediction scores 1, not
  0). Subtract 1 to compare with Mulan or published ML-kNN tables.
- Samples with no true label (e.g. 294 in birds), per ranking metric:
  coverage error counts them 0 (the deepest relevant label of an empty set);
  ranking loss counts them 0 (no relevant/irrelevant pair to mis-order;
  also a sample whose labels are all relevant); average precision counts
  them 1 (scikit-learn's convention, also for all-relevant samples);
  one-error counts them correct (0), consistent with the ranking metrics,
  which treat them as perfectly ranked. No sample is skipped, so every
  metric averages over the same n samples. Ties in scores resolve to the
  lowest label index (one-error).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ... import plugins
from ...errors import ConfigError
from .ranking import average_precision, ranking_loss
from .spec import MetricSpec
from .variants import VARIANT_METRICS


def _skm():
    # scikit-learn's metrics module (and scipy.stats behind it) costs about a
    # second to import; the app's first page only needs the METRICS table.
    from sklearn import metrics

    return metrics


def one_error(Y_true, scores) -> float:
    """Fraction of samples whose top-scored label is not relevant.

    Parameters
    ----------
    Y_true : array-like of shape (n_samples, n_labels)
        Binary true labels.
    scores : array-like of shape (n_samples, n_labels)
        Label scores, higher = more likely relevant.

    Returns
    -------
    float
        In [0, 1]; lower is better. Samples with no relevant label count as
        correct; ties between top scores go to the lowest label index.

    Examples
    --------
    >>> one_error([[1, 0], [0, 1], [0, 0]], [[0.9, 0.1], [0.8, 0.2], [0.5, 0.4]])
    0.3333333333333333
    """
    Y_true = np.asarray(Y_true)
    scores = np.asarray(scores, dtype=float)
    if Y_true.shape[0] == 0:
        return 0.0
    top = np.argmax(scores, axis=1)  # first maximum = lowest label index
    hit = Y_true[np.arange(Y_true.shape[0]), top] == 1
    empty = Y_true.sum(axis=1) == 0
    return float(np.mean(~hit & ~empty))


def _label_f1(Y, P, average: str) -> float:
    if Y.shape[1] == 1:
        # One column is "binary" to scikit-learn, whose micro/macro would then
        # average over the two classes; the single label's F1 is both.
        f1 = _skm().f1_score(Y[:, 0], P[:, 0], average="binary", zero_division=0)
        return float(f1)
    return float(_skm().f1_score(Y, P, average=average, zero_division=0))


def _micro_f1(Y, P, S) -> float:
    return _label_f1(Y, P, "micro")


def _macro_f1(Y, P, S) -> float:
    return _label_f1(Y, P, "macro")


def _pad_single_label(Y, P, S):
    # scikit-learn refuses sample-wise and ranking metrics on one column; a
    # padded label that is never true, never predicted and always scored last
    # leaves every one of those metrics unchanged.
    if Y.shape[1] != 1:
        return Y, P, S
    low = (S.min() if S.size else 0.0) - 1.0
    zeros = np.zeros_like(Y)
    pad_S = np.full_like(S, low)
    return np.hstack([Y, zeros]), np.hstack([P, zeros]), np.hstack([S, pad_S])


def _example_f1(Y, P, S) -> float:
    Y, P, S = _pad_single_label(Y, P, S)
    return float(_skm().f1_score(Y, P, average="samples", zero_division=0))


def _hamming(Y, P, S) -> float:
    return float(_skm().hamming_loss(Y, P))


def _ranking_loss(Y, P, S) -> float:
    return ranking_loss(Y, S)


def _coverage(Y, P, S) -> float:
    Y, P, S = _pad_single_label(Y, P, S)
    return float(_skm().coverage_error(Y, S))


def _one_error(Y, P, S) -> float:
    return one_error(Y, S)


def _average_precision(Y, P, S) -> float:
    return average_precision(Y, S)


def _jaccard(Y, P, S) -> float:
    Y, P, S = _pad_single_label(Y, P, S)
    return float(_skm().jaccard_score(Y, P, average="samples", zero_division=0))


def _subset_accuracy(Y, P, S) -> float:
    return float(_skm().accuracy_score(Y, P))


METRICS: dict[str, MetricSpec] = {
    "micro_f1": MetricSpec(_micro_f1, True, False, "F1 of the pooled label decisions"),
    "macro_f1": MetricSpec(_macro_f1, True, False, "mean of the per-label F1"),
    "example_f1": MetricSpec(_example_f1, True, False, "mean of the per-sample F1"),
    "hamming_loss": MetricSpec(_hamming, False, False, "fraction of wrong label bits"),
    "ranking_loss": MetricSpec(
        _ranking_loss, False, True, "fraction of mis-ordered label pairs"
    ),
    "coverage_error": MetricSpec(
        _coverage,
        False,
        True,
        "depth of the ranking needed to cover all true labels "
        "(scikit-learn's: Zhang & Zhou's / Mulan's coverage + 1)",
    ),
    "one_error": MetricSpec(_one_error, False, True, "top-ranked label is wrong"),
    "average_precision": MetricSpec(
        _average_precision, True, True, "label ranking average precision"
    ),
    "jaccard_samples": MetricSpec(
        _jaccard, True, False, "mean per-sample intersection over union"
    ),
    "subset_accuracy": MetricSpec(
        _subset_accuracy, True, False, "fraction of exactly right label sets"
    ),
}
"""Metric name -> :class:`MetricSpec`; keys feed configs, the CLI and the UI."""

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

    Knows :data:`METRICS` and the variants of :mod:`.variants`
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


def compute_metrics(
    Y_true,
    Y_pred,
    scores,
    *,
    metrics: Sequence[str] | None = None,
    label_mask=None,
) -> dict[str, float]:
    """Evaluate predictions with several metrics at once.

    Parameters
    ----------
    Y_true, Y_pred : array-like of shape (n_samples, n_labels)
        Binary true and predicted labels.
    scores : array-like of shape (n_samples, n_labels)
        Label scores (decision values or probabilities).
    metrics : sequence of str, optional
        Names from :data:`METRICS` (default all).
    label_mask : array-like of bool of shape (n_labels,), optional
        Labels to evaluate (default all). Protocol B passes the labels that
        are not constant in the training part.

    Returns
    -------
    dict
        Metric name -> value; every value is NaN when the mask keeps no label.

    Examples
    --------
    >>> out = compute_metrics([[1, 0]], [[1, 0]], [[0.9, 0.1]], metrics=["micro_f1"])
    >>> out["micro_f1"]
    1.0
    """
    names = list(METRICS) if metrics is None else list(metrics)
    specs = [get_metric(n) for n in names]
    Y_true, Y_pred = np.asarray(Y_true), np.asarray(Y_pred)
    scores = np.asarray(scores, dtype=float)
    if label_mask is not None:
        mask = np.asarray(label_mask, dtype=bool)
        Y_true, Y_pred, scores = Y_true[:, mask], Y_pred[:, mask], scores[:, mask]
    if Y_true.shape[1] == 0:
        return dict.fromkeys(names, float("nan"))
    if all(n in _BUILT_IN for n in names):
        return {n: s.function(Y_true, Y_pred, scores) for n, s in zip(names, specs)}
    from ..._code import blame  # a user's metric is named if it raises

    out = {}
    for n, s in zip(names, specs):
        if n in _BUILT_IN:
            out[n] = s.function(Y_true, Y_pred, scores)
        else:
            with blame("metric", n):
                out[n] = s.function(Y_true, Y_pred, scores)
    return out


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
