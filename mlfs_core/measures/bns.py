"""Bi-Normal Separation of each feature for each label (Forman 2003)."""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri

from .counts import Counts

BNS_CLIP = 0.0005


def _signed_quantile(hits: np.ndarray, totals: np.ndarray, clip: float) -> np.ndarray:
    """F^-1 of the clipped rate ``hits / totals``, symmetric bit for bit.

    The quantile is always evaluated on the smaller side, ``min(h, t - h) / t``
    clipped below at ``clip``, and negated when the rate is above 1/2. So
    F^-1(1 - x) = -F^-1(x) holds exactly, equal fractions give equal floats
    (IEEE division of whole numbers is correctly rounded) and mathematically
    equal BNS values from mirrored tables compare equal (METHODS.md section 3).
    A zero denominator gives rate 0 (then clipped).
    """
    upper = 2.0 * hits > totals
    small = np.where(upper, totals - hits, hits)
    rate = np.divide(small, totals, out=np.zeros(small.shape), where=totals > 0)
    z = ndtri(np.maximum(rate, clip, out=rate), out=rate)
    return np.where(upper, -z, z)


def _clipped_quantile(hits: np.ndarray, totals: np.ndarray, clip: float) -> np.ndarray:
    """F^-1(clip(hits / totals)) elementwise; a zero denominator gives rate 0.

    ``hits`` (n_labels, n_features) holds whole counts in [0, totals]; ``totals``
    broadcasts against it. When the totals are one per label and there are
    fewer distinct (label, count) pairs than cells, the quantile is evaluated
    once per pair in a lookup table and gathered, which is much cheaper than
    one ``ndtri`` per cell on large, sparse text data. Both paths use
    :func:`_signed_quantile`, so they give identical values.
    """
    totals = np.asarray(totals, dtype=np.float64)
    if totals.ndim == 2 and totals.shape == (hits.shape[0], 1):
        per_row = totals[:, 0].astype(np.int64)
        sizes = per_row + 1
        if sizes.sum() < hits.size:
            offsets = np.concatenate(([0], np.cumsum(sizes)[:-1]))
            row_of = np.repeat(np.arange(per_row.size), sizes)
            count = (np.arange(sizes.sum()) - offsets[row_of]).astype(np.float64)
            table = _signed_quantile(count, per_row[row_of].astype(np.float64), clip)
            index = hits.astype(np.int64)
            index += offsets[:, None]
            return table[index]
    totals = np.broadcast_to(totals, hits.shape)
    return _signed_quantile(np.asarray(hits, dtype=np.float64), totals, clip)


def bns_from_counts(counts: Counts, *, clip: float = BNS_CLIP) -> np.ndarray:
    """|F^-1(tpr) - F^-1(fpr)| for every 2x2 table, rates clipped to [clip, 1 - clip].

    Parameters
    ----------
    counts : Counts
        Cells of shape (n_labels, n_features).
    clip : float, default=0.0005
        Rates are clipped to ``[clip, 1 - clip]`` before the normal quantile,
        so the score is finite and lies in ``[0, 2 * F^-1(1 - clip)]``
        (6.58 for the default).

    Returns
    -------
    ndarray of shape (n_labels, n_features)

    References
    ----------
    G. Forman, "An extensive empirical study of feature selection metrics for
    text classification", JMLR 3, 2003.

    Examples
    --------
    >>> import numpy as np
    >>> from mlfs_core.measures.counts import Counts
    >>> a = lambda v: np.array([[float(v)]])
    >>> table = Counts.from_cells(a(5), a(0), a(0), a(5))
    >>> round(float(bns_from_counts(table)[0, 0]), 4)
    6.5811
    """
    positives = counts.positives
    negatives = counts.n - positives
    z_tp = _clipped_quantile(counts.tp, positives, clip)
    z_fp = _clipped_quantile(counts.fp, negatives, clip)
    z_tp -= z_fp
    return np.abs(z_tp, out=z_tp)
