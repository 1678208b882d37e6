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
"""

from __future__ import annotations

import numpy as np

from .data import DiscreteProblem


def _sum_over_labels(problem: DiscreteProblem, x: np.ndarray, c: np.ndarray):
    """``sum_i T[x_f - c_i]`` for every entry of ``x`` (once per distinct x)."""
    unique, inverse = np.unique(x, return_inverse=True)
    if c.size == 0 or unique.size == 0:
        return np.zeros(x.shape)
    per_value = problem.tsum(unique[:, None] - c[None, :]).sum(axis=1)
    return per_value[inverse.ravel()].reshape(x.shape)


def _by_feature(problem: DiscreteProblem, f: np.ndarray, values: np.ndarray):
    return np.bincount(f, weights=values, minlength=problem.n_features)


def _label_block(problem: DiscreteProblem, rows: np.ndarray):
    """Entries (r, i, count) of P_w: rows r = f * (b - 1) + v - 1, labels i."""
    product = (problem.small[rows].T @ problem.labels[rows]).tocsr()
    product.sort_indices()  # sorted queries: a faster searchsorted
    product = product.tocoo()
    counts = np.rint(product.data).astype(np.intp)
    return product.row.astype(np.intp), product.col.astype(np.intp), counts


def _small_codes_part(problem, pair_w, r, p) -> np.ndarray:
    """Cells (v >= 1, w, l_i) with counts p = count(l_i = 1): T(p) + T(pair - p)."""
    b1, q = problem.n_codes - 1, problem.n_labels
    out = q * problem.tsum(pair_w[:, 1:]).sum(axis=1)
    f, v = r // b1, r % b1 + 1
    total = pair_w[f, v]
    change = problem.tsum(p) + problem.tsum(total - p) - problem.tsum(total)
    return out + _by_feature(problem, f, change)


def _mode_code_part(problem, x, ones, f, i, m) -> np.ndarray:
    """Cells (v = 0, w, l_i): counts ``ones_i - m`` (l_i = 1) and ``x - ones_i + m``.

    ``ones`` holds the label-1 count if f had no co-occurrence; ``m`` the
    amounts to take from it at the (feature, label) entries ``(f, i)``.
    """
    out = problem.tsum(ones).sum() + _sum_over_labels(problem, x, ones)
    a, rest = ones[i], x[f] - ones[i]
    change = problem.tsum(a - m) - problem.tsum(a) + problem.tsum(rest + m)
    change -= problem.tsum(rest)
    return out + _by_feature(problem, f, change)


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
    entries, q = problem.entries, problem.n_labels
    remainder = entries.counts.copy()  # F minus the P_w: the w = 0 slice
    label_rest = problem.label_counts.astype(np.intp)
    k = np.zeros(problem.n_features)
    for w, r_w in enumerate(rows, start=1):
        r, i, p = _label_block(problem, r_w)
        k += _small_codes_part(problem, pair[:, :, w], r, p)
        l_w = np.rint(np.asarray(problem.labels[r_w].sum(axis=0))).astype(np.intp)
        l_w = l_w.ravel()
        positions = entries.position(r, i, q)
        k += _mode_code_part(
            problem, pair[:, 0, w], l_w, *entries.grouped(positions, p)
        )
        remainder[positions] -= p
        label_rest = label_rest - l_w
    k += _small_codes_part(problem, pair[:, :, 0], entries.r, remainder)
    c = np.bincount(entries.group, weights=remainder, minlength=entries.group_f.size)
    k += _mode_code_part(
        problem, pair[:, 0, 0], label_rest, entries.group_f, entries.group_i, c
    )
    return k
