"""Compiled loops of the exact terms (numba, imported lazily).

The numpy paths of :mod:`.pairs_sparse`, :mod:`.pair_folds` and
:mod:`.triples` evaluate the touched label pairs and the counted step
entries in many vectorized passes (a sparse product, sorts, gathers,
temporaries of every pair), which cost far more than the table lookups
themselves. The kernels here make one pass per feature over the same cells,
with the same operations in the same order (and the same chunked sums), so
their results are bit-identical to the numpy paths (the tests compare both),
but for the step kernel, as said below:

* :func:`shared_sums` and :func:`shared_deltas`: the change of the pair
  tables where a feature's non-mode samples carry both labels
  (:func:`.pairs_sparse.shared_cell_deltas`), per feature or per
  (feature, pair);
* :func:`pair_corrections`: the touched-pair corrections of
  :func:`.pairs_sparse._pair_corrections` (PMU, LRFS);
* :func:`fold_pairs`: the touched pairs of the sparse folds of
  :mod:`.pair_folds` (LSMFS, MLSMFS), their shared-sample changes included;
* :func:`overlap_steps`: the count-dependent cells of the step sums of
  the features that share a non-mode sample with the new feature
  (:func:`.triples._overlapping_part`; PMU, D2F, MDMR), in one pass per
  feature over its hits, entries and groups. Its sums run per feature in
  loop order, not in the numpy path's chunks, so its values equal the
  numpy path's to rounding (relative 1e-15 per feature), not to the bit.

Every function is ``numba.njit(cache=True)`` without ``fastmath`` or
parallel loops: IEEE operations in program order, so results do not depend
on the CPU. T values are looked up in the problem's table (``T[c] = c log2
c``), with the indices clipped to ``[0, n]`` as
:meth:`.data.DiscreteProblem.tsum` does; no logarithm is computed here.
This module imports numba: only :func:`.data.kernels` imports it, on first
use, so ``import mlfs_core`` does not.

Cost: the co-occurrence counts of the shared-sample changes are O(nnz LC^2)
time (each non-mode sample's label pairs) into an O(b q^2) scratch table,
and their changes O(P_S (b + log P_S)) for the P_S (feature, label pair)
tables with shared samples; :func:`pair_corrections` and
:func:`fold_pairs` are O(P b), :func:`overlap_steps` O(H + E_O + G_O) per
step for H hits (the per-code products' entries).
"""

from __future__ import annotations

import numba
import numpy as np


def _jit(function):
    """``numba.njit(cache=True)``; uncached where no cache folder is writable.

    Numba caches next to the module (``__pycache__``) or, for a read-only
    install, in its user cache folder (``NUMBA_CACHE_DIR``); with neither
    writable it refuses ``cache=True``, so the kernel compiles in each process.
    """
    try:
        return numba.njit(cache=True)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(function)


def _step(function):
    """A named step of a kernel, inlined into its caller by numba.

    Inlined at numba's level (``inline="always"``): the caller compiles the
    step's operations in place, in the same order, with no call per pair.
    """
    return numba.njit(inline="always")(function)


@_jit
def _tv(table, c):
    """``T[c]`` with c clipped to the table (as ``np.take(mode="clip")``)."""
    last = table.shape[0] - 1
    if c < 0:
        c = 0
    elif c > last:
        c = last
    return table[c]


@_jit
def _feature_pairs(
    f, b1, q, st_indptr, st_indices, lab_indptr, lab_indices, cnt, seen, order
):
    """Count (f = v, l_t = l_u = 1) into ``cnt``; the touched pairs, sorted."""
    q2 = q * q
    n_pairs = 0
    for v in range(b1):
        row = f * b1 + v
        base = v * q2
        for p in range(st_indptr[row], st_indptr[row + 1]):
            sample = st_indices[p]
            a0, a1 = lab_indptr[sample], lab_indptr[sample + 1]
            for x in range(a0, a1):
                t = lab_indices[x] * q
                for y in range(x + 1, a1):
                    pair = t + lab_indices[y]
                    cnt[base + pair] += 1
                    if not seen[pair]:
                        seen[pair] = True
                        order[n_pairs] = pair
                        n_pairs += 1
    if n_pairs * 16 < q2:
        return np.sort(order[:n_pairs])
    pairs = np.empty(n_pairs, dtype=np.int64)  # many pairs: a scan is cheaper
    n = 0
    for pair in range(q2):
        if seen[pair]:
            pairs[n] = pair
            n += 1
    return pairs


