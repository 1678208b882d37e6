"""Aggregate per-label scores (n_labels, n_features) into one ranking.

The four strategies of Spolaôr and Tsoumakas (2013): Max, Mean, Round-Robin and
Rand-Robin.

Score-based strategies (:func:`max_scores`, :func:`mean_scores`) reduce over
the label axis; order-based strategies (:func:`round_robin`,
:func:`rand_robin`) merge the per-label rankings. Ties always keep the lower
feature index first (stable sorts), as METHODS.md section 3 requires.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .errors import ConfigError

WEIGHTINGS = ("inverse", "proportional", "uniform")


def max_scores(S: np.ndarray) -> np.ndarray:
    """score_j = max_i S[i, j]."""
    return S.max(axis=0)


def mean_scores(S: np.ndarray) -> np.ndarray:
    """score_j = mean_i S[i, j], summed in ascending order of the values.

    Summing each column's values sorted makes the result a function of the
    column's multiset of scores, so two features whose label scores are a
    permutation of each other get bit-equal means (exact ties, METHODS.md
    section 3), whatever the label order.
    """
    S = np.asarray(S, dtype=np.float64)
    if S.shape[0] == 0:
        return np.zeros(S.shape[1])
    return np.sort(S, axis=0).sum(axis=0) / S.shape[0]


def order_by_score(scores: np.ndarray) -> np.ndarray:
    """Feature indices by descending score; equal scores keep the lower index first.

    Examples
    --------
    >>> order_by_score(np.array([1.0, 3.0, 1.0, 3.0])).tolist()
    [1, 3, 0, 2]
    """
    return np.argsort(-scores, kind="stable")


_PARTIAL_MAX_K = 4096  # above this, one full argsort per label is cheaper
_BLOCK_CELLS = 1_000_000  # scores handled at once by the partial orders


def per_label_orders(S: np.ndarray, k: int | None = None) -> np.ndarray:
    """Each label's own ranking: row i holds label i's features by descending score.

    Equal scores keep the lower feature index first. With ``k`` (RoR/RaR
    asked for ``k`` features) only each label's best ``k`` are ordered: a
    label's pointer never passes position ``k`` (every position before it
    holds a feature already taken, and fewer than ``k`` are), so the rest is
    never read. That costs a partition per label instead of a full sort, and
    a (q, k) result instead of a (q, M) one; the first ``k`` columns equal
    the full orders exactly.

    Examples
    --------
    >>> S = np.array([[1.0, 3.0, 3.0, 0.0, 3.0]])
    >>> per_label_orders(S).tolist(), per_label_orders(S, 2).tolist()
    ([[1, 2, 4, 0, 3]], [[1, 2]])
    """
    n_labels, n_features = S.shape
    if k is None or k >= n_features or k > _PARTIAL_MAX_K or n_features == 0:
        return np.argsort(-S, axis=1, kind="stable")
    out = np.empty((n_labels, k), dtype=np.intp)
    rows = max(1, _BLOCK_CELLS // n_features)
    for start in range(0, n_labels, rows):
        out[start : start + rows] = _top_orders(S[start : start + rows], k)
    return out


def _top_orders(S: np.ndarray, k: int) -> np.ndarray:
    """The best ``k`` features of each row, by descending score then lower index."""
    n_features = S.shape[1]
    kth = np.partition(S, n_features - k, axis=1)[:, n_features - k, None]
    greater = S > kth
    need = k - greater.sum(axis=1, keepdims=True)
    equal = S == kth
    # of the features scoring exactly the k-th value, the lowest indices
    chosen = greater | (equal & (np.cumsum(equal, axis=1, dtype=np.int32) <= need))
    cols = np.nonzero(chosen)[1].reshape(S.shape[0], k)  # ascending per row
    values = np.take_along_axis(S, cols, axis=1)
    return np.take_along_axis(cols, np.argsort(-values, axis=1, kind="stable"), 1)


def _merge(
    orders: np.ndarray, label_sequence: np.ndarray, k: int, n_features: int
) -> np.ndarray:
    """Merge per-label orders: full ones (q, M) or each label's top ``k`` (q, k)."""
    if orders.shape[1] < n_features:
        return _merge_top(orders, label_sequence, k, n_features)
    return _merge_full(orders, label_sequence, k)


def _merge_top(
    top: np.ndarray, label_sequence: np.ndarray, k: int, n_features: int
) -> np.ndarray:
    """:func:`_merge_full` on each label's top ``k`` only, with one taken-flag per
    feature; a label's next free feature is always within its top ``k``.
    """
    if top.shape[1] < k:
        raise ValueError(f"per-label orders hold {top.shape[1]} features, need {k}")
    taken = np.zeros(n_features, dtype=bool)
    pointer = np.zeros(top.shape[0], dtype=np.intp)
    out = np.empty(k, dtype=np.intp)
    for filled, label in enumerate(label_sequence[:k]):
        row, p = top[label], pointer[label]
        p += int(np.argmin(taken[row[p:]]))  # first feature not taken yet
        feature = row[p]
        pointer[label] = p + 1
        taken[feature] = True
        out[filled] = feature
    return out


