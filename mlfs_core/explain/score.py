"""One (feature, label) score, step by step: the 2x2 table, CS terms, BNS rates.

Follows METHODS.md section 2 term by term, with the engine's counts
(:func:`mlfs_core.measures.counts.contingency_counts`), so the totals equal
:func:`mlfs_core.label_scores` for the same cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import ndtri

from .._validation import check_XY
from ..aggregation import max_scores, order_by_score
from ..errors import ConfigError
from ..measures import MEASURES
from ..measures.bns import BNS_CLIP
from ..measures.counts import contingency_counts
from .labels import feature_labels


@dataclass(frozen=True)
class ScoreSteps:
    """The numbers behind CS and BNS of one feature for one label.

    Attributes
    ----------
    tp, fp, fn, tn : int
        Present & positive, present & negative, absent & positive, absent &
        negative.
    n : int
        Samples.
    cs_terms : DataFrame
        One row per cell: ``cell, observed, expected, term`` with
        ``expected = (row total) * P(label class)`` and ``term = (c - e)^2 / e``
        (0 when e = 0).
    cs : float
        The sum of the four terms.
    bns_rates : DataFrame
        Rows ``tpr`` and ``fpr``: ``hits, total, rate, clipped, quantile``;
        a rate with a zero total is 0 before clipping to [0.0005, 0.9995].
    bns : float
        ``|F^-1(tpr) - F^-1(fpr)|`` of the clipped rates.
    """

    tp: int
    fp: int
    fn: int
    tn: int
    n: int
    cs_terms: pd.DataFrame
    cs: float
    bns_rates: pd.DataFrame
    bns: float

    def table(self) -> pd.DataFrame:
        """The 2x2 table with margins, as printed in a textbook."""
        rows = {
            "feature present": [self.tp, self.fp, self.tp + self.fp],
            "feature absent": [self.fn, self.tn, self.fn + self.tn],
            "total": [self.tp + self.fn, self.fp + self.tn, self.n],
        }
        columns = ["label positive", "label negative", "total"]
        return pd.DataFrame.from_dict(rows, orient="index", columns=columns)


def _cs_terms(tp: int, fp: int, fn: int, tn: int) -> pd.DataFrame:
    n = tp + fp + fn + tn
    p_pos = (tp + fn) / n if n else 0.0
    p_neg = (fp + tn) / n if n else 0.0
    cells = [
        ("tp", tp, (tp + fp) * p_pos),
        ("fn", fn, (fn + tn) * p_pos),
        ("fp", fp, (tp + fp) * p_neg),
        ("tn", tn, (fn + tn) * p_neg),
    ]
    rows = [
        {
            "cell": c,
            "observed": o,
            "expected": e,
            "term": (o - e) ** 2 / e if e else 0.0,
        }
        for c, o, e in cells
    ]
    return pd.DataFrame(rows)


def _bns_rates(tp: int, fp: int, fn: int, tn: int, clip: float) -> pd.DataFrame:
    rows = []
    for name, hits, total in (("tpr", tp, tp + fn), ("fpr", fp, fp + tn)):
        rate = hits / total if total else 0.0
        clipped = min(max(rate, clip), 1.0 - clip)
        rows.append(
            {
                "rate": name,
                "hits": hits,
                "total": total,
                "value": rate,
                "clipped": clipped,
                "quantile": float(ndtri(clipped)),
            }
        )
    return pd.DataFrame(rows).set_index("rate")


def score_steps(
    X, Y, feature: int, label: int, *, binarize: str = "presence"
) -> ScoreSteps:
    """The 2x2 table of ``feature`` and ``label``, each CS term and the BNS rates.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    Y : array-like of shape (n_samples, n_labels)
    feature, label : int
        Column indices.
    binarize : {"presence", "median"}, default="presence"
        When a feature counts as present (as the CS/BNS methods' option).

    Returns
    -------
    ScoreSteps

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]])
    >>> Y = np.array([[1], [1], [0], [0]])
    >>> s = score_steps(X, Y, 0, 0)
    >>> (s.tp, s.fp, s.fn, s.tn), s.cs, round(s.bns, 3)
    ((2, 0, 0, 2), 4.0, 6.581)
    """
    X, Y = check_XY(X, Y)
    if not 0 <= feature < X.shape[1]:
        raise ConfigError(f"feature must lie in [0, {X.shape[1] - 1}], got {feature}")
    if not 0 <= label < Y.shape[1]:
        raise ConfigError(f"label must lie in [0, {Y.shape[1] - 1}], got {label}")
    counts = contingency_counts(X[:, [feature]], Y[:, [label]], rule=binarize)
    tp, fp, fn, tn = (int(round(float(np.ravel(c)[0]))) for c in counts.cells())
    terms = _cs_terms(tp, fp, fn, tn)
    rates = _bns_rates(tp, fp, fn, tn, BNS_CLIP)
    bns = abs(rates.loc["tpr", "quantile"] - rates.loc["fpr", "quantile"])
    return ScoreSteps(
        tp,
        fp,
        fn,
        tn,
        tp + fp + fn + tn,
        terms,
        float(terms["term"].sum()),
        rates,
        float(bns),
    )


def top_feature_scores(
    X,
    Y,
    measure: str,
    *,
    top: int = 20,
    feature_names=None,
    label_names=None,
    binarize: str = "presence",
) -> pd.DataFrame:
    """Per-label scores of the ``top`` features by their best label score (Max).

    Returns
    -------
    DataFrame of shape (n_labels, top)
        Index = label names, columns = the features' labels
        (:func:`~mlfs_core.explain.labels.feature_labels`: ``"#12 name"``,
        distinct even when names are not) or, without ``feature_names``,
        their column indices; best feature first.
    """
    if measure not in MEASURES:
        raise ConfigError(f"unknown measure {measure!r}; known: {', '.join(MEASURES)}")
    X, Y = check_XY(X, Y)
    S = MEASURES[measure](contingency_counts(X, Y, rule=binarize))
    order = order_by_score(max_scores(S))[: min(top, S.shape[1])]
    features = (
        feature_labels(feature_names, order) if feature_names is not None else order
    )
    labels = list(label_names) if label_names is not None else range(S.shape[0])
    return pd.DataFrame(S[:, order], index=labels, columns=features)


def opening_pair(
    X, Y, measure: str = "chi2", *, binarize: str = "presence"
) -> tuple[int, int]:
    """The (feature, label) a Learn page opens on: a pair that co-occurs.

    The rule: the label is the first label (in column order) that some
    feature co-occurs with (``tp > 0``: present in at least one of its
    positives, under ``binarize``); the feature is the one of highest
    ``measure`` score for that label among the features co-occurring with it,
    the lowest index among equal scores. Without any co-occurring pair (no
    positives, or no feature present in them) it is the best feature by Max
    (:func:`top_feature_scores`' first) and label 0. A 2x2 table of a pair
    that never co-occurs has an empty "present and positive" cell, which
    teaches little (medical's first feature and label never co-occur).

    Examples
    --------
    >>> X = np.array([[0, 1, 1], [0, 1, 0], [1, 0, 0], [0, 0, 1]])
    >>> Y = np.array([[0, 1], [0, 1], [0, 0], [0, 0]])
    >>> opening_pair(X, Y)
    (1, 1)
    """
    if measure not in MEASURES:
        raise ConfigError(f"unknown measure {measure!r}; known: {', '.join(MEASURES)}")
    X, Y = check_XY(X, Y)
    counts = contingency_counts(X, Y, rule=binarize)
    S = MEASURES[measure](counts)
    together = np.asarray(counts.tp) > 0
    labels = np.flatnonzero(together.any(axis=1))
    if labels.size == 0:
        return int(order_by_score(max_scores(S))[0]), 0
    label = int(labels[0])
    row = np.where(together[label], S[label], -np.inf)
    return int(np.argmax(row)), label
