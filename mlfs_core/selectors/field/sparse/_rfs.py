"""RFS: efficient and robust feature selection via joint l2,1-norms minimisation.

Nie, Huang, Cai and Ding (2010), NIPS. The method solves

    min_W ||X W - Y||_{2,1} + gamma ||W||_{2,1}

(the l2,1-norm sums the Euclidean norms of the rows) by the paper's
iteratively reweighted algorithm: with ``A = [X, gamma I]`` (n x (M + n)) and
``U = [W; E]``, ``E = (Y - X W) / gamma``, the problem is
``min ||U||_{2,1}`` subject to ``A U = Y``, and each iteration solves
``U = D^{-1} A^T (A D^{-1} A^T)^{-1} Y`` with ``D_ii = 1 / (2 ||u_i||)`` from
the previous ``U``. The objective never increases (the paper's Theorem 1)
and, the problem being convex, the limit is its minimum.

Rules (pinned by tests):

- **Start**: ``D = I``, so ``U_0 = A^T (A A^T)^{-1} Y``, the least-norm
  solution; ``objective_path[0]`` is the objective there.
- **Row weights**: ``||u_i||`` is taken as ``sqrt(||u_i||^2 + 1e-16)``, so a
  row that reaches 0 keeps a finite weight (the paper divides by
  ``||u_i||``, undefined at 0); the reported objective uses the plain norms.
- **Form**: when ``M > n`` the ``n x n`` system ``A D^{-1} A^T = X G_W X^T +
  gamma^2 G_E`` (``G = D^{-1}``, diagonal) is solved, so the cost follows
  ``n`` (its lower triangle made by :func:`._kernels.lower_sample_gram`
  and factored in place, ``X W`` computed once per iteration for both the
  objective and ``E``); when ``M <= n`` the equivalent ``M x M`` system
  ``(gamma^2 I + G_W^{1/2} X^T G_E^{-1} X G_W^{1/2}) Z = G_W^{1/2} X^T
  G_E^{-1} Y``, ``W = G_W^{1/2} Z``. Both give the same ``W``.
- **Stop**: relative decrease of the objective below ``tol``, an objective
  of 0, or ``max_iter`` iterations.
- **Score**: ``||W_i||_2``.
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

_SMOOTHING = 1e-16
"""Added to each squared row norm before it becomes a weight."""


def rfs_objective(X, Y: np.ndarray, W: np.ndarray, gamma: float) -> float:
    """``||X W - Y||_{2,1} + gamma ||W||_{2,1}``."""
    return _objective(X @ W, Y, W, gamma)


def _objective(XW: np.ndarray, Y: np.ndarray, W: np.ndarray, gamma: float) -> float:
    """:func:`rfs_objective` from ``X W`` already at hand."""
    residual = XW - Y
    return float(row_norms(residual).sum() + gamma * row_norms(W).sum())


def _weights(rows: np.ndarray) -> np.ndarray:
    """``1 / D_ii`` (up to the factor 2, which cancels) for each row."""
    return np.sqrt(np.einsum("ij,ij->i", rows, rows) + _SMOOTHING)


def _solve(X, Y, g_w, g_e, gamma, side, orders=None):
    """``W`` of one reweighted least-norm solve (the paper's step).

    ``orders``: ``X`` as CSR and CSC (:func:`._kernels.both_orders`), made
    once per fit, for the samples' side.
    """
    if side == "samples":
        from ._kernels import both_orders, lower_sample_gram

        R, C = orders or both_orders(X)

        def system():
            S = lower_sample_gram(R, C, g_w)
            S[np.diag_indices_from(S)] += gamma**2 * g_e
            return S

        def whole():
            S = system()
            return np.tril(S) + np.tril(S, -1).T

        return g_w[:, None] * np.asarray(C.T @ spd_solve(system(), Y, whole))
    half = np.sqrt(g_w)
    B = sp.diags(1.0 / np.sqrt(g_e)) @ X.multiply(half[None, :]).tocsr()
    A = gram(B, "features")
    A[np.diag_indices_from(A)] += gamma**2
    rhs = half[:, None] * np.asarray(X.T @ (Y / g_e[:, None]))
    return half[:, None] * spd_solve(A, rhs)


def rfs_fit(
    X: sp.csr_matrix,
    Y,
    *,
    gamma: float = 1.0,
    tol: float = 1e-6,
    max_iter: int = 1000,
    side: str | None = None,
    observe: Observer | None = None,
) -> SparseFit:
    """Fit RFS on prepared data (see the module docstring for every rule).

    Parameters
    ----------
    X : csr_matrix of shape (n_samples, n_features)
        Scaled features (:func:`._common.prepared`).
    Y : array-like of shape (n_samples, n_labels)
        0/1 labels.
    gamma : float
        Weight of the row-sparsity term (> 0).
    tol : float
        Stop when the relative decrease of the objective is below it.
    max_iter : int
        Largest number of reweighting iterations.
    side : {"features", "samples"}, optional
        Which system to solve; default the smaller (``"samples"`` when M > n).
    observe : callable, optional
        ``observe(t, W)`` at the start (t = 0) and after each iteration.

    Returns
    -------
    SparseFit
    """
    from ._kernels import both_orders

    Y = labels(Y)
    side = side or small_side(X)
    check_gram_memory(X, "RFS")
    orders = both_orders(X) if side == "samples" else None
    ones_w, ones_e = np.ones(X.shape[1]), np.ones(X.shape[0])
    W = _solve(X, Y, ones_w, ones_e, gamma, side, orders)
    iterates = _iterates(X, Y, W, gamma, side, orders)
    return run_iterates(iterates, tol=tol, max_iter=max_iter, observe=observe)


def _iterates(X, Y, W, gamma, side, orders):
    """``(W, objective)`` from the start ``W``, then after each reweighting."""
    XW = np.asarray(X @ W)
    yield W, _objective(XW, Y, W, gamma)
    while True:
        E = (Y - XW) / gamma
        W = _solve(X, Y, _weights(W), _weights(E), gamma, side, orders)
        XW = np.asarray(X @ W)
        yield W, _objective(XW, Y, W, gamma)
