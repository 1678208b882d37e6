"""A greedy information-theoretic selection, each step's criterion split into terms.

The criterion of every information-theoretic greedy method (METHODS.md
section 4), or of a registered variant of one, is a sum of S-free terms
(relevance, label interactions ...) and one redundancy term over the
selected set S. :func:`greedy_steps` runs the engine's own greedy
loop (its criteria, redundancy updates and tie rule from
:mod:`mlfs_core.selectors.greedy`) and records, at every step, the terms of
the best candidates; the terms sum to the engine's criterion and the picks are
the engine's order (tested).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import check_k, check_XY
from ..selectors.greedy import (
    _best_next_feature,
    criterion_of,
    discrete_context,
)
from ..selectors.it.criteria import redundancy_of, sum_terms


@dataclass(frozen=True)
class GreedySteps:
    """A greedy run, recorded.

    Attributes
    ----------
    path : DataFrame
        One row per step: ``step`` (1-based), ``feature``, ``criterion`` (its
        J(f | S) when picked) and one column per term.
    candidates : DataFrame
        Per step, the best ``n_candidates`` remaining features (the pick
        first): ``step, feature, picked``, the term columns and ``criterion``.
    terms : list of str
        The term column names, in formula order (the redundancy last).
    """

    path: pd.DataFrame
    candidates: pd.DataFrame
    terms: list[str]


def _frame(
    step: int, features: np.ndarray, picked: int, parts: dict, values
) -> pd.DataFrame:
    data = {"step": step, "feature": features, "picked": features == picked}
    data.update({name: v[features] for name, v in parts.items()})
    data["criterion"] = values[features]
    return pd.DataFrame(data)


def greedy_steps(
    X,
    Y,
    method: str,
    *,
    k: int = 10,
    n_candidates: int = 8,
    bins: int = 3,
    discretize: str = "uniform",
    tau: int = 6,
    variant: str = "definition",
    progress: Callable[[int, int], None] | None = None,
) -> GreedySteps:
    """Run an information-theoretic method for ``k`` steps, recording every term.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_labels)
    method : str
        One of the ten information-theoretic greedy methods (``"PMU"``,
        ``"ATR"`` ...).
    k : int, default=10
        Steps (selected features).
    n_candidates : int, default=8
        Candidates recorded per step (the best by criterion, the pick first).
    bins, discretize, tau, variant
        As for :func:`mlfs_core.rank_features` with that method.
    progress : callable, optional
        Called as ``progress(done, k)`` after each step.

    Returns
    -------
    GreedySteps
    """
    criterion = criterion_of(method, variant)
    X, Y = check_XY(X, Y)
    k = check_k(k, X.shape[1])
    ctx = discrete_context(X, Y, bins=bins, discretize=discretize, tau=tau)
    statics = {name: fn(ctx) for name, fn in criterion.terms}
    static = sum_terms(list(statics.values()))
    m = X.shape[1]
    red_sum, remaining = np.zeros(m), np.ones(m, dtype=bool)
    rows, frames, names = [], [], list(statics)
    for step in range(k):
        values = criterion.combine(static, red_sum, step, ctx)
        best = _best_next_feature(values, remaining)
        parts = dict(statics)
        if criterion.redundancy is not None:
            name, value = criterion.redundancy_part(ctx, red_sum, step)
            parts[name] = value
            names = list(parts)
        frames.append(
            _frame(
                step + 1,
                _candidates(values, remaining, best, n_candidates),
                best,
                parts,
                values,
            )
        )
        rows.append(
            {
                "step": step + 1,
                "feature": best,
                "criterion": values[best],
                **{n: v[best] for n, v in parts.items()},
            }
        )
        remaining[best] = False
        if criterion.redundancy is not None and step + 1 < k:
            red_sum += redundancy_of(criterion.redundancy, ctx, best)
        if progress is not None:
            progress(step + 1, k)
    return GreedySteps(pd.DataFrame(rows), pd.concat(frames, ignore_index=True), names)


def _candidates(
    values: np.ndarray, remaining: np.ndarray, best: int, n: int
) -> np.ndarray:
    """The pick, then the other remaining features by criterion (ties: lower index)."""
    free = np.flatnonzero(remaining & (np.arange(values.size) != best))
    others = free[np.argsort(-values[free], kind="stable")[: max(n - 1, 0)]]
    return np.concatenate(([best], others)).astype(np.intp)
