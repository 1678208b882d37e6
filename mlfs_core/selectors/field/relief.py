"""Instance-based methods: RF-ML (family ``"instance-based"``).

RF-ML is ReliefF for multi-label data with the Hamming label distance
(Spolaôr, Cherman, Monard and Lee 2013 [1]_). Features are scaled first
(option ``scaling``, min-max by default, :mod:`._scaling`), so the difference
of two instances on feature i is ``diff_i(a, b) = |x_ai - x_bi|`` in [0, 1].
For each of m reference instances r, its k nearest neighbours N(r) are found
by the Manhattan distance ``sum_i diff_i(r, j)``, and with the label distance
``d_Y(r, j) = Hamming(Y_r, Y_j) / q`` and each neighbour weighted ``1 / k``::

    N_Y     += d_Y(r, j) / k
    N_F[i]  += diff_i(r, j) / k
    N_YF[i] += d_Y(r, j) diff_i(r, j) / k
    W[i]     = N_YF[i] / N_Y - (N_F[i] - N_YF[i]) / (m - N_Y)

A feature scores high when it differs between near instances whose labels
differ, and agrees between near instances whose labels agree.

Rules that decide the outcome (each pinned by a test):

- **Neighbours.** The k *nearest* instances (smallest distance), the instance
  itself excluded (by index, so a duplicate row at distance 0 is a
  neighbour). Distances are rounded to 9 decimals before they are compared,
  so sums that differ only by floating-point rounding tie, and a tie goes to
  the lowest instance index. With fewer than ``k + 1`` instances every other
  instance is a neighbour and the weight is ``1 / (n - 1)``; a single
  instance has no neighbour and every score is 0.
- **References.** ``n_samples = 0`` (the default) or ``>= n`` takes every
  instance once (deterministic: the generator is not used); ``1 <= m < n``
  draws m distinct instances from the generator (a seeded sample without
  replacement).
- **Degenerate sums.** ``N_Y = 0`` (no neighbour differs in any label) makes
  the first term 0; ``m - N_Y <= 1e-9 m`` (every neighbour differs in every
  label) makes the second term 0. Scores are always finite.
- **Ranking.** Score descending, ties by the lowest feature index.

Cost and memory. Distances are computed one block of reference rows at a
time, against all n instances; a block's distance matrix is bounded by
:data:`BLOCK_BYTES`. A dense (or densely filled) scaled ``X`` uses
``scipy.spatial.distance.cdist`` (O(n m M) time). A sparse ``X`` is never
densified: ``|a - b|_1 = |a|_1 + |b|_1 - sum_i (|a_i| + |b_i| - |a_i - b_i|)``
(the sum is ``2 sum_i min(a_i, b_i)`` for non-negative values), summed only
over the features two rows share: one sparse product for the features with a
single stored value (binary data), the others gathered column by column (O(sum over
references of the column counts of their features), at most
:data:`GATHER_ENTRIES` gathered values at a time, or one reference row's
if that is more). The per-feature sums take one sparse difference of the
k m (reference, neighbour) row pairs, per block.

References
----------
.. [1] N. Spolaôr, E. A. Cherman, M. C. Monard and H. D. Lee, "ReliefF for
   multi-label feature selection", Brazilian Conference on Intelligent
   Systems (BRACIS), 2013, pp. 6-11.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..._validation import check_k
from ...options import Option
from .._spec import MethodSpec, Ranking
from ..citations import FIELD
from ._scaling import SCALING_OPTION, scale

__all__ = [
    "BLOCK_BYTES",
    "DENSE_COPY_BYTES",
    "GATHER_ENTRIES",
    "Neighbours",
    "label_distance",
    "nearest_neighbours",
    "rank_rfml",
    "reference_rows",
    "ReliefSums",
    "relief_specs",
    "relief_sums",
]

BLOCK_BYTES = 16 * 1024**2
"""Largest distance block (reference rows x n instances, float64): 16 MiB
(the neighbour search holds about five arrays of that size at once)."""
GATHER_ENTRIES = 1 << 21
"""Most (reference feature, other row) minima gathered at once on sparse data."""
_DISTANCE_DECIMALS = 9
"""Distances are rounded to this many decimals before they are compared."""
DENSE_FILL = 0.25
"""A sparse scaled ``X`` at least this full is compared densely, when its
dense copy fits in :data:`DENSE_COPY_BYTES`."""
DENSE_COPY_BYTES = 512 * 1024**2
"""Largest dense copy of a densely filled sparse ``X`` (512 MiB)."""


@dataclass(frozen=True)
class Neighbours:
    """The k nearest neighbours of some reference instances.

    Attributes
    ----------
    rows : ndarray of shape (m,)
        The reference instances.
    index : ndarray of shape (m, k)
        Each reference's neighbours, nearest first (ties: lowest index).
    distance : ndarray of shape (m, k)
        Their Manhattan distances (rounded to 9 decimals).
    """

    rows: np.ndarray
    index: np.ndarray
    distance: np.ndarray


def reference_rows(n: int, n_samples: int, rng: np.random.Generator) -> np.ndarray:
    """The reference instances: all n, or a seeded sample of ``n_samples``.

    ``n_samples = 0`` or ``>= n`` gives ``arange(n)`` without touching
    ``rng``; otherwise ``n_samples`` distinct instances drawn by ``rng``,
    sorted ascending.
    """
    if n_samples <= 0 or n_samples >= n:
        return np.arange(n)
    return np.sort(rng.choice(n, size=int(n_samples), replace=False))


def _as_dense_if_full(Xs):
    if not sp.issparse(Xs):
        return Xs
    n, m = Xs.shape
    full = Xs.nnz >= DENSE_FILL * n * m
    if full and n * m * 8 <= DENSE_COPY_BYTES:
        return Xs.toarray()
    return sp.csr_matrix(Xs)


def _block_size(n: int) -> int:
    return max(1, BLOCK_BYTES // (8 * max(n, 1)))


def _shared_sums(cache: dict, rows: np.ndarray) -> np.ndarray:
    """``S[a, j] = sum_i (|x_ai| + |x_ji| - |x_ai - x_ji|)`` over the features
    row ``rows[a]`` and row j share (``2 min`` of the two for non-negative
    values). Features with one stored value ``v`` take one sparse product
    (the term is ``2 |x_ai| |x_ji| / |v|``); the others are gathered column by
    column, within :data:`GATHER_ENTRIES`."""
    single, scaled = cache["single"]
    out = np.empty((rows.size, single.shape[0]))
    step = _block_size(single.shape[1])
    for start in range(0, rows.size, step):  # a dense slice within BLOCK_BYTES
        part = single[rows[start : start + step]].toarray()
        out[start : start + step] = 2.0 * (scaled @ part.T).T
    multi, multi_c = cache["multi"]
    bounds = np.cumsum(cache["cost"][rows])
    first = 0
    while first < rows.size:
        base = bounds[first - 1] if first else 0
        fit = int(np.searchsorted(bounds, base + GATHER_ENTRIES, side="right"))
        last = max(first + 1, fit)  # at least one reference row per gather
        _gather_block(multi, multi_c, rows[first:last], out[first:last])
        first = last
    return out


def _split_columns(Xs: sp.csr_matrix, cache: dict) -> None:
    """Cache the features with one stored value apart from the others."""
    Xc = Xs.tocsc()
    counts = np.diff(Xc.indptr)
    nonempty = counts > 0
    starts = Xc.indptr[:-1][nonempty]
    top = np.zeros(Xs.shape[1])
    low = np.zeros(Xs.shape[1])
    if starts.size:
        top[nonempty] = np.maximum.reduceat(Xc.data, starts)
        low[nonempty] = np.minimum.reduceat(Xc.data, starts)
    single = nonempty & (top == low)
    inverse = np.zeros(Xs.shape[1])
    inverse[single] = 1.0 / np.abs(top[single])
    absolute = abs(Xc[:, single]).tocsr()
    cache["single"] = (absolute, (absolute @ sp.diags(inverse[single])).tocsr())
    multi = Xc[:, ~single]
    cache["multi"] = (multi.tocsr(), multi)
    owner = np.repeat(np.arange(Xs.shape[0]), np.diff(cache["multi"][0].indptr))
    weight = np.diff(multi.indptr)[cache["multi"][0].indices]
    cache["cost"] = np.bincount(owner, weights=weight, minlength=Xs.shape[0])
    cache["norm"] = np.asarray(abs(Xs).sum(axis=1)).ravel()


def _expand(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``concatenate([arange(s, s + c) for s, c in zip(starts, counts)])``."""
    offset = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    return np.repeat(starts, counts) + offset


