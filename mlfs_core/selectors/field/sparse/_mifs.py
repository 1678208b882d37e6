"""MIFS: multi-label informed feature selection.

Jian, Li, Shu and Liu (2016), IJCAI. Labels are decomposed into ``c`` latent
labels ``V`` (n x c) with ``Y ~ V B`` (B: c x q), and the features regress on
the latent labels with row sparsity and the instances' manifold:

    J(W, V, B) = ||X W - V||_F^2 + alpha ||Y - V B||_F^2
                 + beta tr(V^T L V) + gamma ||W||_{2,1}

with ``L = S_deg - S`` the Laplacian of the instances' k-nearest-neighbour
graph. The rules (each pinned by a test):

- **Start**: ``Y = P diag(s) Q^T`` (thin SVD), each singular pair's sign
  fixed so that the largest-magnitude entry of ``Q_j`` is positive;
  ``V_0 = P_c diag(s_c)``, ``B_0 = Q_c^T`` with ``c = min(n_latent, q, n)``;
  ``W_0`` is the W update below with ``D = I``.
- **Graph** (:func:`knn_laplacian`): Euclidean distances between instances;
  each instance's ``n_neighbors`` nearest others (itself excluded, a
  duplicate at distance 0 counts, ties to the lowest index); ``i`` and ``j``
  are joined when either is among the other's neighbours, with the
  heat-kernel weight ``exp(-d_ij^2 / sigma^2)``, ``sigma`` the mean distance
  of the neighbour pairs (1 if that is 0). The paper's heat kernel; its
  width is the project's choice, stated here.
- **One iteration**, in the paper's order of blocks: W by the paper's closed
  form ``W = (X^T X + gamma D)^{-1} X^T V`` with ``D_ii = 1 / (2 ||w_i||)``
  from the current W (computed as ``G X^T (X G X^T + gamma I)^{-1} V``,
  ``G = D^{-1}``, when M > n, and in the symmetric form
  ``G^{1/2} (G^{1/2} X^T X G^{1/2} + gamma I)^{-1} G^{1/2} X^T V``
  otherwise, so a row that reaches 0 stays 0 with no division by 0); then
  V, then B, each by one gradient step of the paper's gradients
  ``dJ/dV = 2 (V - X W) + 2 alpha (V B - Y) B^T + 2 beta L V`` and
  ``dJ/dB = 2 alpha V^T (V B - Y)``, its size chosen by Armijo's rule:
  the first of ``1, 1/2, 1/4, ...`` (at most 60 halvings) that decreases
  the objective by at least ``1e-4 * step * ||gradient||^2``; no step if
  none does. Every block update is a descent, so **the objective never
  increases** (the W update by the paper's majorisation argument).
- **Solver** (option ``solver``) of the n x n system ``X G X^T + gamma I``
  (M > n): ``"cholesky"`` forms and factorises it; ``"cg"`` solves it
  matrix-free by Jacobi-preconditioned conjugate gradients warm-started from
  the previous iteration's solution, to a relative residual of 1e-10 per
  column, falling back to Cholesky if CG gives up (every rule:
  :mod:`._cg`); ``"auto"`` (default) takes CG when the factorisation's
  ``n^3 / 3`` flops exceed 100 CG steps (:func:`._cg.uses_cg`). The system
  is at least ``gamma I``, so CG converges (on rcv1subset1: 271 steps from
  zero, then 120 to 150 per iteration, about half a factorisation's cost);
  both solvers give the same objective path to rounding level, not the same
  bits (docs/benchmarks-field.md).
- **Stop**: relative decrease below ``tol``, an objective of 0, or
  ``max_iter`` iterations. **Score**: ``||W_i||_2``.

The paper tunes alpha, beta and gamma by grid search and states no single
default; the defaults here (1, 1, 1; c = min(q, 10); 5 neighbours) are the
field's usual settings.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._common import (
    Observer,
    SparseFit,
    check_gram_memory,
    gram,
    labels,
    row_norms,
    run_iterates,
    small_side,
    spd_solve,
)

_ARMIJO = 1e-4
"""Sufficient-decrease constant of the step-size rule."""
_HALVINGS = 60
"""Most halvings of a step before the block is left unchanged."""
_BLOCK_CELLS = 8_000_000  # cells of a dense block of distances at once


def latent_start(Y, n_latent: int) -> tuple[np.ndarray, np.ndarray]:
    """``(V_0, B_0)`` from the thin SVD of ``Y`` (signs fixed, see the module).

    The right singular vectors come from the q x q matrix ``Y^T Y``
    (``Y = P S Q^T`` gives ``Y^T Y = Q S^2 Q^T`` and ``P_c S_c = Y Q_c``), so
    the cost is one ``n x q`` product, not an SVD of ``Y``.
    """
    Y = labels(Y)
    values, Q = np.linalg.eigh(Y.T @ Y)
    c = max(1, min(n_latent, Y.shape[0], Y.shape[1]))
    Qt = Q[:, ::-1][:, :c].T  # largest first
    idx = np.argmax(np.abs(Qt), axis=1)
    signs = np.where(Qt[np.arange(c), idx] < 0, -1.0, 1.0)
    Qt = Qt * signs[:, None]
    return Y @ Qt.T, Qt


def _neighbours(X: sp.csr_matrix, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(index, squared distance)`` of each row's ``k`` nearest other rows."""
    from ._kernels import both_orders, gram_rows

    R, C = both_orders(X)
    n = X.shape[0]
    norms = np.asarray(X.multiply(X).sum(axis=1)).ravel()
    index = np.empty((n, k), dtype=np.int64)
    dist = np.empty((n, k))
    block = max(1, min(n, _BLOCK_CELLS // n))
    for start in range(0, n, block):  # blocks of rows bound the memory
        rows = np.arange(start, min(start + block, n))
        K = gram_rows(R, C, start, rows[-1] + 1)
        d2 = norms[rows, None] + norms[None, :] - 2.0 * K
        np.maximum(d2, 0.0, out=d2)
        d2[np.arange(rows.size), rows] = np.inf
        index[rows], dist[rows] = _smallest(d2, k)
    return index, dist


def _smallest(d2: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's ``k`` smallest entries by (value, column), without a full sort."""
    kth = np.partition(d2, k - 1, axis=1)[:, k - 1 : k]
    less, equal = d2 < kth, d2 == kth
    room = k - less.sum(axis=1, keepdims=True)
    keep = less | (equal & (np.cumsum(equal, axis=1) <= room))
    cols = np.nonzero(keep)[1].reshape(d2.shape[0], k)  # by column within a row
    values = np.take_along_axis(d2, cols, axis=1)
    order = np.argsort(values, axis=1, kind="stable")
    return np.take_along_axis(cols, order, axis=1), np.take_along_axis(
        values, order, axis=1
    )


def knn_laplacian(X: sp.csr_matrix, n_neighbors: int) -> sp.csr_matrix:
    """The Laplacian of the heat-kernel k-nearest-neighbour graph (module docstring)."""
    n = X.shape[0]
    k = min(n_neighbors, n - 1)
    if k < 1:
        return sp.csr_matrix((n, n))
    index, d2 = _neighbours(X, k)
    sigma2 = np.mean(np.sqrt(d2)) ** 2
    weights = np.exp(-d2 / sigma2) if sigma2 > 0 else np.ones_like(d2)
    S = sp.csr_matrix(
        (weights.ravel(), (np.repeat(np.arange(n), k), index.ravel())), (n, n)
    )
    S = S.maximum(S.T).tocsr()
    return (sp.diags(np.asarray(S.sum(axis=1)).ravel()) - S).tocsr()


def mifs_objective(X, Y, W, V, B, Lap, alpha, beta, gamma) -> float:
    """``||XW - V||^2 + alpha ||Y - VB||^2 + beta tr(V^T L V) + gamma ||W||_{2,1}``."""
    return _objective(X @ W, Y, W, V, B, Lap, alpha, beta, gamma)


def _objective(XW, Y, W, V, B, Lap, alpha, beta, gamma) -> float:
    """:func:`mifs_objective` from ``X W`` already at hand."""
    return float(
        _smooth_part(XW, Y, V, B, Lap, alpha, beta) + gamma * row_norms(W).sum()
    )


def _smooth_part(XW, Y, V, B, Lap, alpha, beta) -> float:
    fit, label = XW - V, Y - V @ B
    return float(
        np.sum(fit * fit) + alpha * np.sum(label * label) + beta * np.sum(V * (Lap @ V))
    )


def _w_step(X, XtX, V, g, gamma, side, solver=None):
    """The W update (module docstring); ``solver``: a :class:`._cg.WarmSolver`."""
    if side == "samples":
        from ._kernels import lower_sample_gram

        R, C = solver.R, solver.C

        def system():
            S = lower_sample_gram(R, C, g)
            S[np.diag_indices_from(S)] += gamma
            return S

        def whole():
            S = system()
            return np.tril(S) + np.tril(S, -1).T

        def exact():
            return spd_solve(system(), V, whole)

        Z = solver.solve(g, np.full(X.shape[0], float(gamma)), V, exact)
        return g[:, None] * np.asarray(C.T @ Z)
    half = np.sqrt(g)
    A = half[:, None] * XtX * half[None, :]
    A[np.diag_indices_from(A)] += gamma
    return half[:, None] * spd_solve(A, half[:, None] * np.asarray(X.T @ V))


def _armijo(value, point, grad, at):
    """``point - step * grad`` for the first Armijo step, or ``point``."""
    slope = float(np.sum(grad * grad))
    if slope == 0.0:
        return point
    step = 1.0
    for _ in range(_HALVINGS + 1):
        trial = point - step * grad
        if at(trial) <= value - _ARMIJO * step * slope:
            return trial
        step *= 0.5
    return point


def _vb_steps(XW, Y, V, B, Lap, alpha, beta):
    def value(V_, B_):
        return _smooth_part(XW, Y, V_, B_, Lap, alpha, beta)

    grad_v = 2.0 * (V - XW) + 2.0 * alpha * (V @ B - Y) @ B.T + 2.0 * beta * (Lap @ V)
    V = _armijo(value(V, B), V, grad_v, lambda T: value(T, B))
    grad_b = 2.0 * alpha * V.T @ (V @ B - Y)
    B = _armijo(value(V, B), B, grad_b, lambda T: value(V, T))
    return V, B


def mifs_fit(
    X: sp.csr_matrix,
    Y,
    *,
    alpha: float = 1.0,
    beta: float = 1.0,
    gamma: float = 1.0,
    n_latent: int = 10,
    n_neighbors: int = 5,
    tol: float = 1e-6,
    max_iter: int = 100,
    solver: str = "auto",
    observe: Observer | None = None,
) -> SparseFit:
    """Fit MIFS on prepared data (every rule: the module docstring).

    Parameters
    ----------
    X : csr_matrix of shape (n_samples, n_features)
        Scaled features.
    Y : array-like of shape (n_samples, n_labels)
        0/1 labels.
    alpha, beta, gamma : float
        Weights of the label fit, the manifold term and the row sparsity.
    n_latent : int
        Latent labels c (at most q).
    n_neighbors : int
        Neighbours of each instance in the graph.
    tol : float
        Stop when the relative decrease of the objective is below it.
    max_iter : int
        Largest number of iterations.
    solver : {"auto", "cholesky", "cg"}
        How the n x n systems (M > n) are solved: Cholesky, or matrix-free
        conjugate gradients warm-started from the previous iteration's
        solution; ``"auto"`` chooses by :func:`._cg.uses_cg`.
    observe : callable, optional
        ``observe(t, W)`` with ``W_0`` (t = 0) and after each iteration.

    Returns
    -------
    SparseFit
    """
    from ._cg import WarmSolver, uses_cg
    from ._kernels import both_orders

    Y = labels(Y)
    side = small_side(X)
    check_gram_memory(X, "MIFS")
    Lap = knn_laplacian(X, n_neighbors)
    V, B = latent_start(Y, n_latent)
    XtX = gram(X, "features") if side == "features" else None
    cg = uses_cg(solver, X, V.shape[1], side)
    warm = WarmSolver(*both_orders(X), cg) if side == "samples" else None
    W = _w_step(X, XtX, V, np.ones(X.shape[1]), gamma, side, warm)
    iterates = _iterates(X, Y, W, V, B, Lap, (alpha, beta, gamma), XtX, side, warm)
    return run_iterates(iterates, tol=tol, max_iter=max_iter, observe=observe)


def _iterates(X, Y, W, V, B, Lap, weights, XtX, side, solver):
    """``(W, objective)`` from the start, then after each W, V, B round."""
    alpha, beta, gamma = weights
    yield W, mifs_objective(X, Y, W, V, B, Lap, alpha, beta, gamma)
    while True:
        W = _w_step(X, XtX, V, 2.0 * row_norms(W), gamma, side, solver)
        XW = np.asarray(X @ W)
        V, B = _vb_steps(XW, Y, V, B, Lap, alpha, beta)
        yield W, _objective(XW, Y, W, V, B, Lap, alpha, beta, gamma)
