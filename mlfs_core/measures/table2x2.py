"""Further per-label 2x2 measures: information gain, odds ratio, document frequency.

Each is a function of :class:`~mlfs_core.measures.counts.Counts` returning an
array of shape (n_labels, n_features), finite everywhere (METHODS.md section 2,
"Further measures").

Their logarithms are the same bits on every CPU (:func:`_log`): numpy's
float64 ``log`` picks a SIMD implementation by CPU (numpy 1.x's AVX-512 one
differs from the others in the last bit), so the logarithms of the counts
(whole numbers) come from a table computed in extended precision by the C
library and rounded to float64, and any other value is taken in extended
precision directly.

They need the four cells and several temporaries per cell; computed on all
labels at once that peaked at about 6x MaxCS's memory. They run on blocks of
labels (:data:`_BLOCK_CELLS` cells at a time) writing into one output array,
with the same elementwise operations, so every value is unchanged.
"""

from __future__ import annotations

import numpy as np

from .counts import Counts

_BLOCK_CELLS = 1_000_000  # (label, feature) cells per block of temporaries


def _by_label_blocks(measure):
    """Apply an elementwise ``measure(counts)`` to blocks of labels."""

    def blocked(counts: Counts, **kwargs) -> np.ndarray:
        q, m = counts.tp.shape
        rows = max(1, _BLOCK_CELLS // max(m, 1))
        if q <= rows:
            return measure(counts, **kwargs)
        out = np.empty((q, m), dtype=np.float64)
        for start in range(0, q, rows):
            part = slice(start, start + rows)
            out[part] = measure(_label_rows(counts, part, q), **kwargs)
        return out

    blocked.__name__ = measure.__name__
    blocked.__doc__ = measure.__doc__
    blocked.__wrapped__ = measure
    return blocked


def _label_rows(counts: Counts, part: slice, q: int) -> Counts:
    def rows(a):
        return a[part] if np.ndim(a) == 2 and a.shape[0] == q else a

    return Counts(
        tp=counts.tp[part],
        present=rows(counts.present),
        positives=rows(counts.positives),
        n=rows(counts.n),
    )


def _log(x: np.ndarray, base2: bool = False, offset: float = 0.0) -> np.ndarray:
    """``log(x + offset)`` (or ``log2``), the same bits on every CPU.

    Counts (whole numbers up to 2**24) are looked up in a table of their
    logarithms; other values are taken in extended precision. ``log(0)`` is
    ``-inf``.
    """
    x = np.asarray(x, dtype=np.float64)
    whole = x.size > 0 and x.min() >= 0 and x.max() <= 2**24
    if whole and np.array_equal(x, np.rint(x)):
        grid = np.arange(int(x.max()) + 1, dtype=np.longdouble) + offset
        with np.errstate(divide="ignore"):
            table = (np.log2(grid) if base2 else np.log(grid)).astype(np.float64)
        return table[x.astype(np.intp)]
    wide = x.astype(np.longdouble) + offset
    with np.errstate(divide="ignore"):
        return (np.log2(wide) if base2 else np.log(wide)).astype(np.float64)


def _entropy2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Entropy in bits of the two-cell distribution (a, b) given as counts.

    Each term p log2 p is (c / t) (log2 c - log2 t) for a count c > 0 of the
    total t (0 where c = 0).
    """
    total = a + b
    log_total = _log(total, base2=True)
    h = np.zeros_like(total, dtype=np.float64)
    for c in (a, b):
        share = np.divide(c, total, out=np.zeros_like(total), where=total > 0)
        with np.errstate(invalid="ignore"):  # 0 * (-inf) where c = 0, masked below
            term = share * (_log(c, base2=True) - log_total)
        h -= np.where(c > 0, term, 0.0)
    return h


@_by_label_blocks
def information_gain_from_counts(counts: Counts) -> np.ndarray:
    """Information gain (mutual information in bits) between presence and label.

    IG = H(label) - P(present) H(label | present) - P(absent) H(label | absent),
    a value in [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from mlfs_core.measures.counts import Counts
    >>> a = lambda v: np.array([[float(v)]])
    >>> table = Counts.from_cells(a(4), a(0), a(0), a(4))
    >>> float(information_gain_from_counts(table)[0, 0])
    1.0
    """
    tp, fp, fn, tn = counts.cells()
    n = tp + fp + fn + tn
    present = tp + fp
    p_present = np.divide(present, n, out=np.zeros_like(n), where=n > 0)
    h_label = _entropy2(tp + fn, fp + tn)
    h_cond = p_present * _entropy2(tp, fp) + (1.0 - p_present) * _entropy2(fn, tn)
    return np.maximum(h_label - h_cond, 0.0)


@_by_label_blocks
def odds_ratio_from_counts(counts: Counts, *, smoothing: float = 0.5) -> np.ndarray:
    """Absolute log odds ratio with additive smoothing of every cell.

    |log((tp+s)(tn+s) / ((fp+s)(fn+s)))|; the smoothing ``s`` (Haldane's 0.5)
    keeps it finite when a cell is empty. Absolute, so negative association
    ranks like positive association (as CS and BNS do).

    Examples
    --------
    >>> import numpy as np
    >>> from mlfs_core.measures.counts import Counts
    >>> a = lambda v: np.array([[float(v)]])
    >>> float(odds_ratio_from_counts(Counts.from_cells(a(1), a(1), a(1), a(1)))[0, 0])
    0.0
    """
    if smoothing <= 0:
        raise ValueError(f"smoothing must be positive, got {smoothing}")
    tp, fp, fn, tn = (_log(c, offset=smoothing) for c in counts.cells())
    return np.abs(tp + tn - fp - fn)


@_by_label_blocks
def document_frequency_from_counts(counts: Counts) -> np.ndarray:
    """Fraction of samples in which the feature is present (the same for every label).

    Examples
    --------
    >>> import numpy as np
    >>> from mlfs_core.measures.counts import Counts
    >>> a = lambda v: np.array([[float(v)]])
    >>> table = Counts.from_cells(a(1), a(2), a(3), a(4))
    >>> float(document_frequency_from_counts(table)[0, 0])
    0.3
    """
    tp, fp, fn, tn = counts.cells()
    n = tp + fp + fn + tn
    return np.divide(tp + fp, n, out=np.zeros_like(n), where=n > 0)
