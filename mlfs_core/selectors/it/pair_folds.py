"""The label-pair folds of LSMFS and MLSMFS, sparse where a feature touches few labels.

LSMFS needs ``sum_{i != j} max(0, I(f; l_i; l_j))`` and MLSMFS
``max_{i != j} I(f; l_i | l_j)`` for every feature: a fold over all q^2 label
pairs, which no closed form sums. The dense kernel of :mod:`.pairs` costs
O(M q^2 b). Here a feature's labels split into the *touched* ones (carried by
one of its non-mode samples) and the others, and:

* a pair with no touched label has ``N I(f; l_t; l_u) = J(t, u, x, 0)``,
  with ``x`` the feature's mode count: its value depends on f only through x
  (the non-mode samples all have l_t = l_u = 0, so f acts as the indicator
  of its mode);
* a pair with only t touched has ``N I = J(t, u, x, a)``, ``a`` the
  non-mode samples with label t (the code split of those cancels);
* a pair with both labels touched is counted exactly, from the feature's
  counts and the co-occurrences of both labels in its non-mode samples
  (:func:`.pairs_sparse.shared_cell_deltas`).

``J(t, u, x, a) = C_tu - T(x) + T(n_t - a) + T(x - n_t + a) + T(x - n_u)
- T(n_t - a - b_tu) - T(x - c_tu + a)`` with ``C_tu`` a label-pair constant,
``b_tu`` the samples with both labels and ``c_tu`` those with either. Sums
over the one-touched and untouched pairs are evaluated once per distinct key
(t, x, a) or x and corrected for the touched partners by inclusion-exclusion;
maxima take, in rounds, each key's best remaining partner: the entries that
do not touch it are done, and for the others it is masked (it is touched by
every entry still pending on that key), with a full scan after a few
rounds. Features that touch many labels (where the pairs of touched labels
dominate) use the dense kernel on their columns alone.

Cost, with X distinct mode counts, K distinct (t, x, a) keys, E touched
(feature, label) entries and P pairs of touched labels of the sparse
features: O(X q^2 + K q + E r + P b + nnz LC^2) for the sparse features (r
<= 8 rounds, q for the few entries that need the full scan) plus
O(M_dense q^2 b) for the dense ones; memory O(E b + chunk q). On text
(rcv1subset1: X = 242, K = 51k, P = 1.7M against M q^2 / 2 = 238M) this is
a small fraction of the dense kernel. Values equal the dense kernel's up to
rounding (tested). Compiled (:mod:`.kernels`, the default): the touched
pairs of the sparse features, their shared-sample changes included, are
one loop per feature, O(P b + nnz_L LC^2) with nnz_L the light features'
non-mode codes, with the numpy loop's operations (bit-identical values).

This module holds the split and LSMFS's sum; MLSMFS's maximum is
:mod:`.pair_max`.
"""

from __future__ import annotations

import numpy as np

from .data import DiscreteProblem, kernels, unique_keys
from .pairs import (
    _fold_blocks,
    _label_pair_counts,
    _positive_interaction,
)
from .pairs_sparse import (
    CompiledPairCounts,
    _feature_chunks,
    _touched,
    int64s,
    pair_counts,
    shared_cell_deltas,
)
from .terms import Statics

# A feature is dense when HEAVY x touched^2 > q^2 (its touched pairs dominate).
_HEAVY = 4
# Keys (rows of q values) per chunk of the keyed evaluations.
_KEY_CHUNK = 1 << 11
_PAIR_CHUNK = 1 << 14  # entries (or pairs) per scan chunk


def _sub_problem(problem: DiscreteProblem, features: np.ndarray) -> DiscreteProblem:
    """The discrete problem of the columns ``features`` only (same samples)."""
    b1 = problem.n_codes - 1
    columns = (features[:, None] * b1 + np.arange(b1)).ravel()
    return DiscreteProblem(
        codes=problem.codes[:, features],
        n_bins=problem.n_bins[features],
        small=problem.small[:, columns],
        labels=problem.labels,
        table=problem.table,
        bin_counts=problem.bin_counts[features],
        label_counts=problem.label_counts,
        feature_label=problem.feature_label[features],
    )


