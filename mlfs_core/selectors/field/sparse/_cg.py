"""Matrix-free preconditioned conjugate gradients for ``X G_W X^T + c G_E``.

RFS's ``n x n`` system ``(X G_W X^T + gamma^2 G_E) Z = Y`` (``G_W``, ``G_E``
diagonal and positive) is solved without forming the matrix: each product is
``X (g_w * (X^T V)) + gamma^2 g_e * V``, two sparse products costing
``O(nnz(X) q)`` for ``q`` right-hand sides, against ``O(n^2 nnz/n + n^3/3)``
for the Gram matrix and its Cholesky factor. Hestenes and Stiefel (1952)
conjugate gradients, run on all ``q`` columns at once (each column its own
step sizes), preconditioned by the diagonal (Jacobi):
``diag = (X o X) g_w + gamma^2 g_e``.

Rules (pinned by tests):

- **Start**: the caller's ``Z0`` (the previous reweighting's solution, the
  system changing little between iterations); a column whose right-hand side
  is 0 is solved by 0.
- **Stop**: every column's residual ``||y_j - A z_j||`` at most ``RTOL`` times
  ``||y_j||``, checked on the *true* residual (recomputed, not the recursive
  one) once the recursion says so; or :data:`MAX_STEPS` steps.
- **Fall back**: a solve that has not met ``RTOL`` by then returns ``None``,
  and the caller solves directly (Cholesky), so the tolerance is never
  silently loosened.
"""

from __future__ import annotations

import numpy as np

RTOL = 1e-10
"""Relative residual of each column at which a solve is accepted."""

MAX_STEPS = 500
"""Conjugate-gradient steps after which the caller falls back to Cholesky."""


class WeightedGram:
    """``V -> X diag(g_w) X^T V + c diag(g_e) V`` and its diagonal, matrix-free.

    Parameters
    ----------
    X : csr_matrix of shape (n_samples, n_features)
    """

    def __init__(self, X):
        self.X = X.tocsr()
        self.XT = self.X.T.tocsr()
        self.X2 = self.X.multiply(self.X).tocsr()

    def set(self, g_w: np.ndarray, g_e: np.ndarray, c: float) -> None:
        """Fix the weights of the next products."""
        self.g_w, self.shift = g_w, c * g_e
        self.diag = np.asarray(self.X2 @ g_w).ravel() + self.shift

    def __matmul__(self, V: np.ndarray) -> np.ndarray:
        inner = self.g_w[:, None] * np.asarray(self.XT @ V)
        return np.asarray(self.X @ inner) + self.shift[:, None] * V


def pcg(A: WeightedGram, Y: np.ndarray, Z0: np.ndarray) -> tuple[object, int]:
    """Solve ``A Z = Y`` column-wise from ``Z0``; ``(Z or None, steps)``.

    ``None`` when :data:`RTOL` is not met within :data:`MAX_STEPS` steps.
    """
    b = np.linalg.norm(Y, axis=0)
    Z = np.where(b > 0, Z0, 0.0)
    target = RTOL * b
    R = Y - A @ Z
    S = R / A.diag[:, None]
    P = S.copy()
    rs = np.einsum("ij,ij->j", R, S)
    for step in range(MAX_STEPS + 1):
        if np.all(np.linalg.norm(R, axis=0) <= target):
            R = Y - A @ Z  # the true residual decides
            if np.all(np.linalg.norm(R, axis=0) <= target):
                return Z, step
        if step == MAX_STEPS:
            break
        AP = A @ P
        pap = np.einsum("ij,ij->j", P, AP)
        alpha = np.divide(rs, pap, out=np.zeros_like(rs), where=pap > 0)
        Z += alpha * P
        R -= alpha * AP
        S = R / A.diag[:, None]
        new = np.einsum("ij,ij->j", R, S)
        beta = np.divide(new, rs, out=np.zeros_like(rs), where=rs > 0)
        P = S + beta * P
        rs = new
    return None, MAX_STEPS