@_jit
def _pair_delta(f, pair, b1, q, n_codes, cnt, table, fl, bc, n_labels, both_flat):
    """True minus no-shared-sample T-sum of one (f, l_t, l_u) table; resets cnt."""
    q2 = q * q
    t, u = pair // q, pair % q
    big_s = 0
    a_t = 0
    a_u = 0
    for v in range(b1):
        big_s += cnt[v * q2 + pair]
        a_t += fl[f, v + 1, t]
        a_u += fl[f, v + 1, u]
    n_t, n_u = n_labels[t], n_labels[u]
    b = both_flat[pair]
    ot, ou = n_t - a_t - b, n_u - a_u - b
    z = bc[f, 0] - n_t - n_u + a_t + a_u + b
    delta = _tv(table, b - big_s) - _tv(table, b)
    delta += _tv(table, ot + big_s) - _tv(table, ot)
    delta += _tv(table, ou + big_s) - _tv(table, ou)
    delta += _tv(table, z - big_s) - _tv(table, z)
    code = 0.0
    for v in range(b1):
        s = cnt[v * q2 + pair]
        if s == 0:
            continue
        cnt[v * q2 + pair] = 0
        ft, fu = fl[f, v + 1, t], fl[f, v + 1, u]
        rest = bc[f, v + 1] - ft - fu
        d = _tv(table, s) - _tv(table, rest)
        d += _tv(table, ft - s) - _tv(table, ft)
        d += _tv(table, fu - s) - _tv(table, fu)
        d += _tv(table, rest + s)
        code += d
    return delta + code


@_jit
def shared_sums(
    features, b1, q, n_codes, st_indptr, st_indices, lab_indptr, lab_indices,
    table, fl, bc, n_labels, both_flat, out,
):  # fmt: skip
    """Add each feature's sum over its pairs of :func:`_pair_delta` to ``out``."""
    cnt = np.zeros(b1 * q * q, dtype=np.int64)
    seen = np.zeros(q * q, dtype=np.bool_)
    order = np.empty(q * q, dtype=np.int64)
    for f in features:
        pairs = _feature_pairs(
            f, b1, q, st_indptr, st_indices, lab_indptr, lab_indices, cnt, seen, order
        )
        total = 0.0
        for pair in pairs:
            seen[pair] = False
            total += _pair_delta(
                f, pair, b1, q, n_codes, cnt, table, fl, bc, n_labels, both_flat
            )
        out[f] += total


@_jit
def shared_deltas(
    features, b1, q, n_codes, st_indptr, st_indices, lab_indptr, lab_indices,
    table, fl, bc, n_labels, both_flat, keys, deltas,
):  # fmt: skip
    """Keys ``f q^2 + pair`` (sorted) and :func:`_pair_delta` of each; their number."""
    cnt = np.zeros(b1 * q * q, dtype=np.int64)
    seen = np.zeros(q * q, dtype=np.bool_)
    order = np.empty(q * q, dtype=np.int64)
    q2 = q * q
    n = 0
    for f in features:
        pairs = _feature_pairs(
            f, b1, q, st_indptr, st_indices, lab_indptr, lab_indices, cnt, seen, order
        )
        for pair in pairs:
            seen[pair] = False
            keys[n] = f * q2 + pair
            deltas[n] = _pair_delta(
                f, pair, b1, q, n_codes, cnt, table, fl, bc, n_labels, both_flat
            )
            n += 1
    return n


@_jit
def pair_corrections(entry_start, own, rest, small, x, t, alpha, c, q, table, k):
    """Add to ``k[f]`` the sum of true - baseline - single changes of f's pairs.

    ``entry_start`` (n_features + 1) bounds each feature's touched entries;
    the pairs (e, e2 > e) of a feature are taken in order, as in
    :func:`.pairs_sparse._pair_corrections`.
    """
    b1 = rest.shape[1]
    for f in range(entry_start.size - 1):
        start, stop = entry_start[f], entry_start[f + 1]
        if stop - start < 2:
            continue
        acc = 0.0
        for e in range(start, stop):
            row = t[e] * q
            at = alpha[e]
            for e2 in range(e + 1, stop):
                total = -own[e]
                for v in range(b1):
                    total += _tv(table, rest[e, v] - small[e2, v])
                total -= own[e2]
                au = alpha[e2]
                y = x[e] - c[row + t[e2]]
                total += _tv(table, y)
                total -= _tv(table, y + au)
                y += at
                total -= _tv(table, y)
                y += au
                total += _tv(table, y)
                acc += total
        k[f] += acc


