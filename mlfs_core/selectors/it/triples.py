"""sum_i of the T-sum of the (f, s, l_i) tables, from sparse corrections.

When ``s`` joins S, PMU, D2F and MDMR need for every candidate ``f``
``K(f) = sum_i sum_{v, w, l} T[count(f = v, s = w, l_i = l)]``. Densely this
is an (n_features, codes, codes, n_labels) pass per step. Here every cell is
a *baseline*, the value it would have if no non-mode sample of ``f`` had
label ``i``, plus a correction on the (f, i) pairs where one has. Baselines
are sums over labels that depend on f only through one pair count ``x``, so
they are evaluated once per distinct ``x``; corrections are sparse, with as
many entries as the feature-label co-occurrences of the non-mode codes.

Notation (one step): ``pair[f, v, w]`` counts (f = v, s = w); ``P_w[f, v, i]``
(v, w >= 1) counts (f = v, s = w, l_i = 1) over the rows ``R_w`` with s = w;
``L_w[i]`` counts label i in ``R_w``; ``F[f, v, i]`` is ``feature_label``.

Features *apart* from s (no non-mode sample shared with s; on text most of
them) are not counted: their code >= 1 samples all have s = 0 and s's
non-mode samples all have f = 0, so K is a static per-feature part, a
constant of the step, a label sum per distinct mode count and a change per
stored (f, i) group that depends on (i, mode count, alpha) only, evaluated
once per distinct key and summed per feature by one sparse product
(:attr:`.data.Entries.mode_keys`). Only the *overlapping* features O (those
with a non-mode sample among s's rows) are counted as above.

Cost per step, with E_O and G_O the entries and (f, i) groups of O, K_m the
distinct (i, mode count, alpha) keys and X the distinct mode counts: one
sparse product per code w >= 1 of s over its rows (O(nnz_s LC)), a search
of its records among the stored co-occurrences, chunked passes over E_O and
G_O, O(K_m + G) for the apart features (the G part one sparse
matrix-vector product) and O((X + U_O) q) for the label sums. In the w = 0
slice the (f, i) group totals are the static ``alpha`` minus the products'
sums, the T-sum of the remainders is kept per feature from the entries the
products hit, and each entry's (f, v) count is a repeat of its row's: one
table lookup per entry of E_O and four per group of G_O, no index. In all:
O(nnz_s LC + E_O + G_O + K_m + G + (X + U_O) q) time, O(E + K_m) memory
(the keys once per problem). Compiled (:mod:`.kernels`, the default for
large problems): the overlapping features' cells are one loop per feature
over its hits (the per-code products, transposed to rows by feature), its
stored entries and its groups, reading the stored counts in place with the
hits' totals in a (b - 1) q scratch table: no search of records, no group
sums and no per-step gathers, O(nnz_s LC + M b + H + E_O + G_O) per step
for H hits. Its sums run per feature, so the values equal the numpy
path's to rounding (not to the bit); the rankings are the same.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .data import DiscreteProblem, kernels, unique_keys

# Entries per chunk of the per-step passes: temporaries stay in cache.
_CHUNK = 1 << 16


def _chunks(size: int):
    return (slice(start, start + _CHUNK) for start in range(0, size, _CHUNK))


def _sum_over_labels(problem: DiscreteProblem, x: np.ndarray, c: np.ndarray):
    """``sum_i T[x_f - c_i]`` for every entry of ``x`` (once per distinct x)."""
    if c.size == 0 or x.size == 0:
        return np.zeros(x.shape)
    unique, inverse = unique_keys(x, problem.n_samples + 1)
    per_value = problem.tsum(unique[:, None] - c[None, :]).sum(axis=1)
    return per_value[inverse].reshape(x.shape)


def _label_block(problem: DiscreteProblem, rows: np.ndarray):
    """Entries (r, i, count) of P_w: rows r = f * (b - 1) + v - 1, labels i.

    In the product's CSC order (by label): the sums below do not depend on
    the order, and a CSC product of shape (M (b - 1), q) needs no pass over
    its M (b - 1) rows.
    """
    product = sp.csc_matrix(problem.small[rows].T @ problem.labels[rows])
    cols = np.repeat(np.arange(product.shape[1]), np.diff(product.indptr))
    counts = np.rint(product.data).astype(np.intp)
    return product.indices.astype(np.intp), cols, counts


def _small_codes_part(problem, pair_w, f, fv, p) -> np.ndarray:
    """Cells (v >= 1, w, l_i) with counts p = count(l_i = 1): T(p) + T(pair - p).

    ``pair_w`` is the contiguous (n_out, n_codes) slice of one code w of s;
    ``f`` (row of ``pair_w``) and ``fv`` (flat (row, v) index) locate the
    stored counts p.
    """
    q, n_out = problem.n_labels, pair_w.shape[0]
    out = q * problem.tsum(pair_w[:, 1:]).sum(axis=1)
    flat = pair_w.ravel()
    for part in _chunks(p.size):
        total, count = flat[fv[part]], p[part]
        change = problem.tsum(count) - problem.tsum(total)
        change += problem.tsum(total - count)
        out += np.bincount(f[part], weights=change, minlength=n_out)
    return out


def _mode_base(problem, x, ones) -> np.ndarray:
    """The (v = 0, w, l_i) cells of every output row without co-occurrences."""
    return problem.tsum(ones).sum() + _sum_over_labels(problem, x, ones)


def _mode_code_part(problem, x, ones, f, i, m) -> np.ndarray:
    """Cells (v = 0, w, l_i): counts ``ones_i - m`` (l_i = 1) and ``x - ones_i + m``.

    ``x`` holds the (v = 0, w) count of each output row, ``ones`` the label-1
    counts if the row's feature had no co-occurrence; ``m`` the amounts to
    take from them at the (row, label) entries ``(f, i)``.
    """
    out = _mode_base(problem, x, ones)
    for part in _chunks(f.size):
        a, taken = ones[i[part]], m[part]
        rest = x[f[part]] - a
        change = problem.tsum(a - taken) - problem.tsum(a)
        change += problem.tsum(rest + taken) - problem.tsum(rest)
        out += np.bincount(f[part], weights=change, minlength=x.size)
    return out


def ranges(starts: np.ndarray, stops: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(starts[j], stops[j])`` over j.

    Parameters
    ----------
    starts, stops : ndarray of int, same shape
        Half-open ranges, ``starts <= stops``.

    Returns
    -------
    ndarray of int

    Examples
    --------
    >>> ranges(np.array([2, 7]), np.array([4, 9])).tolist()
    [2, 3, 7, 8]
    """
    lengths = stops - starts
    offsets = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return np.arange(int(lengths.sum())) + offsets


