"""Chi-squared score of each feature for each label (paper 000, Eq. 1)."""

from __future__ import annotations

import numpy as np

from .counts import Counts


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
    >>> float(chi2_from_counts(Counts.from_cells(a(10), a(0), a(0), a(10)))[0, 0])
    20.0
    """
    # Summing the four terms of Eq. 1 gives the closed form
    #   CS = n (tp tn - fp fn)^2 / (p (n - p) c (n - c)),  tp tn - fp fn = n tp - c p,
    # with p = tp + fp (feature presences) and c = tp + fn (label positives).
    # When a margin is 0 (p or c in {0, n}) every expected count in its row or
    # column is 0 and the remaining terms vanish, so CS = 0, as the "e = 0
    # contributes 0" convention requires. Written as per-column and per-row
    # scalings of (n tp / p - c)^2 so that the only (n_labels, n_features)
    # array is the output: five in-place passes, no temporaries.
    tp = counts.tp
    n = np.asarray(counts.n, dtype=np.float64)
    p, c = counts.present, counts.positives
    with np.errstate(divide="ignore", invalid="ignore"):
        col = np.where(p > 0, n / p, 0.0)
        col_scale = np.where((p > 0) & (p < n), n * p / (n - p), 0.0)
        row_scale = np.where((c > 0) & (c < n), 1.0 / (c * (n - c)), 0.0)
    out = tp * col
    out -= c
    np.square(out, out=out)
    out *= col_scale
    out *= row_scale
    return out