def _merge_full(orders: np.ndarray, label_sequence: np.ndarray, k: int) -> np.ndarray:
    """Append, label by label, that label's best feature not yet taken.

    ``label_sequence`` is consumed in order; each entry is the label whose turn
    it is. ``alive[l, p]`` says whether the feature at position ``p`` of label
    ``l``'s order is still free; taking a feature clears it in every label at
    once (one vectorized assignment through the inverse permutation), and a
    label finds its next free feature with ``argmax`` over its own row, which
    stops at the first free position. The sequence itself is inherently serial
    (each turn depends on every earlier one), so one short loop step per
    selected feature remains.
    """
    n_labels, n_features = orders.shape
    position = np.empty_like(orders)
    rows = np.arange(n_labels)[:, None]
    position[rows, orders] = np.arange(n_features)  # inverse permutation per label
    alive = np.ones((n_labels, n_features), dtype=bool)
    pointer = np.zeros(n_labels, dtype=np.intp)
    all_labels = np.arange(n_labels)
    out = np.empty(k, dtype=np.intp)
    for filled, label in enumerate(label_sequence[:k]):
        p = pointer[label]
        p += int(alive[label, p:].argmax())
        feature = orders[label, p]
        pointer[label] = p + 1
        alive[all_labels, position[:, feature]] = False
        out[filled] = feature
    return out


def round_robin(
    S: np.ndarray, k: int | None = None, *, orders: np.ndarray | None = None
) -> np.ndarray:
    """Round-Robin merge (Forman 2004): labels take turns in label order.

    Parameters
    ----------
    S : ndarray of shape (n_labels, n_features)
    k : int, optional
        Number of features to return (default all).
    orders : ndarray of shape (n_labels, n_features or >= k), optional
        Precomputed :func:`per_label_orders` of ``S`` (shared between
        methods), full or with ``k`` given.

    Returns
    -------
    ndarray of shape (k,)

    Examples
    --------
    >>> S = np.array([[3.0, 2.0, 1.0, 0.0], [3.0, 0.0, 1.0, 2.0]])
    >>> round_robin(S).tolist()
    [0, 3, 1, 2]
    """
    n_labels, n_features = S.shape
    k = n_features if k is None else k
    sequence = np.resize(np.arange(n_labels), k)
    orders = per_label_orders(S, k) if orders is None else orders
    return _merge(orders, sequence, k, n_features)


def label_draw_probabilities(
    positives: np.ndarray, weighting: str = "inverse"
) -> np.ndarray:
    """Probability of drawing each label in Rand-Robin.

    Parameters
    ----------
    positives : ndarray of shape (n_labels,)
        Number of positive training samples of each label.
    weighting : {"inverse", "proportional", "uniform"}, default="inverse"
        ``"inverse"``: proportional to 1 / positives (as Spolaôr and Tsoumakas,
        2013); labels with no positive are never drawn. ``"proportional"``:
        proportional to positives. ``"uniform"``: every label with a positive
        equally. If no label has a positive, every label is drawn uniformly.

    Examples
    --------
    >>> label_draw_probabilities(np.array([1, 3, 0])).round(2).tolist()
    [0.75, 0.25, 0.0]
    """
    if weighting not in WEIGHTINGS:
        raise ConfigError(f"weighting must be one of {WEIGHTINGS}, got {weighting!r}")
    positives = np.asarray(positives, dtype=np.float64)
    has = positives > 0
    if not has.any():
        return np.full(positives.shape, 1.0 / positives.size)
    if weighting == "inverse":
        w = np.divide(1.0, positives, out=np.zeros_like(positives), where=has)
    elif weighting == "proportional":
        w = positives.copy()
    else:
        w = has.astype(np.float64)
    return w / w.sum()


def rand_robin(
    S: np.ndarray,
    positives: np.ndarray,
    k: int | None = None,
    *,
    rng: np.random.Generator,
    weighting: str = "inverse",
    orders: np.ndarray | None = None,
) -> np.ndarray:
    """Rand-Robin merge (Spolaôr and Tsoumakas, 2013): the next label is random.

    Like :func:`round_robin`, but each turn goes to a label drawn with
    :func:`label_draw_probabilities`. All draws are made at once, in blocks,
    from ``rng``.

    Returns
    -------
    ndarray of shape (k,)
    """
    n_labels, n_features = S.shape
    k = n_features if k is None else k
    p = label_draw_probabilities(positives, weighting)
    orders = per_label_orders(S, k) if orders is None else orders
    # k draws always suffice: every draw selects exactly one new feature.
    sequence = rng.choice(n_labels, size=k, p=p)
    return _merge(orders, sequence, k, n_features)


AGGREGATIONS: dict[str, Callable[..., np.ndarray]] = {
    "max": max_scores,
    "mean": mean_scores,
    "ror": round_robin,
    "rar": rand_robin,
}
"""Aggregation key -> function; keys feed the UI's selectbox."""

AGGREGATION_LABELS = {"max": "Max", "mean": "Mean", "ror": "RoR", "rar": "RaR"}
"""Aggregation key -> the prefix used in method names."""