def _sub_statics(statics: Statics, features: np.ndarray) -> Statics:
    return Statics(
        h_f=statics.h_f[features],
        h_l=statics.h_l,
        h_fl=statics.h_fl[features],
        h_fl_sum=statics.h_fl_sum[features],
        relevance=statics.relevance[features],
    )


class _Labels:
    """Label and label-pair tables of the J formula (all in T-sum units)."""

    def __init__(self, problem: DiscreteProblem) -> None:
        t_ = problem.tsum
        n_samples = problem.n_samples
        n = problem.label_counts
        self.n = n
        self.b = _label_pair_counts(problem)
        self.c = n[:, None] + n[None, :] - self.b
        rest = n_samples - n
        ratio = t_(n_samples) - t_(n) - t_(rest)
        given = t_(rest)[None, :] - t_(n[:, None] - self.b)
        given -= t_(rest[None, :] - n[:, None] + self.b)
        self.constant = ratio[:, None] - given  # C_tu
        self.pair_tsum = (
            t_(self.b) + t_(n[:, None] - self.b) + t_(n[None, :] - self.b)
        ) + t_(n_samples - self.c)  # K(l_t, l_u)
        self.label_tsum = t_(n) + t_(rest)  # K(l_t)


def _j_rows(problem, lab: _Labels, t, x, a) -> np.ndarray:
    """``J(t, u, x, a)`` for every key (t, x, a) and every label u: (keys, q)."""
    t_ = problem.tsum
    n_t = lab.n[t]
    rows = lab.constant[t] + (t_(n_t - a) + t_(x - n_t + a) - t_(x))[:, None]
    rows += t_(x[:, None] - lab.n[None, :])
    rows -= t_((n_t - a)[:, None] - lab.b[t])
    rows -= t_((x + a)[:, None] - lab.c[t])
    return rows


def _j_pairs(problem, lab: _Labels, t, u, x, a) -> np.ndarray:
    """``J(t, u, x, a)`` elementwise (one value per pair)."""
    t_ = problem.tsum
    n_t, b = lab.n[t], lab.b[t, u]
    out = lab.constant[t, u] - t_(x) + t_(n_t - a) + t_(x - n_t + a)
    out += t_(x - lab.n[u])
    out -= t_(n_t - a - b)
    out -= t_(x + a - lab.c[t, u])
    return out


def _keyed_positive_rows(problem, lab, t, x, a) -> np.ndarray:
    """``sum_{u != t} max(0, J(t, u, x, a))`` once per distinct (t, x, a)."""
    width = problem.n_samples + 1
    keys = (t * width + x) * width + a
    unique, inverse = np.unique(keys, return_inverse=True)
    out = np.empty(unique.size)
    for start in range(0, unique.size, _KEY_CHUNK):
        key = unique[start : start + _KEY_CHUNK]
        tk, rest = np.divmod(key, width * width)
        xk, ak = np.divmod(rest, width)
        rows = np.maximum(_j_rows(problem, lab, tk, xk, ak), 0.0)
        rows[np.arange(tk.size), tk] = 0.0  # u = t is no pair
        out[start : start + _KEY_CHUNK] = rows.sum(axis=1)
    return out[inverse.ravel()]


