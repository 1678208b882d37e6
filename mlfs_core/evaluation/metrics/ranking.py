"""Vectorized label-ranking metrics, equal to scikit-learn's definitions.

scikit-learn's ``label_ranking_loss`` and
``label_ranking_average_precision_score`` loop over samples in Python; on
protocol B's hundreds of small ML-kNN evaluations that loop dominated the run
time (87 % of protocol B on emotions). These versions sort every row once and
count with cumulative sums, ties handled exactly as scikit-learn does.
"""

from __future__ import annotations

import numpy as np


def _as_arrays(Y_true, scores) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(Y_true), np.asarray(scores, dtype=np.float64)


def _sorted_rows(Y: np.ndarray, S: np.ndarray, *, descending: bool):
    """Rows of ``S`` sorted, the labels in that order, and each position's tie-group
    start.
    """
    key = -S if descending else S
    order = np.argsort(key, axis=1, kind="stable")
    s = np.take_along_axis(key, order, axis=1)
    y = np.take_along_axis(Y, order, axis=1).astype(np.float64)
    positions = np.arange(S.shape[1])
    new_group = np.ones_like(s, dtype=bool)
    new_group[:, 1:] = s[:, 1:] != s[:, :-1]
    start = np.maximum.accumulate(np.where(new_group, positions, 0), axis=1)
    end = np.minimum.accumulate(
        np.where(
            np.roll(new_group, -1, axis=1) | (positions == S.shape[1] - 1)[None, :],
            positions,
            S.shape[1] - 1,
        )[:, ::-1],
        axis=1,
    )[:, ::-1]
    return y, start, end


def ranking_loss(Y_true, scores) -> float:
    """Average fraction of (relevant, irrelevant) label pairs ranked wrongly.

    A pair counts as wrong when the irrelevant label scores at least as high
    as the relevant one (ties count, as in scikit-learn). Samples with no
    relevant or no irrelevant label contribute 0.

    Examples
    --------
    >>> ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    0.75
    """
    Y, S = _as_arrays(Y_true, scores)
    n, q = Y.shape
    if n == 0:
        return 0.0
    y, start, _ = _sorted_rows(Y, S, descending=False)
    irrelevant = 1.0 - y
    before = np.cumsum(irrelevant, axis=1) - irrelevant  # irrelevant strictly before
    below = np.take_along_axis(before, start, axis=1)  # irrelevant with a lower score
    n_pos = y.sum(axis=1)
    n_neg = q - n_pos
    wrong = ((n_neg[:, None] - below) * y).sum(axis=1)
    denom = n_pos * n_neg
    loss = np.divide(wrong, denom, out=np.zeros(n), where=denom > 0)
    return float(loss.mean())


def average_precision(Y_true, scores) -> float:
    """Label ranking average precision (scikit-learn's definition, ties included).

    For each relevant label: the fraction of labels scored at least as high
    that are relevant; averaged over relevant labels, then over samples. A
    sample with no relevant label, or only relevant labels, scores 1.

    Examples
    --------
    >>> average_precision([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    0.41666666666666663
    """
    Y, S = _as_arrays(Y_true, scores)
    n, q = Y.shape
    if n == 0:
        return 0.0
    y, _, end = _sorted_rows(Y, S, descending=True)
    rel_upto = np.take_along_axis(
        np.cumsum(y, axis=1), end, axis=1
    )  # relevant with >= score
    all_upto = end + 1.0  # labels with >= score
    n_pos = y.sum(axis=1)
    precision = (rel_upto / all_upto * y).sum(axis=1)
    out = np.divide(precision, n_pos, out=np.ones(n), where=n_pos > 0)
    out[(n_pos == 0) | (n_pos == q)] = 1.0
    return float(out.mean())