def _gather_block(Xr, Xc, rows: np.ndarray, out: np.ndarray) -> None:
    n = Xr.shape[0]
    lengths = Xr.indptr[rows + 1] - Xr.indptr[rows]
    entry = _expand(Xr.indptr[rows], lengths)
    local = np.repeat(np.arange(rows.size), lengths)
    cols, vals = Xr.indices[entry], Xr.data[entry]
    counts = np.diff(Xc.indptr)[cols]
    owner = np.repeat(np.arange(cols.size), counts)
    pos = _expand(Xc.indptr[cols], counts)
    a, b = vals[owner], Xc.data[pos]
    shared = np.abs(a) + np.abs(b) - np.abs(a - b)
    flat = local[owner] * n + Xc.indices[pos]
    out += np.bincount(flat, weights=shared, minlength=rows.size * n).reshape(
        rows.size, n
    )


def _distances(Xs, rows: np.ndarray, cache: dict) -> np.ndarray:
    """Manhattan distances from ``rows`` to every instance, rounded."""
    if not sp.issparse(Xs):
        from scipy.spatial.distance import cdist

        d = cdist(Xs[rows], Xs, metric="cityblock")
    else:
        if "norm" not in cache:
            _split_columns(Xs, cache)
        norm = cache["norm"]
        d = norm[rows, None] + norm[None, :] - _shared_sums(cache, rows)
    return np.round(np.maximum(d, 0.0), _DISTANCE_DECIMALS)


