"""Chi-squared score of each feature for each label.

The CS of Spolaôr and Tsoumakas (2013, Eq. 1).
"""

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
    #   CS = n d^2 / (p (n - p) c (n - c)),  d = tp tn - fp fn = n tp - c p,
    # with p = tp + fp (feature presences) and c = tp + fn (label positives).
    # When a margin is 0 (p or c in {0, n}) every expected count in its row or
    # column is 0 and the remaining terms vanish, so CS = 0, as the "e = 0
    # contributes 0" convention requires.
    #
    # Exact ties (METHODS.md section 3): d^2 and the denominator are computed
    # as exact integers, and the ratio r = d^2 / den is rounded once, so two
    # tables with the same rational r get bit-identical floats (IEEE division
    # of two exactly representable integers is correctly rounded). Ratios whose
    # terms exceed 2^53 are first reduced by their gcd, so the float is a
    # function of the reduced fraction. Then CS = n * r, one more deterministic
    # rounding. See :func:`_exact_ratio`.
    n = float(np.asarray(counts.n).reshape(-1)[0]) if np.ndim(counts.n) else counts.n
    if np.ndim(counts.n) and np.unique(np.asarray(counts.n)).size > 1:
        return _chi2_general(counts)
    return _chi2_common_n(counts.tp, counts.present, counts.positives, n)


_EXACT = 2**53
_MAX_EXACT_N = 100_000


def _chi2_common_n(tp, present, positives, n: float) -> np.ndarray:
    """CS for tables that share one sample count ``n`` (the usual case)."""
    n_int = int(round(n))
    if n_int > _MAX_EXACT_N:
        # p(n-p)c(n-c) may overflow int64: fall back to float arithmetic
        # (ties are then exact only up to float rounding; documented).
        return _chi2_float(tp, present, positives, float(n))
    p = np.rint(present).astype(np.int64)
    c = np.rint(positives).astype(np.int64)
    if p.shape[0] == 1 and c.shape[1] == 1:
        return _chi2_by_margins(tp, p[0], c[:, 0], n_int)
    return _exact_cells(np.rint(tp).astype(np.int64), p, c, n_int)


def _exact_cells(tp, p, c, n: int) -> np.ndarray:
    """Exact-rounded CS of tables given by broadcastable integer ``tp, p, c``."""
    d = tp * n - c * p
    num = np.square(d, out=d if d.flags.writeable and d.ndim else None)
    den = (c * (n - c)) * (p * (n - p))
    return _exact_ratio(num, den) * float(n)


def _chi2_by_margins(tp: np.ndarray, p: np.ndarray, c: np.ndarray, n: int):
    """CS for per-feature ``p`` and per-label ``c``: the same values as
    :func:`_exact_cells`, computed once per distinct (label, presence count)
    for the cells with tp = 0 (most cells of sparse text data) and per cell
    only where tp > 0.
    """
    present_values, column_of = np.unique(p, return_inverse=True)
    zero_table = _exact_cells(
        np.zeros((present_values.size, c.size), dtype=np.int64),
        present_values[:, None],
        c[None, :],
        n,
    )
    # Work on the (n_features, n_labels) layout, which is how the counts come
    # out of B^T Y: flat, contiguous, so finding and filling the tp > 0 cells
    # is 1-D indexing.
    flat_tp = np.ascontiguousarray(tp.T).ravel()
    out = np.take(zero_table, column_of, axis=0)  # (n_features, n_labels)
    cells = np.flatnonzero(flat_tp)
    feature, label = np.divmod(cells, c.size)
    hits = np.rint(flat_tp[cells]).astype(np.int64)
    out.ravel()[cells] = _exact_cells(hits, p[feature], c[label], n)
    return out.T


def _exact_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` rounded once from the exact fraction; 0 where ``den`` is 0.

    Equal fractions give bit-equal results: terms below 2^53 are exact in
    float64 and IEEE division rounds correctly; larger terms are divided by
    their gcd first, so the value depends only on the reduced fraction.
    """
    num, den = np.broadcast_arrays(num, den)
    big = (num >= _EXACT) | (den >= _EXACT)
    if big.any():
        num, den = num.copy(), den.copy()
        g = np.gcd(num[big], den[big])
        g[g == 0] = 1
        num[big] //= g
        den[big] //= g
    out = np.zeros(num.shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _chi2_float(tp, present, positives, n: float) -> np.ndarray:
    """The closed form in float arithmetic (no exact-tie guarantee)."""
    p, c = present, positives
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


def _chi2_general(counts: Counts) -> np.ndarray:
    """CS for tables with different sample counts (hand-made tables), exact."""
    tp, fp, fn, tn = (np.rint(x).astype(np.int64) for x in counts.cells())
    n = tp + fp + fn + tn
    p, c = tp + fp, tp + fn
    d = n * tp - c * p
    num, den = d * d, p * (n - p) * c * (n - c)
    return _exact_ratio(num, den) * n
