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

Cost per step: one sparse product per code w >= 1 of s over its rows
(O(nnz_s LC)), a sorted search of its records among the E stored
co-occurrences, and chunked passes over the E entries and their (f, i)
groups for the w = 0 slice, plus O(U q) for the label sums of the U <= N + 1
distinct pair counts: O(nnz_s LC + E log E_s + U q) time, O(E) memory.
"""

from __future__ import annotations

import numpy as np

from .data import DiscreteProblem, unique_keys

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
    """Entries (r, i, count) of P_w: rows r = f * (b - 1) + v - 1, labels i."""
    product = (problem.small[rows].T @ problem.labels[rows]).tocsr()
    product.sort_indices()  # sorted queries: a faster searchsorted
    product = product.tocoo()
    counts = np.rint(product.data).astype(np.intp)
    return product.row.astype(np.intp), product.col.astype(np.intp), counts


def _small_codes_part(problem, pair_w, f, fv, p) -> np.ndarray:
    """Cells (v >= 1, w, l_i) with counts p = count(l_i = 1): T(p) + T(pair - p).

    ``pair_w`` is the contiguous (n_features, n_codes) slice of one code w
    of s; ``f`` and ``fv`` (flat (f, v) index) locate the stored counts p.
    """
    q = problem.n_labels
    out = q * problem.tsum(pair_w[:, 1:]).sum(axis=1)
    flat = pair_w.ravel()
    for part in _chunks(p.size):
        total, count = flat[fv[part]], p[part]
        change = problem.tsum(count) - problem.tsum(total)
        change += problem.tsum(total - count)
        out += np.bincount(f[part], weights=change, minlength=problem.n_features)
    return out


def _mode_code_part(problem, x, ones, f, i, m) -> np.ndarray:
    """Cells (v = 0, w, l_i): counts ``ones_i - m`` (l_i = 1) and ``x - ones_i + m``.

    ``ones`` holds the label-1 count if f had no co-occurrence; ``m`` the
    amounts to take from it at the (feature, label) entries ``(f, i)``.
    """
    out = problem.tsum(ones).sum() + _sum_over_labels(problem, x, ones)
    for part in _chunks(f.size):
        a, taken = ones[i[part]], m[part]
        rest = x[f[part]] - a
        change = problem.tsum(a - taken) - problem.tsum(a)
        change += problem.tsum(rest + taken) - problem.tsum(rest)
        out += np.bincount(f[part], weights=change, minlength=problem.n_features)
    return out


def triple_tsum(
    problem: DiscreteProblem, rows: list[np.ndarray], pair: np.ndarray
) -> np.ndarray:
    """sum_i of the T-sum of the (f, s, l_i) table, shape (n_features,).

    Parameters
    ----------
    problem : DiscreteProblem
    rows : list of ndarray
        Samples with s = w, for w = 1 .. b_s - 1.
    pair : ndarray of shape (n_features, n_codes, b_s)
        Counts of (f = v, s = w).
    """
    entries, q, b1 = problem.entries, problem.n_labels, problem.n_codes - 1
    remainder = entries.counts.copy()  # F minus the P_w: the w = 0 slice
    label_rest = problem.label_counts.astype(np.intp)
    k = np.zeros(problem.n_features)
    for w, r_w in enumerate(rows, start=1):
        r, i, p = _label_block(problem, r_w)
        f = r // b1
        fv = f * problem.n_codes + r % b1 + 1
        pair_w = np.ascontiguousarray(pair[:, :, w])
        k += _small_codes_part(problem, pair_w, f, fv, p)
        l_w = np.rint(np.asarray(problem.labels[r_w].sum(axis=0))).astype(np.intp)
        l_w = l_w.ravel()
        positions = entries.position(r, i, q)
        k += _mode_code_part(problem, pair_w[:, 0], l_w, *entries.grouped(positions, p))
        remainder[positions] -= p
        label_rest = label_rest - l_w
    pair_0 = np.ascontiguousarray(pair[:, :, 0])
    k += _small_codes_part(problem, pair_0, entries.f, entries.fv, remainder)
    c = np.bincount(entries.group, weights=remainder, minlength=entries.group_f.size)
    k += _mode_code_part(
        problem, pair_0[:, 0], label_rest, entries.group_f, entries.group_i, c
    )
    return k