def _k_nearest(d: np.ndarray, rows: np.ndarray, k: int):
    """The ``k`` smallest of each row of ``d`` (self excluded), ties: lowest index."""
    d[np.arange(rows.size), rows] = np.inf
    kth = np.partition(d, k - 1, axis=1)[:, k - 1 : k]
    less = d < kth
    equal = d == kth
    need = k - less.sum(axis=1, keepdims=True)
    chosen = less | (equal & (np.cumsum(equal, axis=1) <= need))
    index = np.nonzero(chosen)[1].reshape(rows.size, k)
    dist = np.take_along_axis(d, index, axis=1)
    order = np.argsort(dist, axis=1, kind="stable")  # index ascending within ties
    return np.take_along_axis(index, order, axis=1), np.take_along_axis(
        dist, order, axis=1
    )


def nearest_neighbours(Xs, rows: np.ndarray, k: int) -> Neighbours:
    """The ``k`` nearest neighbours of each of ``rows`` in scaled data ``Xs``.

    Parameters
    ----------
    Xs : ndarray or sparse matrix of shape (n_samples, n_features)
        Scaled feature values (non-negative when sparse).
    rows : ndarray of shape (m,)
        Reference instances.
    k : int
        Neighbours per reference, at most ``n_samples - 1``.

    Returns
    -------
    Neighbours
        Nearest first; the reference itself excluded, ties by lowest index
        (see the module docstring).
    """
    Xs = _as_dense_if_full(Xs)
    rows = np.asarray(rows, dtype=np.int64)
    cache: dict = {}
    index = np.zeros((rows.size, k), dtype=np.int64)
    dist = np.zeros((rows.size, k))
    step = _block_size(Xs.shape[0])
    for start in range(0, rows.size, step):
        part = rows[start : start + step]
        d = _distances(Xs, part, cache)
        index[start : start + step], dist[start : start + step] = _k_nearest(d, part, k)
    return Neighbours(rows=rows, index=index, distance=dist)