@_step
def _hit_cells(
    acc, j, f, w, b1, q, hit_indptr, hit_label, hit_count, pair, l_w, table,
    hits_vi, m_w, m_all,
):  # fmt: skip
    """``acc`` plus the hit cells of feature ``f = overlap[j]`` at code ``w + 1``.

    Adds, in :func:`overlap_steps`' order, the (v, w, l_i) cells of every hit
    and then the (v = 0, w, l_i) cells of every label hit; records the hits'
    totals per (v, i) in ``hits_vi`` and per label in ``m_all``.
    """
    x_w = pair[j, 0, w + 1]
    for v in range(b1):
        total = pair[j, v + 1, w + 1]
        row = f * b1 + v
        for h in range(hit_indptr[w, row], hit_indptr[w, row + 1]):
            i, p = hit_label[h], hit_count[h]
            acc += _tv(table, p) - _tv(table, total)
            acc += _tv(table, total - p)
            hits_vi[v * q + i] += p
            m_w[i] += p
    for v in range(b1):
        row = f * b1 + v
        for h in range(hit_indptr[w, row], hit_indptr[w, row + 1]):
            i = hit_label[h]
            m = m_w[i]
            if m == 0:  # this label's change is counted
                continue
            a = l_w[w, i]
            rest = x_w - a
            acc += _tv(table, a - m) - _tv(table, a)
            acc += _tv(table, rest + m) - _tv(table, rest)
            m_all[i] += m
            m_w[i] = 0
    return acc


@_jit
def overlap_steps(
    overlap, b1, q, hit_indptr, hit_label, hit_count, pair, l_w, label_rest,
    entry_start, entry_code, entry_i, counts, group_start, group_i, alpha,
    table, out,
):  # fmt: skip
    """Add the count-dependent cells of every overlapping feature's K to ``out``.

    One pass per feature ``f = overlap[j]`` over its hits (the entries of the
    per-code products of s's rows, CSR by global row ``f (b - 1) + v - 1``
    with ``hit_indptr[w]`` for code ``w + 1`` of s), then over its stored
    entries and (f, i) groups (the w = 0 slice, whose counts are the stored
    ones less the hits). Per hit (v, i, p) at code w: ``T(p) - T(P) +
    T(P - p)`` with ``P = pair[j, v, w]``; per label i hit at w, with m its
    hits' total: the change of the (v = 0, w, l_i) cells. Per entry with
    remainder r: ``T(r) + T(P_0 - r)`` (the caller takes ``T(P_0)`` off per
    entry); per group with remainder c:
    the change of its (v = 0, w = 0, l_i) cells. The label-independent parts
    (:func:`.triples._overlapping_base`) are the caller's. Sums per feature in
    this order; a (b - 1) q and two q scratch tables hold the hits' totals.
    """
    n_w = hit_indptr.shape[0]
    hits_vi = np.zeros(b1 * q, dtype=np.int64)
    m_w = np.zeros(q, dtype=np.int64)
    m_all = np.zeros(q, dtype=np.int64)
    for j in range(overlap.size):
        f = overlap[j]
        acc = 0.0
        for w in range(n_w):
            acc = _hit_cells(
                acc, j, f, w, b1, q, hit_indptr, hit_label, hit_count, pair, l_w,
                table, hits_vi, m_w, m_all,
            )  # fmt: skip
        for e in range(entry_start[f], entry_start[f + 1]):
            v = entry_code[e] - 1
            r = counts[e] - hits_vi[v * q + entry_i[e]]
            total = pair[j, v + 1, 0]
            acc += _tv(table, r) + _tv(table, total - r)
        x = pair[j, 0, 0]
        for g in range(group_start[f], group_start[f + 1]):
            i = group_i[g]
            a = label_rest[i]
            c = alpha[g] - m_all[i]
            rest = x - a
            acc += _tv(table, a - c) - _tv(table, a)
            acc += _tv(table, rest + c) - _tv(table, rest)
        for w in range(n_w):
            for v in range(b1):
                row = f * b1 + v
                for h in range(hit_indptr[w, row], hit_indptr[w, row + 1]):
                    hits_vi[v * q + hit_label[h]] = 0
                    m_all[hit_label[h]] = 0
        out[j] += acc


