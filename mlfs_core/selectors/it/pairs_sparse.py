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
"""

from __future__ import annotations

import numpy as np

from .data import DiscreteProblem, unique_keys

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
    coo = problem.small_labels.tocoo()
    b1, q = problem.n_codes - 1, problem.n_labels
    f = coo.row.astype(np.intp) // b1
    keys, _ = unique_keys(f * q + coo.col, problem.n_features * q)
    f, t = keys // q, keys % q
    small = problem.feature_label[f, 1:, t]  # (E, b1)
    return f, t, small.sum(axis=1), small


def _single_changes(problem, both, f, t, alpha, small) -> np.ndarray:
    """Per touched entry: sum over all u != t of the change of pair {t, u}."""
    q, n_labels = problem.n_labels, problem.label_counts
    bc = problem.bin_counts
    e_ft = (
        _t(problem, small) + _t(problem, bc[f, 1:] - small) - _t(problem, bc[f, 1:])
    ).sum(axis=1)
    out = (q - 1) * e_ft
    for start in range(0, f.size, _CHUNK):
        s = slice(start, start + _CHUNK)
        b = both[t[s]]  # (chunk, q): b_tu
        nt, a = n_labels[t[s]][:, None], alpha[s][:, None]
        y0 = (bc[f[s], 0][:, None] - nt) - n_labels[None, :] + b
        change = _t(problem, nt - a - b) - _t(problem, nt - b)
        change += _t(problem, y0 + a) - _t(problem, y0)
        change[np.arange(change.shape[0]), t[s]] = 0.0  # u = t is no pair
        out[s] += change.sum(axis=1)
    return out


def _pairs_of(first: np.ndarray, stop: np.ndarray):
    """All index pairs (e, e2), first[e] <= ... : e2 in (e, stop[e])."""
    counts = stop - first - 1
    left = np.repeat(first, counts)
    offsets = np.repeat(np.cumsum(counts) - counts, counts)
    right = left + 1 + (np.arange(left.size) - offsets)
    return left, right


def _cooccurrence(problem: DiscreteProblem):
    """Sorted keys (f * q + t) * q + u (t < u), code v and count of f = v, t, u."""
    q, b1 = problem.n_labels, problem.n_codes - 1
    label_rows = problem.labels.tocsc()
    keys, codes, counts = [], [], []
    for t in range(q - 1):
        rows = label_rows.indices[label_rows.indptr[t] : label_rows.indptr[t + 1]]
        product = (problem.small[rows].T @ problem.labels[rows][:, t + 1 :]).tocoo()
        f = product.row.astype(np.intp) // b1
        keys.append((f * q + t) * q + product.col + t + 1)
        codes.append(product.row % b1)
        counts.append(np.rint(product.data).astype(np.intp))
    if not keys:
        return np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0, np.intp)
    keys, codes, counts = map(np.concatenate, (keys, codes, counts))
    order = np.argsort(keys, kind="stable")
    return keys[order], codes[order], counts[order]


def _pair_corrections(problem, both, entries, left, right, cooc) -> np.ndarray:
    """Sum per feature of true - baseline - both single changes, for touched pairs."""
    f_all, t_all, alpha_all, small_all = entries
    q, n_labels, bc = problem.n_labels, problem.label_counts, problem.bin_counts
    f, t, u = f_all[left], t_all[left], t_all[right]
    at, au = alpha_all[left], alpha_all[right]
    ft, fu = small_all[left], small_all[right]  # (P, b1)
    s = np.zeros(ft.shape, dtype=np.intp)
    keys, codes, counts = cooc
    if keys.size:
        where = np.searchsorted(keys, (f * q + t) * q + u)
        lo, hi = where, np.searchsorted(keys, (f * q + t) * q + u, side="right")
        has = np.flatnonzero(hi > lo)
        for shift in range(problem.n_codes - 1):  # at most one record per code
            pick = has[lo[has] + shift < hi[has]]
            s[pick, codes[lo[pick] + shift]] = counts[lo[pick] + shift]
    b, nt, nu, x = both[t, u], n_labels[t], n_labels[u], bc[f, 0]
    bcv = bc[f, 1:]
    true = (
        _t(problem, s) + _t(problem, ft - s) + _t(problem, fu - s)
        + _t(problem, bcv - ft - fu + s)
    ).sum(axis=1)  # fmt: skip
    s0 = b - s.sum(axis=1)
    f0t, f0u = nt - at, nu - au
    true += _t(problem, s0) + _t(problem, f0t - s0) + _t(problem, f0u - s0)
    true += _t(problem, x - f0t - f0u + s0)
    base = _t(problem, bcv).sum(axis=1) * 1.0
    base += _t(problem, b) + _t(problem, nt - b) + _t(problem, nu - b)
    base += _t(problem, x - nt - nu + b)
    singles = _one_change(problem, bcv, ft, nt, at, nu, b, x)
    singles += _one_change(problem, bcv, fu, nu, au, nt, b, x)
    return np.bincount(f, weights=true - base - singles, minlength=problem.n_features)


def _one_change(problem, bcv, ft, nt, at, nu, b, x) -> np.ndarray:
    """Change of pair {t, u} when only t is touched (u treated as untouched)."""
    e_ft = (_t(problem, ft) + _t(problem, bcv - ft) - _t(problem, bcv)).sum(axis=1)
    change = e_ft + _t(problem, nt - at - b) - _t(problem, nt - b)
    y0 = x - nt - nu + b
    return change + _t(problem, y0 + at) - _t(problem, y0)


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
    cooc = _cooccurrence(problem)
    stop = np.searchsorted(f, f, side="right")
    # Chunks of whole features, each with a bounded number of pairs.
    per_entry = stop - np.arange(f.size) - 1
    cum = np.cumsum(per_entry)
    start = 0
    while start < f.size:
        end = int(np.searchsorted(cum, cum[start] - per_entry[start] + _PAIR_CHUNK))
        end = max(end, start + 1)
        end = int(stop[min(end, f.size) - 1])  # end at a feature boundary
        idx = np.arange(start, end)
        left, right = _pairs_of(idx, stop[idx])
        k += _pair_corrections(problem, both, entries, left, right, cooc)
        start = end
    return k