class _Touched:
    """The touched entries of the sparse features and their exact pair terms."""

    def __init__(self, problem, lab: _Labels, entries, keep: np.ndarray) -> None:
        f, t, alpha, small = entries
        pick = keep[f]
        self.f, self.t, self.alpha = f[pick], t[pick], alpha[pick]
        small = small[pick]
        t_ = problem.tsum
        bc = problem.bin_counts
        bcv = bc[self.f, 1:]
        self.x = bc[self.f, 0]
        self.small = [np.ascontiguousarray(small[:, v]) for v in range(small.shape[1])]
        # n_v - f_v per code: a pair then takes f_u off it (one gather less).
        self.rest = [
            np.ascontiguousarray(bcv[:, v] - small[:, v]) for v in range(small.shape[1])
        ]
        n_t = lab.n[self.t]
        self.t_small = t_(small).sum(axis=1)  # sum_v T(f_v)
        # K(f, l_t) and K(f) of each entry's feature.
        self.k_ft = self.t_small + t_(bcv - small).sum(axis=1)
        self.k_ft += t_(n_t - self.alpha) + t_(self.x - n_t + self.alpha)
        self.k_f = t_(bcv).sum(axis=1) + t_(self.x)
        self._key_order = None

    def key_order(self, width: int):
        """Distinct keys (t, x, alpha), each entry's key index, entries by key.

        ``np.unique(keys, return_inverse=True)`` and the stable order of the
        entries by key, from one stable sort of the keys (computed once: both
        maxima of :func:`_one_touched_max` read it).
        """
        if self._key_order is None:
            keys = (self.t * width + self.x) * width + self.alpha
            by_key = np.argsort(keys, kind="stable")
            ordered = keys[by_key]
            first = np.empty(keys.size, dtype=bool)
            first[:1] = True
            np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
            inverse = np.empty(keys.size, dtype=np.intp)
            inverse[by_key] = np.cumsum(first) - 1
            self._key_order = (ordered[first], inverse, by_key)
        return self._key_order

    def drop_key_order(self) -> None:
        """Free the arrays of :meth:`key_order`."""
        self._key_order = None


def _true_pairs(problem, lab: _Labels, ent: _Touched, left, right, shared):
    """N I(f; l_t; l_u) of the touched pairs (left, right) of the same feature."""
    t_ = problem.tsum
    t, u = ent.t[left], ent.t[right]
    at, au, x = ent.alpha[left], ent.alpha[right], ent.x[left]
    b, c = lab.b[t, u], lab.c[t, u]
    k3 = ent.t_small[left] + ent.t_small[right]
    for rest, small in zip(ent.rest, ent.small):
        k3 += t_(rest[left] - small[right])
    k3 += t_(b) + t_(lab.n[t] - at - b) + t_(lab.n[u] - au - b)
    k3 += t_(x - c + at + au)
    if left.size:
        q = problem.n_labels
        f = ent.f[left]  # sorted
        features = f[np.flatnonzero(np.r_[True, f[1:] != f[:-1]])]
        keys, deltas = shared_cell_deltas(problem, lab.b, *shared, features)
        pair_keys = (ent.f[left] * q + t) * q + u  # sorted: features, then t, u
        k3[np.searchsorted(pair_keys, keys)] += deltas
    value = problem.table[problem.n_samples] - ent.k_f[left]
    value -= lab.label_tsum[t] + lab.label_tsum[u]
    value += ent.k_ft[left] + ent.k_ft[right] + lab.pair_tsum[t, u]
    return value - k3


def _compiled_pairs(problem, lab: _Labels, ent: _Touched, counts, info, out) -> bool:
    """The touched pairs' loop of both folds by :func:`.kernels.fold_pairs`.

    LSMFS (``info`` None) adds each feature's sum to ``out``, MLSMFS
    (``info`` per entry) takes the maxima into it. False, doing nothing,
    where the kernels are off (then the numpy loop runs).
    """
    if not isinstance(counts, CompiledPairCounts):
        return False
    columns = [np.stack(ent.small, axis=1), np.stack(ent.rest, axis=1)]
    kernels().fold_pairs(
        info is not None,
        np.searchsorted(ent.f, np.arange(problem.n_features + 1)),
        *int64s(ent.t, ent.alpha, ent.x, *columns),
        ent.t_small,
        ent.k_ft,
        ent.k_f,
        np.zeros(0) if info is None else info,
        *int64s(lab.n, lab.b, lab.c),
        lab.constant,
        lab.pair_tsum,
        lab.label_tsum,
        *counts.args,
        out,
    )
    return True


