"""Score + aggregation methods (a measure per label, then an aggregation) and
the baselines Random and AF.

:func:`filter_specs` describes ``{Max,Mean,RoR,RaR}{CS,BNS}`` (family
``"score-aggregation"``; plus the same aggregations of the extra measures IG,
OR and DF under family ``"extra"``), ``Random`` and ``AF`` (family
``"baseline"``) for the method registry (:mod:`._registry`).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ..aggregation import (
    AGGREGATION_LABELS,
    WEIGHTINGS,
    max_scores,
    mean_scores,
    order_by_score,
    per_label_orders,
    rand_robin,
    round_robin,
)
from ..measures import MEASURE_LABELS, MEASURES
from ..measures.counts import BINARIZE, contingency_counts
from ..options import Option
from ._spec import MethodSpec, Ranking
from .citations import SCORE_AGGREGATION, TEXT_MEASURES
from .naming import method_name, parse_method_name


def _positional_scores(order: np.ndarray, n_features: int) -> np.ndarray:
    """Scores that sort like ``order``: ``n_features - position``, 0 for unranked."""
    scores = np.zeros(n_features, dtype=np.float64)
    scores[order] = n_features - np.arange(order.size)
    return scores


def _aggregate(S, positives, *, k, rng, aggregation, weighting="inverse", orders=None):
    """Turn one per-label score matrix into a :class:`Ranking` with one strategy."""
    n_features = S.shape[1]
    if aggregation in ("max", "mean"):
        scores = max_scores(S) if aggregation == "max" else mean_scores(S)
        return Ranking(order=order_by_score(scores)[:k], scores=scores, label_scores=S)
    if aggregation == "ror":
        order = round_robin(S, k, orders=orders)
    else:
        order = rand_robin(S, positives, k, rng=rng, weighting=weighting, orders=orders)
    return Ranking(
        order=order, scores=_positional_scores(order, n_features), label_scores=S
    )


def _rank_filter(
    X,
    Y,
    *,
    k,
    rng,
    measure,
    aggregation,
    weighting="inverse",
    binarize="presence",
) -> Ranking:
    counts = contingency_counts(X, Y, rule=binarize)
    S = MEASURES[measure](counts)
    positives = counts.positives.ravel()
    return _aggregate(
        S, positives, k=k, rng=rng, aggregation=aggregation, weighting=weighting
    )


def rank_filter_methods(
    X, Y, methods, *, k=None, random_state=None, binarize="presence"
) -> dict[str, Ranking]:
    """Rank with several score + aggregation methods at once, sharing all common work.

    The contingency counts are computed once, each measure's score matrix
    once, and each measure's per-label orders once for RoR and RaR, so all
    eight CS/BNS methods cost little more than one.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_labels)
    methods : sequence of str
        Names of ``{Max,Mean,RoR,RaR}{CS,BNS,IG,OR,DF}`` methods.
    k : int, optional
        Number of features (default all).
    random_state : int, numpy.random.Generator or None
        One generator is created and used by the RaR methods in the order given.
    binarize : {"presence", "median"}, default="presence"
        When a feature counts as present in the 2x2 counts
        (:func:`mlfs_core.measures.counts.binarize`).

    Returns
    -------
    dict
        Method name -> :class:`Ranking`, each identical to what
        :func:`mlfs_core.compute_ranking` returns for it alone with a
        generator in the same state.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 0, 1], [1, 0, 0], [0, 1, 1], [0, 1, 0]])
    >>> Y = np.array([[1, 0], [1, 0], [0, 1], [0, 0]])
    >>> out = rank_filter_methods(X, Y, ["MaxCS", "RoRBNS"])
    >>> out["MaxCS"].order.tolist(), out["RoRBNS"].order.tolist()
    ([0, 1, 2], [0, 1, 2])
    """
    from .._random import check_rng
    from .._validation import check_k, check_XY

    X, Y = check_XY(X, Y)
    k = check_k(k, X.shape[1])
    rng = check_rng(random_state)
    parsed = {name: parse_method_name(name) for name in methods}
    counts = contingency_counts(X, Y, rule=binarize)
    positives = counts.positives.ravel()
    matrices, orders, out = {}, {}, {}
    for name, (aggregation, measure) in parsed.items():
        if measure not in matrices:
            matrices[measure] = MEASURES[measure](counts)
        S = matrices[measure]
        if aggregation in ("ror", "rar") and measure not in orders:
            orders[measure] = per_label_orders(S, k)
        out[name] = _aggregate(
            S,
            positives,
            k=k,
            rng=rng,
            aggregation=aggregation,
            orders=orders.get(measure),
        )
    return out


def _rank_random(X, Y, *, k, rng) -> Ranking:
    n_features = X.shape[1]
    order = rng.permutation(n_features)[:k]
    return Ranking(order=order, scores=_positional_scores(order, n_features))


def _rank_all(X, Y, *, k, rng) -> Ranking:
    n_features = X.shape[1]
    order = np.arange(n_features)[:k]
    return Ranking(order=order, scores=_positional_scores(order, n_features))


_AGG_TEXT = {
    "max": "the maximum over labels of",
    "mean": "the mean over labels of",
    "ror": "a Round-Robin merge (labels in turn) of per-label rankings by",
    "rar": "a Rand-Robin merge (labels drawn inversely to their frequency) "
    "of per-label rankings by",
}
_MEASURE_TEXT = {
    "chi2": "chi-squared (CS)",
    "bns": "Bi-Normal Separation (BNS)",
    "ig": "information gain",
    "odds_ratio": "the absolute log odds ratio",
    "df": "document frequency",
}


_BINARIZE_OPTION = Option(
    "binarize",
    "presence",
    choices=BINARIZE,
    help="When a feature counts as present: non-zero (text) or above its median.",
)
_WEIGHTING_OPTION = Option(
    "weighting",
    "inverse",
    choices=WEIGHTINGS,
    help="RaR: how likely each label is to be drawn, given its positives.",
)


_DEFAULT_FOR = dict.fromkeys(("MaxCS", "MeanCS", "MaxBNS", "RaRBNS"), ("experiment-A",))
"""Protocol A's teaching set in the app: contrasting aggregations of both
measures (with the baselines Random and AF)."""


_SCORE_KIND = {"max": "score", "mean": "score", "ror": "order", "rar": "order"}
"""Max and Mean aggregate scores; Round-Robin and Rand-Robin merge per-label
orders, so their score is only the position turned around."""


def _measure_spec(measure: str, aggregation: str) -> MethodSpec:
    """The spec of one measure + aggregation method, e.g. ``MaxCS``."""
    first = measure in ("chi2", "bns")  # CS and BNS; the others are "extra"
    stochastic = aggregation == "rar"
    name = method_name(aggregation, measure)
    return MethodSpec(
        name=name,
        family="score-aggregation" if first else "extra",
        rank=partial(_rank_filter, measure=measure, aggregation=aggregation),
        stochastic=stochastic,
        options=(_WEIGHTING_OPTION, _BINARIZE_OPTION)
        if stochastic
        else (_BINARIZE_OPTION,),
        description=(
            f"Ranks features by {_AGG_TEXT[aggregation]} "
            f"{_MEASURE_TEXT[measure]} after Binary Relevance."
        ),
        default_for=_DEFAULT_FOR.get(name, ()),
        score_kind=_SCORE_KIND[aggregation],
        citation=SCORE_AGGREGATION if first else TEXT_MEASURES,
    )


def filter_specs() -> list[MethodSpec]:
    """The specs of every measure + aggregation method and of Random and AF."""
    specs = [
        _measure_spec(measure, aggregation)
        for measure in MEASURE_LABELS
        for aggregation in AGGREGATION_LABELS
    ]
    return specs + [
        MethodSpec(
            name="Random",
            family="baseline",
            rank=_rank_random,
            stochastic=True,
            description="Random feature selection: a seeded random permutation.",
            reference="random",
            default_for=("experiment-A", "control"),
            score_kind="order",
            citation=SCORE_AGGREGATION,
        ),
        MethodSpec(
            name="AF",
            family="baseline",
            rank=_rank_all,
            description="All features, in file order (the no-selection baseline).",
            reference="all",
            default_for=("experiment-A",),
            score_kind="order",
            citation=SCORE_AGGREGATION,
        ),
    ]
