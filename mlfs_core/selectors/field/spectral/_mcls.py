"""MCLS, the manifold-based constraint Laplacian score (Huang, Jiang & Sun 2018).

The steps of the authors' ``MCLS.m``, on ``X`` scaled by the ``scaling``
option and labels mapped to 2Y − 1 (k = ``n_neighbors``; neighbours as
:mod:`._graphs` states):

1. W_X = PKN graph of the rows of X (k + 1 neighbours).
2. R = the rows' kNN reconstruction weights (:func:`._graphs.reconstruction_weights`).
3. The label manifold MU (n x q): for each label l, the minimiser of
   μᵀ(M + rI)μ subject to y_il μ_i >= 1, with M = (I − R)ᵀ(I − R) and the
   ridge r = 1e-8·trace(M)/n that makes the minimiser unique. This
   bound-constrained quadratic programme (in ν = y∘μ: ν >= 1, Hessian
   diag(y)(M + rI)diag(y)) is solved, all labels of a block at once, in
   two phases. First the primal-dual active-set method (Hintermüller, Ito
   & Kunisch 2003) from every constraint active (μ = y), each step one
   sparse LU solve of the free variables' block-diagonal system (the
   instances renumbered once in a fill-reducing order, :func:`_fill_order`,
   which each step's submatrix inherits), until a
   label's active set repeats (it is then the minimiser). The matrix is not
   an M-matrix, so this may cycle: a label whose active set returns to any
   it had before (each step's set is a function of the one before, so it
   would cycle for ever), or has not settled in :data:`MAX_ACTIVE_SET_STEPS`
   steps, goes on to a primal (monotone) active-set method from its last
   iterate projected onto ν >= 1 (:func:`_monotone`): each step moves
   towards the working set's minimiser up to the first constraint met
   (which joins the set) or, there, frees the one working constraint of
   most negative multiplier; the objective falls strictly between working
   sets, so none repeats and it terminates (a guard of
   :data:`_MAX_MONOTONE_STEPS` raises :class:`~mlfs_core.errors.RankingError`).
   Every label's result must then meet the KKT conditions to
   :data:`KKT_TOL` (:func:`kkt_residual`, ‖min(λ/s, ν − 1)‖∞ with λ =
   y∘(M + rI)μ, s = ‖M + rI‖∞‖ν‖∞), or it is one ``RankingError``:
   no approximate iterate is ever returned.
4. W = W_X ∘ PKN graph of the unit-norm rows of MU.
5. 1 − LS_i = f̃ᵀWf̃ / f̃ᵀDf̃ on the unit-norm rows of X (Cai's
   ``LaplacianScore``: f̃ = f − (fᵀD1 / 1ᵀD1) 1, D = diag(W1), and a
   denominator below 1e-12 replaced by 10000).
6. A = the binary kNN graph (symmetrised by max), L_M its Laplacian, L_C
   the Laplacian of its complement: f_iᵀL_C f_i = n‖f_i − f̄_i‖² − f_iᵀL_M f_i.
7. score_i = (1 − LS_i) · f_iᵀL_M f_i / f_iᵀL_C f_i, f_i the scaled feature;
   larger is better, as ``MCLS.m`` sorts it descending.

The score of feature i is undefined when f_iᵀL_C f_i <= 1e-12·n‖f_i‖²
(a constant feature, or no pair of non-neighbours): it ranks last.

Memory: the graphs are sparse (O(nk) values); the dense pieces are row
blocks of distances (:data:`._graphs.BLOCK_CELLS`) and the sparse LU
factors of the label manifold, a block of labels at a time
(:data:`BLOCK_UNKNOWNS`). The estimate checked before work,
:func:`mcls_memory`, is 16n² bytes: two dense n x n float64 matrices, the
size of the graphs ``MCLS.m`` holds densely; it is refused above
:data:`._common.DENSE_BOUND_BYTES` (n up to 11,585). Time: the graphs
(kNN, PKN, reconstruction weights) take seconds; the rest is the label
manifold, one sparse LU per active-set step (about 17 steps for a block of
27 bibtex labels, whose free sets reach 87 % of the unknowns, each LU about
0.02 CPU s per label); figures in the docs (benchmarks-field-spectral).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ....errors import ConfigError, RankingError
from ..._spec import Ranking
from .._scaling import scale
from ._common import check_memory, ranking_from_scores
from ._graphs import (
    binary_graph,
    nearest,
    normalize_rows,
    pkn_graph,
    reconstruction_weights,
)

MAX_ACTIVE_SET_STEPS = 100
"""Most primal-dual active-set steps before a label goes to the monotone phase."""
_MAX_MONOTONE_STEPS = 100_000
"""Most working-set steps of the monotone phase (finite in theory; a guard)."""
KKT_TOL = 1e-9
"""The KKT residual (:func:`kkt_residual`) the label manifold must meet."""
BLOCK_UNKNOWNS = 200_000
"""Unknowns (n times labels) of the label manifold solved at once."""
_MANIFOLD_RIDGE = 1e-8
"""The ridge on the label manifold's system, times trace(M)/n."""


