"""Paper-000 methods (per-label measure + aggregation) and the baselines RFS and AF.

Registers ``{Max,Mean,RoR,RaR}{CS,BNS}`` (plus the same aggregations of the
extra measures IG, OR and DF under family ``"extra"``), ``RFS`` and ``AF`` in
the method registry.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..aggregation import (
    AGGREGATION_LABELS,
    max_scores,
    mean_scores,
    order_by_score,
    rand_robin,
    round_robin,
)
from ..measures import MEASURE_LABELS, MEASURES
from ..measures.counts import contingency_counts
from ._registry import MethodSpec, Ranking, register


def positional_scores(order: np.ndarray, n_features: int) -> np.ndarray:
    """Scores that sort like ``order``: ``n_features - position``, 0 for unranked."""
    scores = np.zeros(n_features, dtype=np.float64)
    scores[order] = n_features - np.arange(order.size)
    return scores


def _rank_filter(X, Y, *, k, rng, measure, aggregation, weighting="inverse") -> Ranking:
    counts = contingency_counts(X, Y)
    S = MEASURES[measure](counts)
    n_features = S.shape[1]
    if aggregation in ("max", "mean"):
        scores = max_scores(S) if aggregation == "max" else mean_scores(S)
        order = order_by_score(scores)[:k]
        return Ranking(order=order, scores=scores, label_scores=S)
    if aggregation == "ror":
        order = round_robin(S, k)
    else:
        positives = counts.tp[:, 0] + counts.fn[:, 0]
        order = rand_robin(S, positives, k, rng=rng, weighting=weighting)
    return Ranking(order=order, scores=positional_scores(order, n_features), label_scores=S)


def _rank_random(X, Y, *, k, rng) -> Ranking:
    n_features = X.shape[1]
    order = rng.permutation(n_features)[:k]
    return Ranking(order=order, scores=positional_scores(order, n_features))


def _rank_all(X, Y, *, k, rng) -> Ranking:
    n_features = X.shape[1]
    order = np.arange(n_features)[:k]
    return Ranking(order=order, scores=positional_scores(order, n_features))


_AGG_TEXT = {
    "max": "the maximum over labels of",
    "mean": "the mean over labels of",
    "ror": "a Round-Robin merge (labels in turn) of per-label rankings by",
    "rar": "a Rand-Robin merge (labels drawn inversely to their frequency) of per-label rankings by",
}
_MEASURE_TEXT = {
    "chi2": "chi-squared (CS)",
    "bns": "Bi-Normal Separation (BNS)",
    "ig": "information gain",
    "odds_ratio": "the absolute log odds ratio",
    "df": "document frequency",
}


def _register_filters() -> None:
    for measure, suffix in MEASURE_LABELS.items():
        family = "paper000" if measure in ("chi2", "bns") else "extra"
        for aggregation, prefix in AGGREGATION_LABELS.items():
            stochastic = aggregation == "rar"
            register(
                MethodSpec(
                    name=f"{prefix}{suffix}",
                    family=family,
                    rank=partial(_rank_filter, measure=measure, aggregation=aggregation),
                    stochastic=stochastic,
                    defaults={"weighting": "inverse"} if stochastic else {},
                    description=(
                        f"Ranks features by {_AGG_TEXT[aggregation]} "
                        f"{_MEASURE_TEXT[measure]} after Binary Relevance."
                    ),
                )
            )
    register(
        MethodSpec(
            name="RFS",
            family="baseline",
            rank=_rank_random,
            stochastic=True,
            description="Random feature selection: a seeded random permutation.",
        )
    )
    register(
        MethodSpec(
            name="AF",
            family="baseline",
            rank=_rank_all,
            description="All features, in file order (the no-selection baseline).",
        )
    )


_register_filters()