def _overlapping_part(problem, rows, pair, overlap, l_ws) -> np.ndarray:
    """Exact K of the features ``overlap`` (sorted), one row of ``pair`` each.

    Every (f, s, l_i) cell of these features, from the per-code products of
    s's rows (:func:`_label_block`) and, for the w = 0 slice, from their
    stored co-occurrences minus the products (:func:`_slice_0_codes`; the
    (f, i) group totals are the static ``alpha`` minus the products' sums).
    """
    compiled = kernels(problem)
    if compiled is not None:
        return _overlapping_compiled(compiled, problem, rows, pair, overlap, l_ws)
    entries, q = problem.entries, problem.n_labels
    b1, n_codes = problem.n_codes - 1, problem.n_codes
    local = np.full(problem.n_features, -1, dtype=np.intp)
    local[overlap] = np.arange(overlap.size)
    e_start, e_stop = entries.entry_start[overlap], entries.entry_start[overlap + 1]
    g_start, g_stop = entries.group_start[overlap], entries.group_start[overlap + 1]
    e_size, g_size = e_stop - e_start, g_stop - g_start
    everything = overlap.size == problem.n_features  # own and groups are all
    if everything:  # no gathers
        remainder, c = entries.counts.copy(), entries.group_alpha.copy()
    else:
        own, groups = ranges(e_start, e_stop), ranges(g_start, g_stop)
        remainder, c = entries.counts[own], entries.group_alpha[groups]
    # Global entry (group) index minus its position in ``own`` (``groups``).
    e_shift = e_start - (np.cumsum(e_size) - e_size)
    g_shift = g_start - (np.cumsum(g_size) - g_size)
    label_rest = problem.label_counts.astype(np.intp)
    k = np.zeros(overlap.size)
    # sum of T(remainder) over each feature's entries, kept up to date below.
    t_rest = entries.count_tsum[overlap]
    for w, (r_w, l_w) in enumerate(zip(rows, l_ws), start=1):
        r, i, p = _label_block(problem, r_w)
        f = local[r // b1]
        fv = f * n_codes + r % b1 + 1
        pair_w = np.ascontiguousarray(pair[:, :, w])
        k += _small_codes_part(problem, pair_w, f, fv, p)
        positions = entries.position(r, i, q)
        g, sums = entries.group_sums(positions, p)
        g_f = local[entries.group_f[g]]
        k += _mode_code_part(problem, pair_w[:, 0], l_w, g_f, entries.group_i[g], sums)
        at = positions - e_shift[f]
        before = remainder[at]
        remainder[at] = before - p
        change = problem.tsum(before - p) - problem.tsum(before)
        t_rest += np.bincount(f, weights=change, minlength=overlap.size)
        c[g - g_shift[g_f]] -= sums
        label_rest = label_rest - l_w
    pair_0 = np.ascontiguousarray(pair[:, :, 0])
    sizes = entries.row_sizes[overlap]
    if everything:
        f, g_f, group_i = entries.f, entries.group_f, entries.group_i
    else:
        f = np.repeat(np.arange(overlap.size), e_size)  # own is by feature
        g_f = np.repeat(np.arange(overlap.size), g_size)
        group_i = entries.group_i[groups]
    k += t_rest + _slice_0_codes(problem, pair_0, sizes, f, remainder)
    return k + _mode_code_part(problem, pair_0[:, 0], label_rest, g_f, group_i, c)


def _overlapping_base(problem, pair, l_ws, label_rest, sizes) -> np.ndarray:
    """The cells of K that do not depend on the label counts of f, per row.

    ``q T(pair)`` of every (row, v >= 1, w >= 1), ``(q - sizes) T(pair)`` of
    the w = 0 ones (:func:`_slice_0_base`: the stored entries' cells are the
    kernel's) and, for every code w of s, the (v = 0, w, l_i) cells as if f
    had no non-mode sample with label i: :func:`_mode_base` with the label
    counts of s = w (``label_rest`` for w = 0).
    """
    q = problem.n_labels
    out = q * problem.tsum(pair[:, 1:, 1:]).sum(axis=(1, 2))
    out += _slice_0_base(problem, pair[:, :, 0], sizes)
    for w, ones in enumerate([label_rest, *l_ws]):
        out += _mode_base(problem, pair[:, 0, w], ones)
    return out


def _hits(problem: DiscreteProblem, rows: list[np.ndarray]):
    """The per-code products of s's rows as one CSR: indptr (b_s - 1, M (b - 1) + 1).

    Row ``f (b - 1) + v - 1`` of code w holds the labels i and counts of
    (f = v, s = w, l_i = 1), in label order.
    """
    n_rows = problem.small.shape[1]
    indptr = np.zeros((len(rows), n_rows + 1), dtype=np.int64)
    labels, counts, offset = [], [], 0
    for w, r_w in enumerate(rows):
        product = (problem.small[r_w].T @ problem.labels[r_w]).tocsr()
        product.sort_indices()
        indptr[w] = product.indptr + offset
        offset += product.nnz
        labels.append(product.indices.astype(np.int64))
        counts.append(np.rint(product.data).astype(np.int64))
    empty = np.zeros(0, dtype=np.int64)
    return (
        indptr,
        np.concatenate(labels) if labels else empty,
        np.concatenate(counts) if counts else empty,
    )


def _overlapping_compiled(compiled, problem, rows, pair, overlap, l_ws):
    """:func:`_overlapping_part` with one compiled pass per feature (no gathers).

    The same cells, summed per feature in the kernel's order
    (:func:`.kernels.overlap_steps`): equal to the numpy path to rounding.
    """
    entries = problem.entries
    label_rest = problem.label_counts.astype(np.intp) - sum(l_ws, 0)
    sizes = entries.row_sizes[overlap]
    k = _overlapping_base(problem, pair, l_ws, label_rest, sizes)
    indptr, labels, counts = _hits(problem, rows)
    l_w = (
        np.stack(l_ws).astype(np.int64)
        if l_ws
        else np.zeros((0, problem.n_labels), dtype=np.int64)
    )
    compiled.overlap_steps(
        overlap.astype(np.int64),
        problem.n_codes - 1,
        problem.n_labels,
        indptr,
        labels,
        counts,
        np.ascontiguousarray(pair, dtype=np.int64),
        l_w,
        np.asarray(label_rest, dtype=np.int64),
        entries.entry_start.astype(np.int64),
        entries.code,
        entries.i,
        entries.counts,
        entries.group_start.astype(np.int64),
        entries.group_i,
        entries.group_alpha,
        problem.table,
        k,
    )
    return k


def _slice_0_base(problem, pair_0, sizes) -> np.ndarray:
    """``q T(pair)`` of every (row, v >= 1) less ``T(pair)`` per stored entry."""
    t_totals = problem.tsum(pair_0[:, 1:])
    return ((problem.n_labels - sizes) * t_totals).sum(axis=1)


def _slice_0_codes(problem, pair_0, sizes, f, remainder) -> np.ndarray:
    """Cells (v >= 1, w = 0, l_i) but the T(remainder) ones, per output row.

    ``q T(pair)`` for every (row, v), minus ``T(pair)`` and plus
    ``T(pair - remainder)`` at each stored entry. Entries are in the order
    of their (f, v) rows (``sizes`` per row), so each entry's pair count is
    a repeat of the row's, with no index.
    """
    out = _slice_0_base(problem, pair_0, sizes)
    totals, n_out = pair_0[:, 1:], pair_0.shape[0]
    per_entry = np.repeat(totals.ravel(), sizes.ravel())
    for part in _chunks(f.size):
        change = problem.tsum(per_entry[part] - remainder[part])
        out += np.bincount(f[part], weights=change, minlength=n_out)
    return out


def _apart_part(problem, sizes, l_ws) -> np.ndarray:
    """K of every feature as if none shared a non-mode sample with s.

    Such a feature's code >= 1 samples all have s = 0 and s's non-mode
    samples all have f = 0, so its K is a static part (its (f, l_i) code
    cells), a constant of the step (the w >= 1 cells), a sum over labels
    that depends on its mode count only, and a change per stored (f, i)
    group that depends on (i, mode count, alpha) only, evaluated once per
    distinct key.
    """
    entries, n_s = problem.entries, int(sizes.sum())
    label_rest = problem.label_counts.astype(np.intp)
    constant = 0.0
    for size, l_w in zip(sizes, l_ws):
        constant += (problem.tsum(l_w) + problem.tsum(size - l_w)).sum()
        label_rest = label_rest - l_w
    # The (v = 0, w = 0) count of each feature apart from s, by distinct mode
    # count (clipped at 0 for the others, whose K the caller replaces).
    modes, inverse = problem.mode_counts
    x = np.maximum(modes - n_s, 0)
    per_mode = problem.tsum(x[:, None] - label_rest[None, :]).sum(axis=1)
    k = entries.code_cells + constant + problem.tsum(label_rest).sum()
    k += per_mode[inverse]
    i, x_key, alpha, holders = entries.mode_keys
    a, rest = label_rest[i], x_key - n_s - label_rest[i]
    change = problem.tsum(a - alpha) - problem.tsum(a)
    change += problem.tsum(rest + alpha) - problem.tsum(rest)
    return k + holders @ change


# Above this share of the features sharing a non-mode sample with s, every
# feature is counted exactly (the apart path would be wasted work).
OVERLAP_SHARE = 0.5


def overlap_of(problem: DiscreteProblem, rows: list[np.ndarray]) -> np.ndarray:
    """Sorted features with a non-mode sample among ``rows`` (s's non-mode rows).

    Parameters
    ----------
    problem : DiscreteProblem
    rows : list of ndarray
        Samples with s = w, for w = 1 .. b_s - 1.

    Returns
    -------
    ndarray of int
        The overlapping features, or all features when they are more than
        :data:`OVERLAP_SHARE` of them.
    """
    m, b1 = problem.n_features, problem.n_codes - 1
    if not rows:
        return np.zeros(0, dtype=np.intp)
    small = problem.small
    picked = np.concatenate(rows)
    cols = small.indices[ranges(small.indptr[picked], small.indptr[picked + 1])]
    mark = np.zeros(m, dtype=bool)
    mark[cols // b1] = True
    overlap = np.flatnonzero(mark)
    if overlap.size > OVERLAP_SHARE * m:
        return np.arange(m)
    return overlap


def triple_tsum(
    problem: DiscreteProblem,
    rows: list[np.ndarray],
    pair: np.ndarray,
    overlap: np.ndarray,
) -> np.ndarray:
    """sum_i of the T-sum of the (f, s, l_i) table, shape (n_features,).

    Parameters
    ----------
    problem : DiscreteProblem
    rows : list of ndarray
        Samples with s = w, for w = 1 .. b_s - 1.
    pair : ndarray of shape (n_overlap, n_codes, b_s)
        Counts of (f = v, s = w) of the features ``overlap``.
    overlap : ndarray of int
        Sorted features counted exactly: at least those that share a non-mode
        sample with s (:func:`overlap_of`); all others are apart from s.
    """
    l_ws = [
        np.rint(np.asarray(problem.labels[r_w].sum(axis=0))).astype(np.intp).ravel()
        for r_w in rows
    ]
    if overlap.size == problem.n_features:
        k = np.empty(problem.n_features)
    else:
        k = _apart_part(problem, np.array([r.size for r in rows], int), l_ws)
    k[overlap] = _overlapping_part(problem, rows, pair, overlap, l_ws)
    return k
