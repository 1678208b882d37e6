"""Bi-Normal Separation of each feature for each label (Forman 2003)."""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri

from .counts import Counts

BNS_CLIP = 0.0005


def _clipped_quantile(hits: np.ndarray, totals: np.ndarray, clip: float) -> np.ndarray:
    """F^-1(clip(hits / totals)) elementwise; a zero denominator gives rate 0.

    ``hits`` (n_labels, n_features) holds whole counts in [0, totals]; ``totals``
    broadcasts against it. When the totals are one per label and there are
    fewer distinct (label, count) pairs than cells, the quantile is evaluated
    once per pair in a lookup table and gathered, which is much cheaper than
    one ``ndtri`` per cell on large, sparse text data.
    """
    totals = np.asarray(totals, dtype=np.float64)
    if totals.ndim == 2 and totals.shape == (hits.shape[0], 1):
        per_row = totals[:, 0].astype(np.int64)
        sizes = per_row + 1
        if sizes.sum() < hits.size:
            offsets = np.concatenate(([0], np.cumsum(sizes)[:-1]))
            row_of = np.repeat(np.arange(per_row.size), sizes)
            count = np.arange(sizes.sum()) - offsets[row_of]
            denom = per_row[row_of]
            rate = np.divide(count, denom, out=np.zeros(count.shape), where=denom > 0)
            table = ndtri(np.clip(rate, clip, 1.0 - clip))
            index = hits.astype(np.int64)
            index += offsets[:, None]
            return table[index]
    totals = np.broadcast_to(totals, hits.shape)
    rate = np.divide(hits, totals, out=np.zeros(hits.shape), where=totals > 0)
    return ndtri(np.clip(rate, clip, 1.0 - clip, out=rate), out=rate)


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