@_jit
def _j_pair(lab_n, lab_b, lab_c, constant, table, t, u, x, a):
    """``J(t, u, x, a)`` as :func:`.pair_folds._j_pairs`, one pair."""
    n_t, b = lab_n[t], lab_b[t, u]
    out = constant[t, u] - _tv(table, x) + _tv(table, n_t - a) + _tv(table, x - n_t + a)
    out += _tv(table, x - lab_n[u])
    out -= _tv(table, n_t - a - b)
    out -= _tv(table, x + a - lab_c[t, u])
    return out


@_step
def _touched_information(
    e, e2, t, u, at, au, x, ent_rest, ent_small, t_small, k_ft, k_f, lab_n, lab_b,
    lab_c, pair_tsum, label_tsum, b1, q, table, t_n, seen, shared,
):  # fmt: skip
    """I(f; l_t; l_u) of one touched pair (entries e < e2 of one feature)."""
    b, c = lab_b[t, u], lab_c[t, u]
    k3 = t_small[e] + t_small[e2]
    for v in range(b1):
        k3 += _tv(table, ent_rest[e, v] - ent_small[e2, v])
    k3 += _tv(table, b) + _tv(table, lab_n[t] - at - b) + _tv(table, lab_n[u] - au - b)
    k3 += _tv(table, x - c + at + au)
    if seen[t * q + u]:
        k3 += shared[t * q + u]
    value = t_n - k_f[e]
    value -= label_tsum[t] + label_tsum[u]
    value += k_ft[e] + k_ft[e2] + pair_tsum[t, u]
    return value - k3


@_step
def _positive_change(lab_n, lab_b, lab_c, constant, table, t, u, x, at, au, value):
    """max(0, I) of a touched pair less its one-touched and untouched values."""
    total = value if value >= 0.0 else 0.0
    j = _j_pair(lab_n, lab_b, lab_c, constant, table, t, u, x, 0)
    total += j if j >= 0.0 else 0.0
    j = _j_pair(lab_n, lab_b, lab_c, constant, table, t, u, x, at)
    total -= j if j >= 0.0 else 0.0
    j = _j_pair(lab_n, lab_b, lab_c, constant, table, u, t, x, au)
    total -= j if j >= 0.0 else 0.0
    return total


@_jit
def fold_pairs(
    maximum, e_start, ent_t, ent_alpha, ent_x, ent_small, ent_rest, t_small, k_ft, k_f,
    info, lab_n, lab_b, lab_c, constant, pair_tsum, label_tsum,
    b1, q, n_codes, st_indptr, st_indices, lab_indptr, lab_indices,
    table, fl, bc, n_labels, both_flat, out,
):  # fmt: skip
    """The touched pairs of the sparse folds, as :func:`.pair_folds._true_pairs`.

    LSMFS (``maximum`` False): adds to ``out[f]`` the sum over f's touched
    pairs of ``max(0, I)`` with the one-touched and untouched values taken
    off; MLSMFS: ``out[f] = max(out[f], max(info_t, info_u) - I)``.
    ``e_start`` (n_features + 1) bounds each feature's touched entries.
    """
    cnt = np.zeros(b1 * q * q, dtype=np.int64)
    seen = np.zeros(q * q, dtype=np.bool_)
    order = np.empty(q * q, dtype=np.int64)
    shared = np.zeros(q * q)
    t_n = table[table.shape[0] - 1]
    for f in range(e_start.size - 1):
        start, stop = e_start[f], e_start[f + 1]
        if stop - start < 2:
            continue
        pairs = _feature_pairs(
            f, b1, q, st_indptr, st_indices, lab_indptr, lab_indices, cnt, seen, order
        )
        for pair in pairs:
            shared[pair] = _pair_delta(
                f, pair, b1, q, n_codes, cnt, table, fl, bc, n_labels, both_flat
            )
        acc = 0.0
        best = out[f]
        for e in range(start, stop):
            t, at, x = ent_t[e], ent_alpha[e], ent_x[e]
            for e2 in range(e + 1, stop):
                u, au = ent_t[e2], ent_alpha[e2]
                value = _touched_information(
                    e, e2, t, u, at, au, x, ent_rest, ent_small, t_small, k_ft, k_f,
                    lab_n, lab_b, lab_c, pair_tsum, label_tsum, b1, q, table, t_n,
                    seen, shared,
                )  # fmt: skip
                if maximum:
                    top = info[e] if info[e] >= info[e2] else info[e2]
                    gap = top - value
                    if gap > best:
                        best = gap
                else:
                    acc += _positive_change(
                        lab_n, lab_b, lab_c, constant, table, t, u, x, at, au, value
                    )
        for pair in pairs:
            seen[pair] = False
        if maximum:
            out[f] = best
        else:
            out[f] += acc
