"""Static label-pair terms: sums or maxima over label pairs (l_i, l_j) of
information quantities of the triple (f, l_i, l_j), for every feature f at once.

Every pair term is a function of the joint entropy ``H(f, l_i, l_j)`` and of
cheap one- and two-variable entropies. One kernel yields ``H(f, l_i, l_j)``
for blocks of (features x labels ``j > i``); sums over pairs then need only
the block sums (the other entropies enter linearly, in closed form), while
the positive-part sum (LSMFS) and the maximum (MLSMFS) fold each block.

Counts: for a label ``i``, the samples with ``l_i = 1`` give, by one sparse
product, the counts of (feature code >= 1, l_j = 1) among them; every other
cell of the (f, l_i, l_j) table follows from totals by subtraction. Blocks
have a bounded number of elements, so memory stays small even for
delicious' 483,000 label pairs; the time is O(n_features x n_pairs x codes).

Cost: the dense blocks are O(M q^2 b / 2) time and O(2^15) memory, plus one
sparse product per label, O(nnz LC^2) in all; they serve the features that
touch many labels and the datasets where few features share a mode count.
The sums over pairs (PMU, LRFS) never use them: :func:`triple_entropy_sum`
is the sparse O(X q^2 + K q + E + P b + nnz LC^2) of :mod:`.pairs_sparse`,
and the label-pair entropies are O(N LC^2 + q^2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .data import DiscreteProblem, unique_keys
from .pairs_sparse import triple_tsum_sum
from .terms import Statics

# Elements per evaluation block: small enough to stay in cache.
_BLOCK_ELEMENTS = 1 << 15


def _t_small_labels(problem: DiscreteProblem) -> np.ndarray:
    """sum over codes v >= 1 of T[F[f, v, i]], shape (n_features, n_labels).

    From the stored co-occurrences only (T[0] = 0), without a dense temporary
    of all codes.
    """
    coo = problem.small_labels.tocoo()
    f = coo.row // (problem.n_codes - 1)
    keys = f.astype(np.intp) * problem.n_labels + coo.col
    size = problem.n_features * problem.n_labels
    sums = np.bincount(keys, weights=problem.tsum(coo.data), minlength=size)
    return sums.reshape(problem.n_features, problem.n_labels)


def _label_pair_counts(problem: DiscreteProblem) -> np.ndarray:
    """Samples with both labels positive, shape (n_labels, n_labels)."""
    both = (problem.labels.T @ problem.labels).toarray()
    return np.rint(both).astype(np.int64)


def _label_pair_entropy(problem: DiscreteProblem) -> np.ndarray:
    """H(l_i, l_j) for all label pairs, shape (n_labels, n_labels)."""
    both = _label_pair_counts(problem)
    ni = problem.label_counts[:, None]
    nj = problem.label_counts[None, :]
    cells = [both, ni - both, nj - both, problem.n_samples - ni - nj + both]
    return problem.entropy(sum(problem.tsum(c) for c in cells))


@dataclass(frozen=True)
class _LabelSlice:
    """Counts shared by the blocks of one label ``i`` (labels ``j > i`` only)."""

    i: int
    js: slice
    both: np.ndarray  # samples with l_i = l_j = 1, (n_j,)
    t_both: np.ndarray  # T[both], (n_j,)
    rows: np.ndarray  # co-occurrences among code >= 1 cells: row f*(b-1)+v-1,
    cols: np.ndarray  # column j - i - 1
    counts: np.ndarray  # and count s > 0


def _label_slice(problem, label_rows, both, i) -> _LabelSlice:
    """Sparse counts of (f code v >= 1, l_i = 1, l_j = 1) for all f, j > i."""
    rows = label_rows.indices[label_rows.indptr[i] : label_rows.indptr[i + 1]]
    right = problem.labels[rows][:, i + 1 :]  # only the labels j > i
    # CSR order: rows come sorted, so feature blocks are contiguous slices.
    product = (problem.small[rows].T @ right).tocsr().tocoo()
    js = slice(i + 1, problem.n_labels)
    return _LabelSlice(
        i=i,
        js=js,
        both=both[i, js],
        t_both=problem.tsum(both[i, js]),
        rows=product.row,
        cols=product.col,
        counts=np.rint(product.data).astype(np.int64),
    )


def _mixed_cells(problem, fs, ls: _LabelSlice) -> np.ndarray:
    """T-sum of the cells of (f, l_i, l_j) that mix f, i and j, no co-occurrence.

    Assuming no code >= 1 sample has both labels, the code-0 cell (1, 1) holds
    all ``both`` samples and every cell is a difference of known margins. Of
    those, ``T(s) = 0``, ``T(a)`` (f and i) and ``T(c)`` (f and j) and
    ``T(both)`` (i and j) are separable (:func:`_separable_cells`); the
    ``n_codes + 2`` others are summed here. Buffers are reused because this is
    the innermost dense loop of the pair methods.
    """
    fl, bc, i, js = problem.feature_label, problem.bin_counts, ls.i, ls.js
    a0, c0 = fl[fs, 0, i][:, None], fl[fs, 0, js]
    shape = c0.shape
    cells, values = np.empty(shape, dtype=np.intp), np.empty(shape)
    k = np.zeros(shape)

    def add(cells_of_block: np.ndarray) -> None:
        np.take(problem.table, cells_of_block, out=values, mode="clip")
        np.add(k, values, out=k)

    for v in range(1, problem.n_codes):
        np.subtract((bc[fs, v] - fl[fs, v, i])[:, None], fl[fs, v, js], out=cells)
        add(cells)
    add(np.subtract(a0, ls.both, out=cells))
    add(np.subtract(c0, ls.both, out=cells))  # reused just below
    add(np.subtract((bc[fs, 0][:, None] - a0), cells, out=cells))
    return k


def _separable_cells(problem, fs, ls: _LabelSlice, t_small_labels) -> np.ndarray:
    """The separable cells' T-sum: codes >= 1 with one label, and (0, 1, 1)."""
    t_a = problem.tsum(problem.feature_label[fs, 1:, ls.i]).sum(axis=1)
    return t_small_labels[fs, ls.js] + ls.t_both + t_a[:, None]