def label_distance(Y: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamming distance of the label rows ``a`` and ``b`` (pairwise), over q."""
    return (Y[a] != Y[b]).mean(axis=1) if Y.shape[1] else np.zeros(a.size)


def _abs_differences(Xs, a: np.ndarray, b: np.ndarray):
    if sp.issparse(Xs):
        return sp.csr_matrix(abs(Xs[a] - Xs[b]))
    return np.abs(Xs[a] - Xs[b])


def _column_sums(diff, weights: np.ndarray) -> np.ndarray:
    """``sum_p weights[p] diff[p, i]`` per feature, adding the rows in the same
    order for every feature (two equal features get equal sums)."""
    if sp.issparse(diff):
        return np.asarray(diff.multiply(weights[:, None]).sum(axis=0)).ravel()
    return (diff * weights[:, None]).sum(axis=0)


@dataclass(frozen=True)
class ReliefSums:
    """RF-ML's sums over some references and their neighbours.

    Attributes
    ----------
    n_y : float
        ``N_Y``, the label distances summed (each neighbour weighted 1/k).
    n_f : ndarray of shape (n_features,)
        ``N_F``, the feature differences summed.
    n_yf : ndarray of shape (n_features,)
        ``N_YF``, the products of the two summed.
    m : int
        The number of references.
    """

    n_y: float
    n_f: np.ndarray
    n_yf: np.ndarray
    m: int

    def weights(self) -> np.ndarray:
        """``N_YF / N_Y - (N_F - N_YF) / (m - N_Y)``, finite (module docstring)."""
        n_y, n_f, n_yf, m = self.n_y, self.n_f, self.n_yf, self.m
        first = n_yf / n_y if n_y > 0 else np.zeros_like(n_yf)
        rest = m - n_y
        enough = rest > 1e-9 * max(m, 1)
        second = (n_f - n_yf) / rest if enough else np.zeros_like(n_f)
        return first - second

    def __sub__(self, other: ReliefSums) -> ReliefSums:
        """The sums without ``other``'s references (a part of these)."""
        return ReliefSums(
            self.n_y - other.n_y,
            self.n_f - other.n_f,
            self.n_yf - other.n_yf,
            self.m - other.m,
        )


def relief_sums(Xs, Y: np.ndarray, neighbours: Neighbours) -> ReliefSums:
    """RF-ML's sums ``N_Y``, ``N_F`` and ``N_YF`` over the references' neighbours.

    Parameters
    ----------
    Xs : ndarray or sparse matrix of shape (n_samples, n_features)
        Scaled feature values.
    Y : ndarray of shape (n_samples, n_labels)
        0/1 labels.
    neighbours : Neighbours
        From :func:`nearest_neighbours` (k of them per reference).

    Returns
    -------
    ReliefSums
        Its :meth:`~ReliefSums.weights` are the features' weights.
    """
    Xs = _as_dense_if_full(Xs)
    m, k = neighbours.index.shape
    n_f, n_yf, n_y = np.zeros(Xs.shape[1]), np.zeros(Xs.shape[1]), 0.0
    step = max(1, _block_size(Xs.shape[1]) // max(k, 1))
    for start in range(0, m, step):
        a = np.repeat(neighbours.rows[start : start + step], k)
        b = neighbours.index[start : start + step].ravel()
        d_y = label_distance(Y, a, b) / k
        diff = _abs_differences(Xs, a, b)
        n_y += d_y.sum()
        n_f += _column_sums(diff, np.full(a.size, 1.0 / k))
        n_yf += _column_sums(diff, d_y)
    return ReliefSums(float(n_y), n_f, n_yf, m)


def rank_rfml(
    X,
    Y: np.ndarray,
    *,
    k: int,
    rng: np.random.Generator,
    n_neighbors: int = 10,
    n_samples: int = 0,
    scaling: str = "minmax",
) -> Ranking:
    """Rank features with RF-ML (see the module docstring for every rule).

    Parameters
    ----------
    X : sparse matrix or ndarray of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, n_labels)
    k : int
        Number of features in the order.
    rng : numpy.random.Generator
        Draws the references when ``0 < n_samples < n``; unused otherwise.
    n_neighbors : int, default=10
        Neighbours per reference (all others when fewer exist).
    n_samples : int, default=0
        References: 0 = every instance, else a seeded sample of that size.
    scaling : {"minmax", "standard", "none"}, default="minmax"

    Returns
    -------
    Ranking
        ``scores`` the weights W, ``order`` their top ``k`` (ties: lowest index).
    """
    Xs = scale(X, scaling)
    Y = np.asarray(Y, dtype=np.int8)
    n, n_features = Xs.shape
    k = check_k(k, n_features)
    rows = reference_rows(n, int(n_samples), rng)
    neighbours_k = min(int(n_neighbors), n - 1)
    if neighbours_k < 1:
        scores = np.zeros(n_features)
    else:
        found = nearest_neighbours(Xs, rows, neighbours_k)
        scores = relief_sums(Xs, Y, found).weights()
    order = np.argsort(-scores, kind="stable")[:k]
    return Ranking(order=order, scores=scores)


def _options() -> tuple[Option, ...]:
    return (
        Option(
            "n_neighbors",
            10,
            low=1,
            high=1000,
            help="Nearest neighbours per reference instance (Manhattan distance).",
        ),
        Option(
            "n_samples",
            0,
            low=0,
            help="Reference instances: 0 = every instance (deterministic), "
            "else a seeded sample of that many.",
        ),
        SCALING_OPTION,
    )


def relief_specs() -> list[MethodSpec]:
    """The specs of this module's methods, for the registry."""
    return [
        MethodSpec(
            name="RF-ML",
            family="instance-based",
            rank=rank_rfml,
            stochastic=True,
            options=_options(),
            description="ReliefF with the Hamming label distance: features that "
            "differ where near instances' labels differ.",
            score_kind="score",
            citation=FIELD["RF-ML"],
        )
    ]
