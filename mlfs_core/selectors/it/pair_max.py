"""The label-pair maximum of MLSMFS, sparse where a feature touches few labels.

``max_{i != j} I(f; l_i | l_j)`` for every feature, on the split of
:mod:`.pair_folds` (touched labels, one-touched and untouched pairs): maxima
take, in rounds, each key's best remaining partner: the entries that do not
touch it are done, and for the others it is masked (it is touched by every
entry still pending on that key), with a full scan after a few rounds. The
touched pairs are counted exactly, compiled where :mod:`.kernels` is on.

Cost: as the folds of :mod:`.pair_folds`, with r <= :data:`_ROUNDS` rounds
and q for the few entries that need the full scan.
"""

from __future__ import annotations

import numpy as np

from .data import DiscreteProblem, unique_keys
from .pair_folds import (
    _compiled_pairs,
    _j_rows,
    _Labels,
    _start_fold,
    _Touched,
    _true_pairs,
)
from .pairs import _max_conditional
from .pairs_sparse import _feature_chunks, pair_counts
from .terms import Statics

_KEY_CHUNK = 1 << 11  # keys (rows of q values) per chunk of the keyed maxima

# Rounds of "best remaining partner" before a row falls back to a full scan.
_ROUNDS = 8


def _information_untouched(problem, lab: _Labels, x, t) -> np.ndarray:
    """N I(f; l_t) of a feature with mode count x that does not touch t."""
    t_ = problem.tsum
    n_samples = problem.n_samples
    return t_(n_samples) - t_(x) - t_(n_samples - lab.n[t]) + t_(x - lab.n[t])


def _max_free(work, row, blocked, fallback) -> np.ndarray:
    """Per item, the largest ``work[row[item], c]`` over columns c it may use.

    ``blocked(items, columns)`` says which (item, column) pairs are not
    allowed. Each round takes every pending row's best remaining column;
    the items that may use it are done, and for the others that column is
    masked in their row. A masked column is blocked for every item still
    pending on that row (those that could use it were done in the same
    round), so the rows stay exact for them. Items left after
    :data:`_ROUNDS` rounds get ``fallback(items, work)``. ``work`` is
    modified.
    """
    out = np.empty(row.size)
    pending = np.arange(row.size)
    best_of = np.empty(work.shape[0], dtype=np.intp)
    for _ in range(_ROUNDS):
        if pending.size == 0:
            return out
        mark = np.zeros(work.shape[0], dtype=bool)
        mark[row[pending]] = True
        rows = np.flatnonzero(mark)  # the rows still pending, once each
        best_of[rows] = work[rows].argmax(axis=1)
        best = best_of[row[pending]]
        stop = blocked(pending, best)
        done = pending[~stop]
        out[done] = work[row[done], best[~stop]]
        work[row[pending[stop]], best[stop]] = -np.inf
        pending = pending[stop]
    if pending.size:
        out[pending] = fallback(pending, work)
    return out


def _one_touched_max(problem, lab, ent: _Touched, touched, given_untouched: bool):
    """Per entry (f, t): max over untouched u of N I(f; t | u) or of N I(f; u | t).

    ``given_untouched``: the value ``N I(f; t) - J(t, u, x, a)`` (t given u),
    as ``-J`` here (the entry's N I(f; t) is added by the caller); otherwise
    ``N I(f; u) - J(t, u, x, a)`` with u untouched.
    """
    width = problem.n_samples + 1
    unique, inverse, by_key = ent.key_order(width)
    q = problem.n_labels

    def rows_of(key):
        tk, rest = np.divmod(key, width * width)
        xk, ak = np.divmod(rest, width)
        rows = -_j_rows(problem, lab, tk, xk, ak)
        if not given_untouched:
            rows += _information_untouched(
                problem, lab, xk[:, None], np.arange(q)[None, :]
            )
        rows[np.arange(tk.size), tk] = -np.inf  # u = t is no pair
        return rows

    bounds = np.searchsorted(inverse[by_key], np.arange(0, unique.size + 1, _KEY_CHUNK))
    bounds = np.append(bounds, by_key.size)
    out = np.empty(inverse.size)
    for chunk, start in enumerate(range(0, unique.size, _KEY_CHUNK)):
        work = rows_of(unique[start : start + _KEY_CHUNK])
        members = by_key[bounds[chunk] : bounds[chunk + 1]]
        row, f = inverse[members] - start, ent.f[members]

        def blocked(items, u, f=f):
            return touched[f[items], u]

        def fallback(items, work, row=row, f=f):
            # In blocks of items: where labels co-occur, most entries of a
            # chunk of keys can fall back, and (items, q) rows add up.
            values = np.empty(items.size)
            for lo in range(0, items.size, _FALLBACK_ITEMS):
                part = items[lo : lo + _FALLBACK_ITEMS]
                full = work[row[part]]
                full[touched[f[part]]] = -np.inf
                values[lo : lo + part.size] = full.max(axis=1)
            return values

        out[members] = _max_free(work, row, blocked, fallback)
    return out


