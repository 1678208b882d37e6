"""sum_{i<j} H(f, l_i, l_j) from a baseline plus sparse corrections.

Most (feature, label) pairs never co-occur on text data: on rcv1subset1 a
feature's non-mode samples carry on average 4.5 of the 101 labels, so of
its 5,050 label pairs about 450 involve such a *touched* label and 60 have
both labels touched. Every label pair's table is therefore computed as the
table of a feature whose non-mode samples have no label (the *baseline*,
which depends on the feature only through its code counts, summed over all
pairs in closed form or once per distinct mode count), plus:

* for each touched (f, t): the change of every pair {t, u} if u were
  untouched, summed over all u at once (one pass over the labels);
* for each pair {t, u} with both labels touched: the true table minus the
  baseline minus the two single-label changes counted above, with the
  co-occurrence counts of (f = v, l_t = 1, l_u = 1) from sparse products.

T-sums are those of :mod:`.data`; the result equals the dense kernel of
:mod:`.pairs` up to rounding.

Cost (X distinct mode counts, K <= 3 E distinct (t, a), (t, x) and
(t, x + a) keys, P = sum_f |T_f|^2 / 2 pairs of touched labels, T_f the
labels touched by f): the baseline O(X q^2); the single changes O(E b + K q)
(once per key, not per entry); the touched pairs O(P b); the co-occurrence
counts one product with the label-pair matrix (N x q^2, about N LC^2 / 2
values), O(nnz LC^2), and O(nnz LC^2) for their fix-ups. Memory O(E b +
chunk) plus the product's records.

Compiled (:mod:`.kernels`, the default where (b - 1) q^2 <= 2^24): the
touched pairs and the shared-sample changes are loops with the same
operations in the same order, so the values are bit-identical: the
co-occurrence counts O(nnz LC^2) into an O(b q^2) scratch table per
feature, with no label-pair matrix, product or sort of its records, their
changes O(P_S b + P_S log P_S) for the P_S (feature, label pair) tables
with shared samples, and the touched pairs O(P b).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .data import DiscreteProblem, kernels, unique_keys

# Entries (or pairs) per chunk: bounds the (chunk, n_labels) temporaries.
_CHUNK = 1 << 14
_PAIR_CHUNK = 1 << 17


def _t(problem: DiscreteProblem, counts) -> np.ndarray:
    return problem.tsum(counts)


def _baseline(problem: DiscreteProblem, both: np.ndarray) -> np.ndarray:
    """T-sum over all pairs of a feature whose non-mode samples have no label."""
    q, n_labels = problem.n_labels, problem.label_counts
    iu, ju = np.triu_indices(q, 1)
    b = both[iu, ju]
    ni, nj = n_labels[iu], n_labels[ju]
    constant = (_t(problem, b) + _t(problem, ni - b) + _t(problem, nj - b)).sum()
    small = iu.size * _t(problem, problem.bin_counts[:, 1:]).sum(axis=1)
    # sum over pairs of T[x - c_ij] for x = each feature's mode count.
    c_values, c_counts = np.unique(ni + nj - b, return_counts=True)
    x_values, inverse = np.unique(problem.bin_counts[:, 0], return_inverse=True)
    per_x = np.zeros(x_values.size)
    step = max(1, _PAIR_CHUNK // max(c_values.size, 1))
    for start in range(0, x_values.size, step):
        x = x_values[start : start + step, None]
        per_x[start : start + step] = _t(problem, x - c_values[None, :]) @ c_counts
    return constant + small + per_x[inverse.ravel()]


def _touched(problem: DiscreteProblem):
    """Touched (f, t) entries sorted by (f, t): f, t, alpha, F[f, 1:, t]."""
    entries = problem.entries  # its (f, i) groups are the touched entries
    f, t = entries.group_f, entries.group_i
    small = problem.feature_label[f, 1:, t]  # (E, b1)
    return f, t, small.sum(axis=1), small


def _row_sums_without_self(problem, values: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Row sums of a (keys, q) table of T values, leaving out each row's own label t."""
    values[np.arange(t.size), t] = 0.0  # u = t is no pair
    return values.sum(axis=1)


def _keyed(keys: np.ndarray, n_keys: int, evaluate) -> np.ndarray:
    """``evaluate(unique keys)`` once per distinct key, spread back to ``keys``."""
    unique, inverse = unique_keys(keys, n_keys)
    out = np.empty(unique.size)
    for start in range(0, unique.size, _CHUNK):
        out[start : start + _CHUNK] = evaluate(unique[start : start + _CHUNK])
    return out[inverse]


