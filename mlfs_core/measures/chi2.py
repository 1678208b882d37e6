"""Chi-squared score of each feature for each label (paper 000, Eq. 1)."""

from __future__ import annotations

import numpy as np

from .counts import Counts


def _term(observed: np.ndarray, expected: np.ndarray) -> np.ndarray:
    # A term whose expected count is 0 contributes 0 (METHODS.md section 2).
    out = np.zeros_like(expected)
    np.divide((observed - expected) ** 2, expected, out=out, where=expected > 0)
    return out


def chi2_from_counts(counts: Counts) -> np.ndarray:
    """Pearson's chi-squared of every 2x2 table, without continuity correction.

    Parameters
    ----------
    counts : Counts
        Cells ``tp, fp, fn, tn`` of shape (n_labels, n_features).

    Returns
    -------
    ndarray of shape (n_labels, n_features)
        CS = t(tp, (tp+fp)Ppos) + t(fn, (fn+tn)Ppos) + t(fp, (tp+fp)Pneg)
        + t(tn, (fn+tn)Pneg), with t(c, e) = (c - e)^2 / e and t = 0 when
        e = 0; non-negative and finite everywhere.

    References
    ----------
    N. Spolaôr and G. Tsoumakas, "Evaluating feature selection methods for
    multi-label text classification", 2013, Eq. 1.

    Examples
    --------
    >>> import numpy as np
    >>> from mlfs_core.measures.counts import Counts
    >>> a = lambda v: np.array([[float(v)]])
    >>> float(chi2_from_counts(Counts(a(10), a(0), a(0), a(10)))[0, 0])
    20.0
    """
    tp, fp, fn, tn = counts
    n = tp + fp + fn + tn
    with np.errstate(divide="ignore", invalid="ignore"):
        p_pos = np.where(n > 0, (tp + fn) / n, 0.0)
    p_neg = np.where(n > 0, 1.0 - p_pos, 0.0)
    present, absent = tp + fp, fn + tn
    return (
        _term(tp, present * p_pos)
        + _term(fn, absent * p_pos)
        + _term(fp, present * p_neg)
        + _term(tn, absent * p_neg)
    )