def _untouched_max(problem, lab: _Labels, light, touched, floor) -> np.ndarray:
    """max over ordered pairs of untouched labels of N I(f; l_t | l_u).

    For such a pair the value ``N I(f; l_t) - J(t, u, x, 0)`` depends on f
    only through x: each x gets the (q, q) table of its pairs, and every
    feature takes the best pair of its x with both labels untouched
    (:func:`_max_free` over the flattened table). Features whose x has no
    pair above ``floor[f]`` (the best of their other pairs) are skipped:
    their maximum cannot change.
    """
    q = problem.n_labels
    features = np.flatnonzero(light)
    x_values, x_index = unique_keys(
        problem.bin_counts[features, 0], problem.n_samples + 1
    )
    by_x = np.argsort(x_index, kind="stable")
    out = np.full(problem.n_features, -np.inf)
    step = max(1, _KEY_CHUNK // q)  # x values per chunk: step q^2 values
    bounds = np.searchsorted(x_index[by_x], np.arange(0, x_values.size + step, step))
    for chunk, start in enumerate(range(0, x_values.size, step)):
        xs = x_values[start : start + step]
        t, x = np.tile(np.arange(q), xs.size), np.repeat(xs, q)
        work = _information_untouched(problem, lab, x, t)[:, None]
        work = work - _j_rows(problem, lab, t, x, 0 * x)
        work[np.arange(t.size), t] = -np.inf  # u = t is no pair
        work = work.reshape(xs.size, q * q)
        members = by_x[bounds[chunk] : bounds[chunk + 1]]
        f, row = features[members], x_index[members] - start
        open_ = work.max(axis=1)[row] > floor[f]
        f, row = f[open_], row[open_]

        def blocked(items, pair, f=f):
            t, u = np.divmod(pair, q)
            return touched[f[items], t] | touched[f[items], u]

        def fallback(items, work, row=row, f=f):
            values = np.empty(items.size)
            for lo in range(0, items.size, _FALLBACK_ROWS):
                part = items[lo : lo + _FALLBACK_ROWS]
                full = work[row[part]].reshape(part.size, q, q)
                mask = touched[f[part]]
                full[mask[:, :, None] | mask[:, None, :]] = -np.inf
                values[lo : lo + part.size] = full.reshape(part.size, -1).max(axis=1)
            return values

        out[f] = _max_free(work, row, blocked, fallback)
    return out


_FALLBACK_ROWS = 32  # features per (rows, q, q) block of the full scans
_FALLBACK_ITEMS = 1 << 12  # entries per (items, q) block of the full scans


def _max_by_feature(best: np.ndarray, f: np.ndarray, values: np.ndarray) -> None:
    """``best[f] = max(best[f], values)`` per feature, ``f`` sorted."""
    if f.size == 0:
        return
    starts = np.flatnonzero(np.r_[True, f[1:] != f[:-1]])
    group = np.maximum.reduceat(values, starts)
    owners = f[starts]
    best[owners] = np.maximum(best[owners], group)


def max_conditional_sparse(problem: DiscreteProblem, statics: Statics) -> np.ndarray:
    """max_{i != j} I(f; l_i | l_j) for every feature; 0 when q = 1 (MLSMFS).

    Equals :func:`.pairs.max_conditional` up to rounding: the maximum of the
    untouched pairs (per mode count), of the pairs with one touched label
    (per key) and of the touched pairs (exactly), and 0.
    """
    out, light, parts = _start_fold(problem, statics, _max_conditional, np.maximum)
    if parts is None:
        return out
    entries, lab, ent = parts
    touched = np.zeros((problem.n_features, problem.n_labels), dtype=bool)
    touched[ent.f, ent.t] = True
    best = np.full(problem.n_features, -np.inf)
    t_ = problem.tsum
    info = t_(problem.n_samples) - ent.k_f - lab.label_tsum[ent.t] + ent.k_ft
    given = info + _one_touched_max(problem, lab, ent, touched, True)
    given = np.maximum(given, _one_touched_max(problem, lab, ent, touched, False))
    ent.drop_key_order()  # three arrays of E entries, not needed below
    _max_by_feature(best, ent.f, given)
    shared = (entries, pair_counts(problem, lab.b))
    if not _compiled_pairs(problem, lab, ent, shared[1], info, best):
        for left, right in _feature_chunks(ent.f):
            value = _true_pairs(problem, lab, ent, left, right, shared)
            maxima = np.maximum(info[left], info[right]) - value
            _max_by_feature(best, ent.f[left], maxima)
    best = np.maximum(best, _untouched_max(problem, lab, light, touched, best))
    out[light] = np.maximum(best[light] / problem.n_samples, 0.0)
    return out