def _worth_sparse(problem: DiscreteProblem, light: np.ndarray) -> bool:
    """Whether the keyed path beats the dense kernel for the light features."""
    x_values = np.unique(problem.bin_counts[light, 0]).size
    return x_values * 4 < max(int(light.sum()), 1)


def _split(problem: DiscreteProblem, entries) -> tuple[np.ndarray, np.ndarray]:
    """(dense features, sparse-path mask) by touched-label count."""
    touched = np.bincount(entries[0], minlength=problem.n_features)
    light = _HEAVY * touched * touched <= problem.n_labels**2
    if not _worth_sparse(problem, light):
        light[:] = False
    return np.flatnonzero(~light), light


def _dense_part(problem, statics, features, fold, combine, out) -> None:
    if features.size:
        sub = _sub_problem(problem, features)
        out[features] = _fold_blocks(
            sub, _sub_statics(statics, features), fold, combine
        )


def _start_fold(problem, statics, fold, combine):
    """Dense features folded into ``out``; the sparse ones' inputs (or None)."""
    out = np.zeros(problem.n_features)
    if problem.n_labels < 2:
        return out, None, None
    entries = _touched(problem)
    dense, light = _split(problem, entries)
    _dense_part(problem, statics, dense, fold, combine, out)
    if not light.any():
        return out, light, None
    lab = _Labels(problem)
    return out, light, (entries, lab, _Touched(problem, lab, entries, light))


def positive_interaction_sum(problem: DiscreteProblem, statics: Statics) -> np.ndarray:
    """sum_{i != j} max(0, I(f; l_i; l_j)) for every feature (LSMFS).

    Equals :func:`.pairs.positive_interaction_sum` up to rounding.
    """
    out, light, parts = _start_fold(problem, statics, _positive_interaction, np.add)
    if parts is None:
        return out
    entries, lab, ent = parts
    half = _untouched_positive(problem, lab, light)
    # Pairs with one touched label t: every u, minus the untouched-pair value.
    per_entry = _keyed_positive_rows(problem, lab, ent.t, ent.x, ent.alpha)
    per_entry -= _keyed_positive_rows(problem, lab, ent.t, ent.x, 0 * ent.alpha)
    half += np.bincount(ent.f, weights=per_entry, minlength=problem.n_features)
    shared = (entries, pair_counts(problem, lab.b))
    if _compiled_pairs(problem, lab, ent, shared[1], None, half):
        out[light] = 2.0 * half[light] / problem.n_samples
        return out
    for left, right in _feature_chunks(ent.f):
        t, u, x = ent.t[left], ent.t[right], ent.x[left]
        zero = np.zeros_like(x)
        value = np.maximum(_true_pairs(problem, lab, ent, left, right, shared), 0.0)
        value += np.maximum(_j_pairs(problem, lab, t, u, x, zero), 0.0)
        value -= np.maximum(_j_pairs(problem, lab, t, u, x, ent.alpha[left]), 0.0)
        value -= np.maximum(_j_pairs(problem, lab, u, t, x, ent.alpha[right]), 0.0)
        half += np.bincount(ent.f[left], weights=value, minlength=problem.n_features)
    out[light] = 2.0 * half[light] / problem.n_samples
    return out


def _untouched_positive(problem, lab: _Labels, light: np.ndarray) -> np.ndarray:
    """sum_{t < u} max(0, J(t, u, x, 0)) of every light feature, once per x."""
    q = problem.n_labels
    x_values, inverse = unique_keys(problem.bin_counts[light, 0], problem.n_samples + 1)
    labels = np.tile(np.arange(q), x_values.size)
    xs = np.repeat(x_values, q)
    rows = _keyed_positive_rows(problem, lab, labels, xs, 0 * xs)
    per_x = rows.reshape(x_values.size, q).sum(axis=1) / 2.0
    out = np.zeros(problem.n_features)
    out[light] = per_x[inverse]
    return out