def _single_changes(problem, both, f, t, alpha, small) -> np.ndarray:
    """Per touched entry: sum over all u != t of the change of pair {t, u}.

    The change of pair {t, u} when only t is touched is, with ``a`` the
    entry's non-mode samples with label t, ``x`` its mode count and
    ``c = n_t + n_u - b_tu`` the samples with t or u,
    ``T(n_t - a - b_tu) - T(n_t - b_tu) + T(x + a - c) - T(x - c)`` plus the
    code >= 1 part. Summed over u it depends on (t, a) and (t, x) or
    (t, x + a) only, so each sum is evaluated once per distinct key.
    """
    q, n_labels, n = problem.n_labels, problem.label_counts, problem.n_samples
    bc = problem.bin_counts
    e_ft = (
        _t(problem, small) + _t(problem, bc[f, 1:] - small) - _t(problem, bc[f, 1:])
    ).sum(axis=1)
    width = n + 1
    c = n_labels[:, None] + n_labels[None, :] - both  # samples with t or u

    def by_alpha(keys):  # sum_u T(n_t - a - b_tu) for keys t * width + a
        tk, ak = keys // width, keys % width
        values = _t(problem, (n_labels[tk] - ak)[:, None] - both[tk])
        return _row_sums_without_self(problem, values, tk)

    def by_mode(keys):  # sum_u T(y - c_tu) for keys t * width + y
        tk, yk = keys // width, keys % width
        values = _t(problem, yk[:, None] - c[tk])
        return _row_sums_without_self(problem, values, tk)

    x = bc[f, 0]
    n_keys = q * width
    out = (q - 1) * e_ft
    out += _keyed(t * width + alpha, n_keys, by_alpha)
    out -= _keyed(t * width, n_keys, by_alpha)
    both_keys = np.concatenate([t * width + x + alpha, t * width + x])
    mode = _keyed(both_keys, n_keys, by_mode)
    out += mode[: f.size] - mode[f.size :]
    return out


def _pairs_of(first: np.ndarray, stop: np.ndarray):
    """All index pairs (e, e2), first[e] <= ... : e2 in (e, stop[e])."""
    counts = stop - first - 1
    left = np.repeat(first, counts)
    offsets = np.repeat(np.cumsum(counts) - counts, counts)
    right = left + 1 + (np.arange(left.size) - offsets)
    return left, right


def _label_pair_matrix(problem: DiscreteProblem) -> sp.csr_matrix:
    """Indicator of the samples with both labels, shape (n_samples, q * q).

    Column ``t * q + u`` (t < u) of a sample is 1 when it has both labels; a
    sample with LC labels has LC (LC - 1) / 2 entries, so the matrix holds
    about N LC^2 / 2 values, however many label pairs there are.
    """
    labels = problem.labels
    if not labels.has_sorted_indices:
        labels = labels.sorted_indices()
    q, n = problem.n_labels, problem.n_samples
    per_row = np.diff(labels.indptr)
    row = np.repeat(np.arange(n), per_row)
    entry = np.arange(labels.nnz)
    left, right = _pairs_of(entry, labels.indptr[row + 1])
    cols = labels.indices.astype(np.intp)
    data = np.ones(left.size)
    return sp.csr_matrix(
        (data, (row[left], cols[left] * q + cols[right])), shape=(n, q * q)
    )


# Co-occurrence records per block of features: bounds the product's memory.
_RECORDS = 1 << 19


