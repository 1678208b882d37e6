"""What a method's ``rank`` returned, checked: :func:`checked_ranking`.

The rules: the order is a 1-D array of ``k`` distinct integer feature indices
in ``[0, n_features)``; scores, when given, are ``n_features`` finite numbers.
A broken rule is a :class:`~mlfs_core.errors.RankingError` naming the method.
"""

from __future__ import annotations

import numpy as np

from ..errors import RankingError
from ._spec import Ranking


def _fail(name: str, rule: str) -> RankingError:
    return RankingError(f"method {name!r} returned a bad ranking: {rule}")


def checked_ranking(name: str, out, n_features: int, k: int) -> Ranking:
    """``out`` (what a method's ``rank`` returned) as a :class:`Ranking`, checked.

    The rules: the order is a 1-D array of ``k`` distinct integer feature
    indices in ``[0, n_features)``; scores, when given, are ``n_features``
    finite numbers. Missing scores are filled as for order-only methods
    (``n_features - position`` for ranked features, 0 for the others).

    Raises
    ------
    RankingError
        Naming the method and the rule it broke (a ValueError, not a
        ConfigError: the configuration was fine, the output was not).
    """
    ranking = _as_ranking(name, out)
    raw, order = _checked_order(name, ranking.order, n_features, k)
    scores = _checked_scores(name, ranking.scores, order, n_features)
    if isinstance(out, Ranking) and out.scores is not None and raw.dtype == order.dtype:
        return out  # unchanged: a well-formed Ranking (every built-in method)
    return Ranking(
        order=order,
        scores=scores,
        label_scores=ranking.label_scores,
        criterion_path=ranking.criterion_path,
        objective_path=ranking.objective_path,
    )


def _as_ranking(name: str, out) -> Ranking:
    """An order, a pair (order, scores) or a Ranking, as a Ranking (unchecked)."""
    if isinstance(out, Ranking):
        return out
    if isinstance(out, tuple) and len(out) == 2:
        return Ranking(order=out[0], scores=out[1])
    if isinstance(out, (np.ndarray, list)):
        return Ranking(order=out, scores=None)
    raise _fail(
        name,
        "rank() must return an order (array of feature indices), a pair "
        f"(order, scores) or a Ranking, got {type(out).__name__}",
    )


def _checked_order(name: str, given, n_features: int, k: int):
    """``(raw, order)``: the order as given (an array) and as int64, checked."""
    try:
        raw = np.asarray(given)
    except (TypeError, ValueError):
        raise _fail(name, "the order is not an array of feature indices") from None
    if raw.ndim != 1:
        raise _fail(name, f"the order must be 1-D, got shape {raw.shape}")
    if raw.size and not np.issubdtype(raw.dtype, np.integer):
        if not (
            np.issubdtype(raw.dtype, np.floating)
            and np.all(np.isfinite(raw))
            and np.all(raw == np.round(raw))
        ):
            raise _fail(name, f"the order must hold integer indices, got {raw.dtype}")
    order = raw.astype(np.int64)
    if order.size != k:
        raise _fail(name, f"asked for {k} features, the order has {order.size}")
    bad = order[(order < 0) | (order >= n_features)]
    if bad.size:
        raise _fail(
            name,
            f"index {int(bad[0])} is out of range (n_features={n_features})",
        )
    if np.unique(order).size != order.size:
        values, counts = np.unique(order, return_counts=True)
        raise _fail(name, f"index {int(values[counts > 1][0])} appears more than once")
    return raw, order


def _checked_scores(name: str, given, order: np.ndarray, n_features: int):
    """The scores as given (checked), or filled from the order's positions."""
    if given is None:
        scores = np.zeros(n_features)
        scores[order] = n_features - np.arange(order.size)
        return scores
    scores = np.asarray(given, dtype=float)
    if scores.shape != (n_features,):
        raise _fail(
            name,
            f"scores must have shape ({n_features},), got {scores.shape}",
        )
    if not np.all(np.isfinite(scores)):
        raise _fail(name, "scores must be finite (found NaN or infinity)")
    return scores
