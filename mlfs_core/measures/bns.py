"""Bi-Normal Separation of each feature for each label (Forman 2003)."""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri

from .counts import Counts

BNS_CLIP = 0.0005


def _rate(hits: np.ndarray, total: np.ndarray) -> np.ndarray:
    # A rate with a zero denominator is 0 before clipping (METHODS.md section 2).
    out = np.zeros_like(hits)
    np.divide(hits, total, out=out, where=total > 0)
    return out


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
    >>> round(float(bns_from_counts(Counts(a(5), a(0), a(0), a(5)))[0, 0]), 4)
    6.5811
    """
    tp, fp, fn, tn = counts
    tpr = np.clip(_rate(tp, tp + fn), clip, 1.0 - clip)
    fpr = np.clip(_rate(fp, fp + tn), clip, 1.0 - clip)
    return np.abs(ndtri(tpr) - ndtri(fpr))
