"""An aggregation (Max, Mean, RoR, RaR) turn by turn, from the label x feature scores.

:func:`aggregation_steps` records, for each selected feature, whose turn it
was (RoR's label order, RaR's draw and its probability), where the feature
stood in that label's own ranking and how many better features of that label
were already taken. It reuses the engine's aggregation functions and draws
RaR's labels exactly as :func:`mlfs_core.aggregation.rand_robin` does, so the
feature column is :func:`mlfs_core.rank_features`'s order (tested).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._random import check_rng
from .._validation import check_k, check_XY
from ..aggregation import (
    label_draw_probabilities,
    max_scores,
    mean_scores,
    order_by_score,
    per_label_orders,
)
from ..errors import ConfigError
from ..measures import MEASURES
from ..measures.counts import contingency_counts
from ..selectors.naming import parse_method_name
from .labels import feature_labels

_STEP_COLUMNS = [
    "step",
    "feature",
    "label",
    "probability",
    "position",
    "skipped",
    "score",
]


def _score_steps(S: np.ndarray, aggregation: str, k: int) -> pd.DataFrame:
    scores = max_scores(S) if aggregation == "max" else mean_scores(S)
    order = order_by_score(scores)[:k]
    best_label = S[:, order].argmax(axis=0) if aggregation == "max" else -1
    orders = per_label_orders(S)
    position = np.full(k, np.nan)
    if aggregation == "max":
        place = np.argsort(orders, axis=1)  # place[l, f]: f's position for label l
        position = place[best_label, order] + 1.0
    return pd.DataFrame(
        {
            "step": np.arange(1, k + 1),
            "feature": order,
            "label": best_label if aggregation == "max" else np.full(k, -1),
            "probability": np.nan,
            "position": position,
            "skipped": 0,
            "score": scores[order],
        }
    )[_STEP_COLUMNS]


def _merge_steps(
    S: np.ndarray, sequence: np.ndarray, probabilities: np.ndarray | None, k: int
) -> pd.DataFrame:
    """Replay the label-by-label merge, recording each turn."""
    orders = per_label_orders(S)
    taken = np.zeros(S.shape[1], dtype=bool)
    pointer = np.zeros(S.shape[0], dtype=np.intp)
    rows = []
    for step, label in enumerate(sequence[:k], start=1):
        start = p = pointer[label]
        while taken[orders[label, p]]:
            p += 1
        feature = int(orders[label, p])
        pointer[label] = p + 1
        taken[feature] = True
        rows.append(
            {
                "step": step,
                "feature": feature,
                "label": int(label),
                "probability": np.nan
                if probabilities is None
                else probabilities[label],
                "position": p + 1.0,
                "skipped": int(p - start),
                "score": float(S[label, feature]),
            }
        )
    return pd.DataFrame(rows, columns=_STEP_COLUMNS)


def aggregation_steps(
    S,
    positives,
    aggregation: str,
    *,
    k: int | None = None,
    random_state=None,
    weighting: str = "inverse",
) -> pd.DataFrame:
    """The selection of one aggregation, one row per selected feature.

    Parameters
    ----------
    S : array-like of shape (n_labels, n_features)
        Per-label scores (e.g. :func:`mlfs_core.label_scores`).
    positives : array-like of shape (n_labels,)
        Positive samples of each label (RaR's draw weights).
    aggregation : {"max", "mean", "ror", "rar"}
    k : int, optional
        Number of steps (default all features).
    random_state : int, numpy.random.Generator or None
        RaR's seed; the same seed as :func:`mlfs_core.rank_features` gives its
        draws.
    weighting : {"inverse", "proportional", "uniform"}, default="inverse"
        RaR's draw weights (:func:`mlfs_core.aggregation.label_draw_probabilities`).

    Returns
    -------
    DataFrame
        ``step`` (1-based), ``feature`` (index), ``label`` (whose turn it was;
        for Max the label giving the maximum; -1 for Mean), ``probability``
        (RaR: the chance that label was drawn at each turn, else NaN),
        ``position`` (the feature's place in that label's own ranking,
        1 = its best), ``skipped`` (better features of that label already
        taken by others) and ``score`` (Max/Mean: the aggregated score; RoR,
        RaR: the label's score of the feature).

    Examples
    --------
    >>> S = np.array([[3.0, 2.0, 1.0, 0.0], [3.0, 0.0, 1.0, 2.0]])
    >>> steps = aggregation_steps(S, [2, 2], "ror")
    >>> steps[["label", "feature", "skipped"]].values.tolist()
    [[0, 0, 0], [1, 3, 1], [0, 1, 0], [1, 2, 0]]
    """
    S = np.asarray(S, dtype=np.float64)
    k = check_k(k, S.shape[1])
    if aggregation in ("max", "mean"):
        return _score_steps(S, aggregation, k)
    n_labels = S.shape[0]
    if aggregation == "ror":
        return _merge_steps(S, np.resize(np.arange(n_labels), k), None, k)
    if aggregation != "rar":
        raise ConfigError(
            f"aggregation must be max, mean, ror or rar, got {aggregation!r}"
        )
    p = label_draw_probabilities(np.asarray(positives), weighting)
    sequence = check_rng(random_state).choice(n_labels, size=k, p=p)
    return _merge_steps(S, sequence, p, k)


def method_steps(
    X,
    Y,
    method: str,
    *,
    k: int | None = None,
    random_state=None,
    weighting: str = "inverse",
    binarize: str = "presence",
) -> pd.DataFrame:
    """:func:`aggregation_steps` of a named method (``MaxCS``, ``RaRBNS``) on data."""
    aggregation, measure = parse_method_name(method)
    X, Y = check_XY(X, Y)
    counts = contingency_counts(X, Y, rule=binarize)
    return aggregation_steps(
        MEASURES[measure](counts),
        counts.positives.ravel(),
        aggregation,
        k=k,
        random_state=random_state,
        weighting=weighting,
    )


def label_turns(
    positives, aggregation: str, *, weighting: str = "inverse", label_names=None
) -> pd.DataFrame:
    """Who gets turns: RoR's fixed label order, or RaR's draw probability per label.

    Returns
    -------
    DataFrame
        ``label`` (name), ``positives``, ``probability`` (RoR: 1/q each, in
        label order; RaR: :func:`~mlfs_core.aggregation.label_draw_probabilities`).
    """
    positives = np.asarray(positives, dtype=np.float64).ravel()
    names = (
        list(label_names) if label_names is not None else list(range(positives.size))
    )
    if aggregation == "rar":
        p = label_draw_probabilities(positives, weighting)
    else:
        p = np.full(positives.size, 1.0 / max(positives.size, 1))
    return pd.DataFrame(
        {"label": names, "positives": positives.astype(int), "probability": p}
    )


def label_coverage(
    S,
    orders_by_method: dict[str, np.ndarray],
    k: int,
    *,
    top: int = 10,
    label_names=None,
) -> pd.DataFrame:
    """How many of each label's own ``top`` features each method's first ``k`` hold.

    Spolaôr and Tsoumakas's (2013) argument "Mean vs Max at low budgets" in
    numbers: with few features, Max takes each feature that is excellent for
    some label (rare labels included), Mean those good on average, which can
    leave labels with none of their best features.

    Returns
    -------
    DataFrame
        Long form ``method, label, covered`` (0 .. ``top``).
    """
    S = np.asarray(S, dtype=np.float64)
    best = per_label_orders(S)[:, :top]
    names = list(label_names) if label_names is not None else list(range(S.shape[0]))
    frames = []
    for method, order in orders_by_method.items():
        chosen = np.zeros(S.shape[1], dtype=bool)
        chosen[np.asarray(order)[:k]] = True
        frames.append(
            pd.DataFrame(
                {"method": method, "label": names, "covered": chosen[best].sum(axis=1)}
            )
        )
    return pd.concat(frames, ignore_index=True)


def selected_scores(
    S, steps: pd.DataFrame, *, feature_names=None, label_names=None
) -> pd.DataFrame:
    """The label x feature scores of the selected features, in selection order.

    Returns
    -------
    DataFrame of shape (n_labels, len(steps))
        Index = label names, columns = the labels of ``steps["feature"]``
        (:func:`~mlfs_core.explain.labels.feature_labels`: ``"#12 name"``,
        distinct even when names are not) or, without ``feature_names``,
        their column indices.
    """
    S = np.asarray(S, dtype=np.float64)
    order = steps["feature"].to_numpy(dtype=np.intp)
    columns = (
        feature_labels(feature_names, order) if feature_names is not None else order
    )
    labels = list(label_names) if label_names is not None else list(range(S.shape[0]))
    return pd.DataFrame(S[:, order], index=labels, columns=columns)


def method_view(
    X,
    Y,
    method: str,
    *,
    k: int,
    random_state=None,
    weighting: str = "inverse",
    binarize: str = "presence",
    feature_names=None,
    label_names=None,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """What the aggregation page draws: steps, their score matrix, the label turns.

    Returns
    -------
    steps : DataFrame
        :func:`aggregation_steps` of ``method``.
    matrix : DataFrame
        :func:`selected_scores` of those steps.
    turns : DataFrame
        :func:`label_turns` of the method's aggregation.
    """
    aggregation, measure = parse_method_name(method)
    X, Y = check_XY(X, Y)
    counts = contingency_counts(X, Y, rule=binarize)
    S, positives = MEASURES[measure](counts), counts.positives.ravel()
    steps = aggregation_steps(
        S, positives, aggregation, k=k, random_state=random_state, weighting=weighting
    )
    matrix = selected_scores(
        S, steps, feature_names=feature_names, label_names=label_names
    )
    turns = label_turns(
        positives, aggregation, weighting=weighting, label_names=label_names
    )
    return steps, matrix, turns


def compare_coverage(
    X,
    Y,
    methods: tuple[str, str],
    *,
    k: int,
    top: int = 10,
    random_state=None,
    binarize: str = "presence",
    label_names=None,
) -> pd.DataFrame:
    """:func:`label_coverage` of two methods of one measure (e.g. MaxCS, MeanCS).

    Both methods must use the same measure: "each label's own top features"
    are those of that measure's per-label scores.
    """
    parsed = {m: parse_method_name(m) for m in methods}
    measures = {measure for _, measure in parsed.values()}
    if len(measures) != 1:
        raise ConfigError(f"compare methods of one measure, got {', '.join(methods)}")
    X, Y = check_XY(X, Y)
    counts = contingency_counts(X, Y, rule=binarize)
    S, positives = MEASURES[measures.pop()](counts), counts.positives.ravel()
    orders = {
        m: aggregation_steps(S, positives, aggregation, k=k, random_state=random_state)[
            "feature"
        ].to_numpy()
        for m, (aggregation, _) in parsed.items()
    }
    return label_coverage(S, orders, k, top=top, label_names=label_names)


def uncovered_labels(coverage: pd.DataFrame) -> dict[str, int]:
    """Method -> number of labels with none of their own best features selected.

    Examples
    --------
    >>> table = pd.DataFrame({"method": ["A", "A", "B"], "covered": [0, 2, 0]})
    >>> uncovered_labels(table)
    {'A': 1, 'B': 1}
    """
    zero = coverage["covered"].eq(0)
    return {
        str(m): int(n)
        for m, n in zero.groupby(coverage["method"], sort=False).sum().items()
    }