class PairCounts:
    """Counts of (f = v >= 1, l_t = l_u = 1), t < u, by blocks of features.

    One sparse product of the codes with :func:`_label_pair_matrix` per block:
    a block holds at most about ``_RECORDS`` stored counts (a feature's
    non-mode samples times their label pairs), so memory stays bounded even
    when documents carry many labels.
    """

    def __init__(self, problem: DiscreteProblem) -> None:
        self.problem = problem
        self.pairs = _label_pair_matrix(problem)
        self.small_t = sp.csr_matrix(problem.small.T)  # rows (f, v) in order
        present = sp.csr_matrix(problem.codes.T)
        present.data = np.ones(present.nnz)
        self.present_t = present
        per_sample = np.diff(self.pairs.indptr).astype(np.float64)
        self.work = present @ per_sample  # records of each feature, at most

    def blocks(self):
        """Yield feature ranges ``(f0, f1)`` of bounded work, covering all."""
        m = self.problem.n_features
        cum = np.cumsum(self.work)
        f0 = 0
        while f0 < m:
            base = cum[f0 - 1] if f0 else 0.0
            f1 = int(np.searchsorted(cum, base + _RECORDS, side="right"))
            f1 = min(max(f1, f0 + 1), m)
            yield f0, f1
            f0 = f1

    def counts(self, features: np.ndarray):
        """Records ``(f, v, pair, s)``, totals ``(f, pair, S)`` and each record's total.

        ``features`` is sorted; ``pair`` is the column ``t * q + u``; records
        are sorted by (f, v, pair), totals by (f, pair). ``S`` sums ``s`` over
        the codes >= 1; the third array holds the index of each record's
        total.
        """
        b1, q2 = self.problem.n_codes - 1, self.problem.n_labels**2
        rows = (features[:, None] * b1 + np.arange(b1)).ravel()
        product = (self.small_t[rows] @ self.pairs).tocsr()
        product.sort_indices()
        owner = rows[np.repeat(np.arange(rows.size), np.diff(product.indptr))]
        f, pair = owner // b1, product.indices.astype(np.intp)
        s = np.rint(product.data).astype(np.intp)
        records = (f, owner % b1, pair, s)
        if b1 == 1:  # one code >= 1: every record is its own total
            return records, (f, pair, s), np.arange(f.size)
        # Each feature's records are b1 sorted runs: a stable sort merges them.
        keys = f * q2 + pair
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
        first = np.empty(ordered.size, dtype=bool)
        first[:1] = True
        np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        where = np.empty(keys.size, dtype=np.intp)
        where[order] = np.cumsum(first) - 1
        big_s = np.add.reduceat(s[order], starts) if starts.size else s[:0]
        g_f, g_pair = np.divmod(ordered[starts], q2)
        return records, (g_f, g_pair, big_s), where


def _code_cells_delta(problem, f, v, pair, s) -> np.ndarray:
    """Change of the code v >= 1 cells of each stored co-occurrence record."""
    q, n_codes = problem.n_labels, problem.n_codes
    fl, bc = problem.feature_label.ravel(), problem.bin_counts.ravel()
    t, u = np.divmod(pair, q)
    fv = f * n_codes + v + 1  # flat (f, code) index
    ft, fu = fl[fv * q + t], fl[fv * q + u]
    rest = bc[fv] - ft - fu
    delta = _t(problem, s) - _t(problem, rest)
    delta += _t(problem, ft - s) - _t(problem, ft)
    delta += _t(problem, fu - s) - _t(problem, fu)
    delta += _t(problem, rest + s)
    return delta


def _mode_cells_delta(problem, both, entries, g_f, pair, big_s) -> np.ndarray:
    """Change of the code-0 cells of each (f, t, u) with S > 0 shared samples."""
    q, n_labels = problem.n_labels, problem.label_counts
    g_t, g_u = np.divmod(pair, q)
    alpha_all = entries[2]  # per (f, i) group of problem.entries (see _touched)
    a_t = alpha_all[problem.entries.group_of(g_f, g_t)]
    a_u = alpha_all[problem.entries.group_of(g_f, g_u)]
    n_t, n_u = n_labels[g_t], n_labels[g_u]
    b = both.ravel()[pair]
    ot, ou = n_t - a_t - b, n_u - a_u - b
    z = problem.bin_counts[g_f, 0] - n_t - n_u + a_t + a_u + b
    delta = _t(problem, b - big_s) - _t(problem, b)
    delta += _t(problem, ot + big_s) - _t(problem, ot)
    delta += _t(problem, ou + big_s) - _t(problem, ou)
    delta += _t(problem, z - big_s) - _t(problem, z)
    return delta


def int64s(*arrays) -> list[np.ndarray]:
    """The arrays as int64 (one signature per compiled kernel)."""
    return [np.asarray(a).astype(np.int64, copy=False) for a in arrays]


# Largest (codes - 1) x q^2 scratch count table of the compiled kernels.
_KERNEL_SCRATCH = 1 << 24