def _cells(problem, s, a, c, n) -> np.ndarray:
    """T-sum of the 2 x 2 table with cells s, a - s, c - s, n - a - c + s."""
    k = problem.tsum(s) + problem.tsum(a - s) + problem.tsum(c - s)
    return k + problem.tsum(n - a - c + s)


def _add_corrections(problem, fs, ls: _LabelSlice, k: np.ndarray) -> None:
    """Add to the block ``k`` the change due to the co-occurrences ``s > 0``."""
    b1, n_j, q = problem.n_codes - 1, k.shape[1], problem.n_labels
    lo, hi = np.searchsorted(ls.rows, [fs.start * b1, fs.stop * b1])
    rows, j, s = ls.rows[lo:hi], ls.cols[lo:hi], ls.counts[lo:hi]
    # Flat indices into feature_label (f, code, label) and bin_counts (f, code).
    fv = rows + rows // b1 + 1  # f * n_codes + v for the code v = rows % b1 + 1
    fl, bc, i = problem.feature_label.ravel(), problem.bin_counts.ravel(), ls.i
    a, c, n = fl[fv * q + i], fl[fv * q + (j + i + 1)], bc[fv]
    delta = _cells(problem, s, a, c, n) - _cells(problem, 0, a, c, n)
    flat = (rows // b1 - fs.start) * n_j + j
    if b1 > 1:  # several codes >= 1 of one feature can hit the same (f, j)
        # Group by (f, j): the keys of a block marked in a mask, not sorted
        # (:func:`.data.unique_keys`, the same arrays as ``np.unique``).
        flat, inverse = unique_keys(flat, k.size)
        delta = np.bincount(inverse, weights=delta, minlength=flat.size)
        delta = delta.astype(np.float64, copy=False)  # bincount of nothing is int
        s = np.rint(np.bincount(inverse, weights=s, minlength=flat.size))
        s = s.astype(np.int64)
    # Code 0 holds ``both - s`` samples with both labels, not ``both``.
    f0 = (flat // n_j + fs.start) * problem.n_codes
    j0 = flat % n_j
    both = ls.both[j0]
    a, c, n = fl[f0 * q + i], fl[f0 * q + (j0 + i + 1)], bc[f0]
    delta += _cells(problem, both - s, a, c, n) - _cells(problem, both, a, c, n)
    k.ravel()[flat] += delta  # flat indices are distinct


def _mixed_blocks(
    problem: DiscreteProblem,
) -> Iterator[tuple[slice, _LabelSlice, np.ndarray]]:
    """Yield ``(features, label slice, mixed T-sum + corrections)`` over all i < j."""
    m, q = problem.n_features, problem.n_labels
    both = _label_pair_counts(problem)
    label_rows = problem.labels.tocsc()
    for i in range(q - 1):
        ls = _label_slice(problem, label_rows, both, i)
        step = max(1, _BLOCK_ELEMENTS // (q - i - 1))
        for start in range(0, m, step):
            fs = slice(start, min(start + step, m))
            k = _mixed_cells(problem, fs, ls)
            _add_corrections(problem, fs, ls, k)
            yield fs, ls, k


def triple_blocks(
    problem: DiscreteProblem,
) -> Iterator[tuple[slice, int, slice, np.ndarray]]:
    """Yield ``(features, i, labels_j, H(f, l_i, l_j))`` blocks covering all i < j.

    Each block is an array of shape (n_f, n_j) for one label ``i``: a dense
    part from margins plus sparse corrections where a code >= 1 cell has
    samples with both labels (few, even on delicious).
    """
    t_small_labels = _t_small_labels(problem)
    for fs, ls, k in _mixed_blocks(problem):
        k += _separable_cells(problem, fs, ls, t_small_labels)
        yield fs, ls.i, ls.js, problem.entropy(k)


def triple_entropy_sum(problem: DiscreteProblem) -> np.ndarray:
    """sum_{i<j} H(f, l_i, l_j) for every feature, shape (n_features,).

    A baseline plus sparse corrections (:mod:`.pairs_sparse`): the work
    grows with the feature-label co-occurrences, not with n_features x pairs.
    """
    q, n = problem.n_labels, problem.n_samples
    k = triple_tsum_sum(problem, _label_pair_counts(problem))
    return q * (q - 1) / 2 * np.log2(n) - k / n


def _pair_sums(problem: DiscreteProblem, statics: Statics) -> dict[str, np.ndarray]:
    """Closed-form sums over i < j of the terms other than H(f, l_i, l_j)."""
    q = problem.n_labels
    h_ll = _label_pair_entropy(problem)
    return {
        "h3": triple_entropy_sum(problem),
        "h_f": q * (q - 1) / 2 * statics.h_f,
        "h_l": (q - 1) * statics.h_l.sum(),
        "h_fl": (q - 1) * statics.h_fl_sum,
        "h_ll": np.triu(h_ll, 1).sum(),
    }


def interaction_sum(problem: DiscreteProblem, statics: Statics) -> np.ndarray:
    """sum_{i<j} I(f; l_i; l_j), with I(f;a;b) = I(f;a) + I(f;b) - I(f; a,b).

    Returns
    -------
    ndarray of shape (n_features,)
        0 when there are fewer than two labels.
    """
    if problem.n_labels < 2:
        return np.zeros(problem.n_features)
    t = _pair_sums(problem, statics)
    return t["h_f"] + t["h_l"] - t["h_fl"] - t["h_ll"] + t["h3"]


def conditional_sum(problem: DiscreteProblem, statics: Statics) -> np.ndarray:
    """sum_{i != j} I(f; l_i | l_j) for every feature (0 if fewer than two labels)."""
    if problem.n_labels < 2:
        return np.zeros(problem.n_features)
    t = _pair_sums(problem, statics)
    return t["h_fl"] + 2.0 * t["h_ll"] - 2.0 * t["h3"] - t["h_l"]


def _fold_blocks(
    problem: DiscreteProblem,
    statics: Statics,
    fold: Callable[..., np.ndarray],
    combine: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    out = np.zeros(problem.n_features)
    h_f, h_l, h_fl = statics.h_f[:, None], statics.h_l, statics.h_fl
    h_ll = _label_pair_entropy(problem) if problem.n_labels > 1 else None
    for fs, i, js, h3 in triple_blocks(problem):
        value = fold(
            h3, h_f[fs], h_fl[fs, i : i + 1], h_fl[fs, js], h_l[i], h_l[js], h_ll[i, js]
        )
        out[fs] = combine(out[fs], value)
    return out


def _positive_interaction(h3, h_f, h_fi, h_fj, h_i, h_j, h_ij) -> np.ndarray:
    # I(f;l_i;l_j) = H(f) + H(l_i) + H(l_j) - H(f,l_i) - H(f,l_j) - H(l_i,l_j)
    #              + H(f,l_i,l_j); the f-only and j-only parts are summed first.
    interaction = h3 - h_fj
    interaction += (h_f + h_i - h_fi) + (h_j - h_ij)
    return 2.0 * np.maximum(interaction, 0.0, out=interaction).sum(axis=1)


def _max_conditional(h3, h_f, h_fi, h_fj, h_i, h_j, h_ij) -> np.ndarray:
    # I(f; l_i | l_j) = H(f,l_j) + H(l_i,l_j) - H(f,l_i,l_j) - H(l_j)
    # I(f; l_j | l_i) = H(f,l_i) + H(l_i,l_j) - H(f,l_i,l_j) - H(l_i)
    given_j = h_fj - h3
    given_j += h_ij - h_j
    given_i = (h_fi - h_i) - h3
    given_i += h_ij
    return np.maximum(given_j, given_i, out=given_j).max(axis=1)


def positive_interaction_sum(problem: DiscreteProblem, statics: Statics) -> np.ndarray:
    """sum_{i != j} max(0, I(f; l_i; l_j)) for every feature (LSMFS)."""
    return _fold_blocks(problem, statics, _positive_interaction, np.add)


def max_conditional(problem: DiscreteProblem, statics: Statics) -> np.ndarray:
    """max_{i != j} I(f; l_i | l_j) for every feature; 0 when q = 1 (MLSMFS).

    Conditional mutual information is non-negative, so starting the maximum
    at 0 only removes rounding noise below 0.
    """
    return _fold_blocks(problem, statics, _max_conditional, np.maximum)
