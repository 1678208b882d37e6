"""A greedy information-theoretic selection, each step's criterion split into terms.

The criterion of every paper-001 method (METHODS.md section 4) is a sum of
S-free terms (relevance, label interactions ...) and one redundancy term
over the selected set S. :func:`greedy_steps` runs the engine's own greedy
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
from ..errors import ConfigError
from ..selectors._it_criteria import (
    CRITERIA,
    Context,
    _ppt,
    _scls,
    _subtract_mean,
    redundancy_of,
)
from ..selectors._it_data import prepare_codes
from ..selectors._it_ppt import igmf_gain
from ..selectors.greedy import (
    IT_METHODS,
    _best_next_feature,
    _check_tau,
    _criterion_key,
    _discretizer,
)

Term = tuple[str, Callable[[Context], np.ndarray]]


def _rel(ctx: Context) -> np.ndarray:
    return ctx.statics.relevance


R = ("relevance R(f) = sum_i I(f; l_i)", _rel)
STATIC_TERMS: dict[str, list[Term]] = {
    "ATR": [
        ("relevance R(f) / q", lambda c: _rel(c) / c.problem.n_labels),
        ("transformed relevance I(f_P; Y_P)", _ppt),
    ],
    "PPT-MI": [("I(f_P; Y_P)", _ppt)],
    "IGMF": [("2 I(f; L) / (H(f) + H(L))", lambda c: igmf_gain(c.problem, c.classes))],
    "PMU": [R, ("- sum_{i<j} I(f; l_i; l_j)", lambda c: -c.pair("interaction_sum"))],
    "PMU/reference-code": [
        R,
        (
            "- label pairs, ordered, i = j included",
            lambda c: -(2.0 * c.pair("interaction_sum") + _rel(c)),
        ),
    ],
    "D2F": [R],
    "MDMR": [R],
    "MDMR/reference-code": [R],
    "LRFS": [("sum_{i != j} I(f; l_i | l_j)", lambda c: c.pair("cmi_sum"))],
    "LSMFS": [
        R,
        (
            "+ sum_{i != j} max(0, I(f; l_i; l_j))",
            lambda c: c.pair("positive_interaction_sum"),
        ),
    ],
    "MLSMFS": [R, ("+ max_{i != j} I(f; l_i | l_j)", lambda c: c.pair("cmi_max"))],
    "SCLS": [R],
}
"""Criterion key -> its S-free terms (name, value for every feature)."""

REDUNDANCY_TEXT = {
    "mi": "I(f; s)",
    "interaction": "sum_i I(f; s; l_i)",
    "mdmr": "[I(f; s) - sum_i I(s; l_i | f)]",
}


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


def _redundancy_term(criterion, ctx: Context, red_sum: np.ndarray, size: int):
    """The S-dependent term, so that static terms + it = the criterion."""
    text = REDUNDANCY_TEXT.get(criterion.redundancy, "")
    if criterion.combine is _subtract_mean:
        value = red_sum / size if size else np.zeros_like(red_sum)
        return f"- (1/|S|) sum_s {text}", -value
    if criterion.combine is _scls:
        h_f, rel = ctx.statics.h_f, _rel(ctx)
        safe = np.where(h_f > 0, h_f, 1.0)
        # J = R (1 - red / H); a constant feature has J = 0, so the term is -R.
        return "- R(f) sum_s I(f; s) / H(f)", np.where(
            h_f > 0, -rel * red_sum / safe, -rel
        )
    return f"- sum_s {text}", -red_sum


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
    legacy_binning: bool = False,
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
        One of the ten paper-001 methods (``"PMU"``, ``"ATR"`` ...).
    k : int, default=10
        Steps (selected features).
    n_candidates : int, default=8
        Candidates recorded per step (the best by criterion, the pick first).
    bins, discretize, legacy_binning, tau, variant
        As for :func:`mlfs_core.rank_features` with that method.
    progress : callable, optional
        Called as ``progress(done, k)`` after each step.

    Returns
    -------
    GreedySteps
    """
    if method not in IT_METHODS:
        raise ConfigError(f"unknown method {method!r}; known: {', '.join(IT_METHODS)}")
    key = _criterion_key(method, variant)
    if key not in CRITERIA:
        raise ConfigError(f"{method} has no variant {variant!r}")
    X, Y = check_XY(X, Y)
    k = check_k(k, X.shape[1])
    codes = _discretizer(bins, discretize, legacy_binning).fit_transform(X)
    Y = np.asarray(Y, dtype=np.int8)
    ctx = Context(prepare_codes(codes, Y), Y, _check_tau(tau))
    criterion = CRITERIA[key]
    statics = {name: fn(ctx) for name, fn in STATIC_TERMS[key]}
    static = criterion.static(ctx)
    m = X.shape[1]
    red_sum, remaining = np.zeros(m), np.ones(m, dtype=bool)
    rows, frames, names = [], [], list(statics)
    for step in range(k):
        values = criterion.combine(static, red_sum, step, ctx)
        best = _best_next_feature(values, remaining)
        parts = dict(statics)
        if criterion.redundancy is not None:
            name, value = _redundancy_term(criterion, ctx, red_sum, step)
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