class CompiledPairCounts:
    """The arguments of the compiled :func:`.kernels.shared_deltas` (no product).

    The kernels count each feature's (f = v, l_t = l_u = 1) cells from its
    non-mode samples' label pairs in a dense (b - 1) x q^2 scratch table,
    so no label-pair matrix or sparse product is built.
    """

    def __init__(self, problem: DiscreteProblem, both: np.ndarray) -> None:
        self.problem = problem
        labels = problem.labels
        if not labels.has_sorted_indices:
            labels = labels.sorted_indices()
        small_t = sp.csr_matrix(problem.small.T)  # rows (f, v) in order
        q, b1 = problem.n_labels, problem.n_codes - 1
        indices = int64s(small_t.indptr, small_t.indices, labels.indptr, labels.indices)
        self.args = (
            b1,
            q,
            problem.n_codes,
            *indices,
            problem.table,
            problem.feature_label,
            *int64s(problem.bin_counts, problem.label_counts),
            np.ascontiguousarray(both, dtype=np.int64).ravel(),
        )

    def sums(self, out: np.ndarray) -> None:
        """Add each feature's sum of its pair deltas to ``out``."""
        features = np.arange(self.problem.n_features, dtype=np.int64)
        kernels().shared_sums(features, *self.args, out)

    def deltas(self, features: np.ndarray):
        """Keys and deltas of :func:`shared_cell_deltas` for ``features``."""
        groups = np.diff(self.problem.entries.group_start)[features]
        bound = int((groups * (groups - 1) // 2).sum())
        keys = np.empty(bound, dtype=np.int64)
        deltas = np.empty(bound)
        features = np.asarray(features, dtype=np.int64)
        n = kernels().shared_deltas(features, *self.args, keys, deltas)
        return keys[:n].astype(np.intp), deltas[:n]


def pair_counts(problem: DiscreteProblem, both: np.ndarray):
    """:class:`CompiledPairCounts` where the kernels are on and fit, else the product.

    The kernels' scratch table holds (b - 1) q^2 counts: up to
    ``_KERNEL_SCRATCH`` of them (128 MiB), else :class:`PairCounts`.
    """
    scratch = (problem.n_codes - 1) * problem.n_labels**2
    if kernels(problem) is not None and scratch <= _KERNEL_SCRATCH:
        return CompiledPairCounts(problem, both)
    return PairCounts(problem)


def shared_cell_deltas(problem, both, entries, counts, features):
    """Keys ``f q^2 + pair`` (sorted) and true minus no-shared-sample T-sums.

    For the sorted ``features``: every (f, t, u) whose non-mode samples share both
    labels, with the change of its (f, l_t, l_u) table: the code-0 change
    per (f, t, u) plus the code >= 1 changes of its records. ``counts`` is
    :func:`pair_counts`'s (a :class:`CompiledPairCounts` runs the kernel:
    the same keys and values).
    """
    if isinstance(counts, CompiledPairCounts):
        return counts.deltas(features)
    q2 = problem.n_labels**2
    (f, v, pair, s), (g_f, g_pair, big_s), where = counts.counts(features)
    keys = g_f * q2 + g_pair  # sorted
    deltas = np.empty(keys.size)
    for start in range(0, keys.size, _PAIR_CHUNK):
        part = slice(start, start + _PAIR_CHUNK)
        deltas[part] = _mode_cells_delta(
            problem, both, entries, g_f[part], g_pair[part], big_s[part]
        )
    code = np.empty(f.size)
    for start in range(0, f.size, _PAIR_CHUNK):
        part = slice(start, start + _PAIR_CHUNK)
        code[part] = _code_cells_delta(problem, f[part], v[part], pair[part], s[part])
    deltas += np.bincount(where, weights=code, minlength=keys.size)
    return keys, deltas


def _shared_cells_change(problem, both, entries) -> np.ndarray:
    """Per feature: change of the pair tables where non-mode samples have both labels.

    The pair corrections of :func:`_pair_corrections` assume that no
    non-mode sample of f has both labels; here every stored co-occurrence
    (its code >= 1 cells, then the code-0 cells of its (f, t, u) total S)
    is added back, block by block of features.
    """
    q2 = problem.n_labels**2
    counts = pair_counts(problem, both)
    out = np.zeros(problem.n_features)
    if isinstance(counts, CompiledPairCounts):
        counts.sums(out)
        return out
    for f0, f1 in counts.blocks():
        features = np.arange(f0, f1)
        keys, deltas = shared_cell_deltas(problem, both, entries, counts, features)
        out += np.bincount(keys // q2, weights=deltas, minlength=problem.n_features)
    return out


class _EntryArrays:
    """Per touched entry (f, t), the quantities every pair of it reads."""

    def __init__(self, problem: DiscreteProblem, both: np.ndarray, entries) -> None:
        f, t, alpha, small = entries
        q, bc = problem.n_labels, problem.bin_counts
        self.f, self.alpha = f, alpha
        bcv = bc[f, 1:]
        # One contiguous column per code: 1-D gathers are much faster than 2-D.
        self.small = [np.ascontiguousarray(small[:, v]) for v in range(small.shape[1])]
        # n_v - f_v per code: a pair then takes f_u off it (one gather less).
        self.rest = [
            np.ascontiguousarray(bcv[:, v] - small[:, v]) for v in range(small.shape[1])
        ]
        # sum_v T(n_v - f_v) - T(n_v) / 2: the two halves of T(n_v) of a pair.
        self.own = (_t(problem, bcv - small) - _t(problem, bcv) / 2).sum(1)
        self.row = t * q  # flat row of label t in the (q, q) tables
        self.t = t
        self.x = bc[f, 0]
        n = problem.label_counts
        self.c = (n[:, None] + n[None, :] - both).ravel()  # samples with t or u


def _pair_corrections(problem, arrays: _EntryArrays, left, right) -> np.ndarray:
    """Sum per feature of true - baseline - both single changes, for touched pairs.

    Assumes no non-mode sample has both labels (:func:`_shared_cells_change`
    adds those): the code v >= 1 cells give ``T(n_v - f_t - f_u) - T(n_v - f_t)
    - T(n_v - f_u) + T(n_v)`` and the code-0 cells, with ``y`` the mode
    samples with neither label if f had none,
    ``T(y + a_t + a_u) - T(y + a_t) - T(y + a_u) + T(y)``.
    """
    total = -arrays.own[left]
    for rest, small in zip(arrays.rest, arrays.small):
        total += _t(problem, rest[left] - small[right])
    total -= arrays.own[right]
    y = arrays.x[left] - arrays.c[arrays.row[left] + arrays.t[right]]
    at, au = arrays.alpha[left], arrays.alpha[right]
    total += _t(problem, y)
    total -= _t(problem, y + au)
    y += at
    total -= _t(problem, y)
    y += au
    total += _t(problem, y)
    return np.bincount(arrays.f[left], weights=total, minlength=problem.n_features)


def _feature_chunks(f: np.ndarray):
    """Yield (left, right) touched-pair index arrays, chunks of whole features."""
    stop = np.searchsorted(f, f, side="right")
    per_entry = stop - np.arange(f.size) - 1
    cum = np.cumsum(per_entry)
    start = 0
    while start < f.size:
        end = int(np.searchsorted(cum, cum[start] - per_entry[start] + _PAIR_CHUNK))
        end = max(end, start + 1)
        end = int(stop[min(end, f.size) - 1])  # end at a feature boundary
        idx = np.arange(start, end)
        yield _pairs_of(idx, stop[idx])
        start = end


def triple_tsum_sum(problem: DiscreteProblem, both: np.ndarray) -> np.ndarray:
    """sum_{i<j} of the T-sum of the (f, l_i, l_j) table, shape (n_features,).

    Parameters
    ----------
    problem : DiscreteProblem
    both : ndarray of shape (n_labels, n_labels)
        Samples with both labels positive (the diagonal: label counts).
    """
    k = _baseline(problem, both)
    entries = _touched(problem)
    f = entries[0]
    if f.size == 0:
        return k
    k += np.bincount(
        f, weights=_single_changes(problem, both, *entries), minlength=k.size
    )
    arrays = _EntryArrays(problem, both, entries)
    compiled = kernels(problem)
    if compiled is not None:
        columns = [np.stack(arrays.rest, axis=1), np.stack(arrays.small, axis=1)]
        compiled.pair_corrections(
            np.searchsorted(f, np.arange(problem.n_features + 1)),
            arrays.own,
            *int64s(*columns, arrays.x, arrays.t, arrays.alpha, arrays.c),
            problem.n_labels,
            problem.table,
            k,
        )
    else:
        for left, right in _feature_chunks(f):
            k += _pair_corrections(problem, arrays, left, right)
    if problem.n_labels > 1:
        k += _shared_cells_change(problem, both, entries)
    return k