def mcls_memory(n_samples: int) -> int:
    """Estimated bytes MCLS needs at most: two dense n x n float64 matrices."""
    return 16 * n_samples * n_samples


def label_manifold(R: sp.csr_matrix, Y) -> np.ndarray:
    """MU (n x q): the manifold labels of step 3 of the module docstring.

    Labels are solved in blocks of at most :data:`BLOCK_UNKNOWNS` unknowns
    (whole labels), each block by :func:`_active_set`, with the instances
    renumbered in the fill-reducing order of :func:`_fill_order` (the
    minimiser is the same; the solvers' index rules, e.g. the lowest index
    among equal multipliers, then refer to that order).

    Parameters
    ----------
    R : csr_matrix of shape (n, n)
        The reconstruction weights.
    Y : array of shape (n, q)
        Labels in {-1, +1}.
    """
    n, q = Y.shape
    I_R = sp.identity(n, format="csr") - R
    M = (I_R.T @ I_R).tocsr()
    M = (M + _MANIFOLD_RIDGE * M.diagonal().sum() / n * sp.identity(n)).tocsr()
    Y = np.asarray(Y, dtype=np.float64)
    order = _fill_order(M)
    Mp, Yp = M[order][:, order].tocsr(), Y[order]
    step = max(1, BLOCK_UNKNOWNS // n)
    blocks = [_active_set(Mp, Yp[:, s : s + step]) for s in range(0, q, step)]
    MU = np.empty((n, q))
    MU[order] = np.hstack(blocks)
    worst = kkt_residual(M, Y, MU).max(initial=0.0)
    if not worst <= KKT_TOL:
        raise RankingError(
            f"method 'MCLS': the label manifold's KKT residual {worst:.3g} "
            f"exceeds {KKT_TOL:g}"
        )
    return MU


def _fill_order(M: sp.csr_matrix) -> np.ndarray:
    """The instances in the order of SuperLU's minimum-degree ordering of
    M + rI (``MMD_AT_PLUS_A``, symmetric mode), found once by factorising
    the whole matrix: ``order[p]`` is the instance at position p.

    Every step of the label manifold factorises a principal submatrix (the
    free variables); the order a fill-reducing ordering of the whole matrix
    induces on a submatrix fills it no more than the whole (a fill path
    within the submatrix is one in the whole), so each step's LU takes its
    variables in this order (``NATURAL``) instead of ordering afresh, the
    ordering of a block of labels costing more than its factorisation.
    """
    from scipy.sparse.linalg import splu

    factor = splu(
        M.tocsc(),
        permc_spec="MMD_AT_PLUS_A",
        diag_pivot_thresh=0.0,
        options={"SymmetricMode": True},
    )
    order = np.empty(M.shape[0], dtype=np.int64)
    order[factor.perm_c] = np.arange(M.shape[0])  # perm_c: position of each
    return order


def _active_set(M: sp.csr_matrix, Y: np.ndarray) -> np.ndarray:
    """The exact solver of a block of labels at once (module docstring, step
    3): the primal-dual active-set phase; a label whose active set returns to
    any it had before (its sets are kept bit-packed, at most
    :data:`MAX_ACTIVE_SET_STEPS` of them), or has not settled in
    :data:`MAX_ACTIVE_SET_STEPS` steps, goes on to :func:`_monotone`."""
    n, q = Y.shape
    labels = np.ascontiguousarray(Y.T)  # (q, n)
    active = np.ones((q, n), dtype=bool)
    seen = np.zeros((MAX_ACTIVE_SET_STEPS, q, (n + 7) // 8), dtype=np.uint8)
    out = np.empty((q, n))
    todo = np.arange(q)
    for step in range(MAX_ACTIVE_SET_STEPS):  # active-set steps, not labels
        y, act = labels[todo], active[todo]
        seen[step, todo] = np.packbits(act, axis=1)
        mu = _free_solution(M, y, act)
        multiplier = y * (M @ mu.T).T
        new = (multiplier - (y * mu - 1.0)) > 0
        settled = (new == act).all(axis=1)
        packed = np.packbits(new, axis=1)
        cycled = ~settled & (seen[:step, todo] == packed).all(axis=2).any(axis=0)
        out[todo[settled]] = mu[settled]
        if cycled.any():
            out[todo[cycled]] = _monotone(M, y[cycled], mu[cycled])
        active[todo] = new
        todo = todo[~(settled | cycled)]
        if todo.size == 0:
            return out.T
    out[todo] = _monotone(M, labels[todo], mu[~(settled | cycled)])
    return out.T


def _monotone(M: sp.csr_matrix, y: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """(u, n): the primal active-set phase in ν = y∘μ >= 1, from the last
    iterate projected onto the constraints; every step either stops at the
    first constraint met on the way to the working set's minimiser (which
    joins the working set) or, at that minimiser, frees the one working
    constraint of most negative multiplier. The objective falls strictly
    between distinct working sets, so none repeats: it terminates."""
    u, n = y.shape
    nu = np.maximum(y * mu, 1.0)
    work = nu <= 1.0
    out = np.empty((u, n))
    todo = np.arange(u)
    for _ in range(_MAX_MONOTONE_STEPS):  # working-set steps, not labels
        yy, w, v = y[todo], work[todo], nu[todo]
        d = yy * _free_solution(M, yy, w) - v
        block = ~w & (d < 0)
        ratio = np.full(v.shape, np.inf)
        ratio[block] = (v[block] - 1.0) / -d[block]
        alpha = np.minimum(1.0, ratio.min(axis=1))
        v = v + alpha[:, None] * d
        hit = block & (ratio <= alpha[:, None])
        v[hit], w = 1.0, w | hit
        lam = np.where(w, yy * (M @ (yy * v).T).T, np.inf)
        j = lam.argmin(axis=1)
        low = lam[np.arange(todo.size), j]
        at_min = ~hit.any(axis=1)
        done = at_min & (low >= -KKT_TOL * _scale(M, v))
        drop = at_min & ~done
        w[np.flatnonzero(drop), j[drop]] = False
        out[todo[done]] = yy[done] * v[done]
        nu[todo], work[todo] = v, w
        todo = todo[~done]
        if todo.size == 0:
            return out
    raise RankingError(
        f"method 'MCLS': the label manifold's working set did not settle in "
        f"{_MAX_MONOTONE_STEPS} steps for {todo.size} labels"
    )


def _scale(M: sp.csr_matrix, nu: np.ndarray) -> np.ndarray:
    """(u, 1): ‖M‖∞ ‖ν‖∞ per label, the scale of the multipliers."""
    norm = float(abs(M).sum(axis=1).max())
    return norm * np.abs(nu).max(axis=1, keepdims=True)[:, 0]


def kkt_residual(M: sp.csr_matrix, Y: np.ndarray, MU: np.ndarray) -> np.ndarray:
    """Per label, ‖min(λ / s, ν − 1)‖∞ with ν = y∘μ, λ = y∘(Mμ) and s =
    ‖M‖∞‖ν‖∞: zero exactly at the minimiser of step 3 (ν >= 1, λ >= 0,
    λ_i (ν_i − 1) = 0); :func:`label_manifold` checks it is at most
    :data:`KKT_TOL`."""
    nu = Y * MU
    lam = Y * (M @ MU)
    s = _scale(M, nu.T)[None, :]
    return np.abs(np.minimum(lam / s, nu - 1.0)).max(axis=0)


def _free_solution(M: sp.csr_matrix, y: np.ndarray, active: np.ndarray):
    """(u, n): μ = y on the active set, the minimiser on the free variables
    (one sparse LU of the block-diagonal system of every label's free part,
    :func:`_free_block`, its variables in index order: ``M`` comes
    renumbered by :func:`_fill_order`)."""
    from scipy.sparse.linalg import splu

    mu = np.where(active, y, 0.0)
    free = ~active
    if free.any():
        factor = splu(
            _free_block(M, free),
            permc_spec="NATURAL",  # M renumbered in a fill-reducing order
            diag_pivot_thresh=0.0,
            options={"SymmetricMode": True},
        )
        mu[free] = factor.solve(-(M @ mu.T).T[free])
    return mu


def _free_block(M: sp.csr_matrix, free: np.ndarray) -> sp.csc_matrix:
    """The block-diagonal matrix of M's free-by-free part of every label
    (``free`` of shape (u, n)), its unknowns label by label, in index order
    (as ``free[free]``), built from M's entries without forming the u-fold
    block-diagonal copy of M: M's entries taken column by column, label by
    label, are already in the block's column-major order, so its CSC arrays
    are selected directly by one (u, nnz) mask (no sort)."""
    csc = M.tocsc()
    csc.sort_indices()
    per_column = np.diff(csc.indptr)
    keep = free[:, csc.indices]  # (u, nnz): entry kept for the label
    keep &= np.repeat(free, per_column, axis=1)
    width = free.sum(axis=1, dtype=np.int32)  # free unknowns per label
    position = np.cumsum(free, axis=1, dtype=np.int32) - 1
    position += (np.cumsum(width, dtype=np.int32) - width)[:, None]
    # every column of M holds its diagonal (>= 1), so no reduceat segment is empty
    counts = np.add.reduceat(keep, csc.indptr[:-1], axis=1, dtype=np.int32)[free]
    size = int(width.sum())
    indptr = np.zeros(size + 1, dtype=np.int32)
    np.cumsum(counts, out=indptr[1:])
    return sp.csc_matrix(
        (
            np.broadcast_to(csc.data, keep.shape)[keep],
            position[:, csc.indices][keep],
            indptr,
        ),
        shape=(size, size),
    )


def _quadratic(X, G: sp.csr_matrix) -> np.ndarray:
    """fᵀGf for every column f of ``X`` (sparse or dense)."""
    GX = G @ X
    if sp.issparse(X):
        return np.asarray(X.multiply(GX).sum(axis=0), dtype=np.float64).ravel()
    return np.einsum("ij,ij->j", X, GX)


def _weighted(X, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dᵀf, Σ d f²) for every column f of ``X``."""
    first = np.asarray(X.T @ d, dtype=np.float64).ravel()
    sq = X.multiply(X) if sp.issparse(X) else X * X
    return first, np.asarray(sq.T @ d, dtype=np.float64).ravel()


def _laplacian_complement(X, W: sp.csr_matrix) -> np.ndarray:
    """1 − LS of every column, Cai's ``LaplacianScore(X, W)`` (step 5)."""
    d = np.asarray(W.sum(axis=1), dtype=np.float64).ravel()
    first, second = _weighted(X, d)
    total = d.sum()
    centre = first * first / total if total > 0 else np.zeros_like(first)
    d_prime = second - centre
    l_prime = _quadratic(X, W) - centre
    d_prime[d_prime < 1e-12] = 10000.0
    return l_prime / d_prime


def _constraint_ratio(X, A: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """(fᵀL_M f / fᵀL_C f, defined) for every column f (steps 6 and 7)."""
    n = X.shape[0]
    degree = np.asarray(A.sum(axis=1), dtype=np.float64).ravel()
    _, weighted_sq = _weighted(X, degree)
    local = weighted_sq - _quadratic(X, A)
    ones = np.ones(n)
    total = np.asarray(X.T @ ones, dtype=np.float64).ravel()
    sq = X.multiply(X) if sp.issparse(X) else X * X
    squares = np.asarray(sq.T @ ones, dtype=np.float64).ravel()
    spread = n * squares - total * total  # n‖f − f̄‖²
    complement = spread - local
    defined = complement > 1e-12 * n * squares
    ratio = np.zeros_like(local)
    np.divide(local, complement, out=ratio, where=defined)
    return ratio, defined


def mcls_scores(X, Y, n_neighbors: int) -> tuple[np.ndarray, np.ndarray]:
    """(score, defined) of every feature of the scaled ``X`` (the module's steps)."""
    k = n_neighbors
    index, dist = nearest(X, k + 1)
    W_x = pkn_graph(index, dist)
    R = reconstruction_weights(X, index[:, :k])
    MU = label_manifold(R, 2.0 * np.asarray(Y, dtype=np.float64) - 1.0)
    mu_index, mu_dist = nearest(normalize_rows(MU), k + 1)
    W = W_x.multiply(pkn_graph(mu_index, mu_dist)).tocsr()
    lap = _laplacian_complement(normalize_rows(X), W)
    ratio, defined = _constraint_ratio(X, binary_graph(index[:, :k]))
    return lap * ratio, defined


def rank_mcls(X, Y, *, k, rng, n_neighbors=5, scaling="minmax") -> Ranking:
    """MCLS: rank by (1 − LS_i) · f_iᵀL_M f_i / f_iᵀL_C f_i, larger first."""
    n = X.shape[0]
    if n < n_neighbors + 2:
        raise ConfigError(
            f"method 'MCLS': n_neighbors={n_neighbors} needs at least "
            f"n_neighbors + 2 = {n_neighbors + 2} samples (k + 1 neighbours "
            f"besides the instance), got {n}"
        )
    check_memory("MCLS", mcls_memory(n), f"the {n} x {n} instance graphs")
    scores, defined = mcls_scores(scale(X, scaling), Y, n_neighbors)
    return ranking_from_scores(scores, defined, k)
