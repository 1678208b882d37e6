"""Matrix-free conjugate gradients for the n x n systems ``X G X^T + diag(s)``.

Where M > n the sparse-regression methods solve ``K Z = B`` with ``K = X G
X^T + diag(s)`` (``G``, ``s``: positive diagonals) once per iteration. The
exact solve forms ``K`` (``O(sum_f nnz_f^2)``) and factorises it (``n^3 / 3``
flops); on text (n = 6000) that is about 2.5 CPU s per iteration. This module
solves the same system without forming ``K``: ``K v = X (G (X^T v)) + s v``
by two sparse products, by the preconditioned conjugate-gradient method
(Hestenes and Stiefel 1952) with the Jacobi (diagonal) preconditioner
``diag(K)_i = sum_f G_f x_if^2 + s_i``, every column of ``B`` its own
recurrence (vectorised over the columns).

MIFS uses it (its ``solver`` option); RFS keeps the Cholesky solve: its
weights reach 1e-8 and Jacobi CG needs about 300 steps per reweighting on
rcv1subset1, ten times the factorisation (docs/benchmarks-field.md).

Rules (pinned by tests):

- **Start**: the solution of the previous solve of the same fit (warm
  start), zeros at the first.
- **Stop**: when every column's residual satisfies ``||B_j - K Z_j|| <=``
  :data:`RTOL` ``* ||B_j||``: when the recurrence's residual meets it, the
  true residual ``B - K Z`` is recomputed and decides (if it fails, CG
  restarts from the current ``Z``), so rounding in the recurrence cannot
  stop it early; a column with ``B_j = 0`` is solved by ``Z_j = 0``.
- **Give up**: after :data:`MAX_STEPS_FACTOR` ``* n`` steps (at least 50)
  without meeting the rule, :func:`pcg` returns ``None`` and the caller
  solves exactly (Cholesky).
- **Bits**: sparse products (scipy's, single-threaded, fixed order) and
  element-wise numpy only, no BLAS: the same bits on every run and for any
  number of threads.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

RTOL = 1e-10
"""Relative residual of every column at which the solve stops."""
MAX_STEPS_FACTOR = 1
"""The solve gives up after ``max(50, MAX_STEPS_FACTOR * n)`` steps."""


def _columns_dot(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->j", A, B)


def system(R: sp.csr_matrix, C: sp.csc_matrix, g: np.ndarray, s: np.ndarray):
    """``(matvec, diagonal)`` of ``K = X diag(g) X^T + diag(s)``, never formed.

    Parameters
    ----------
    R, C : csr_matrix, csc_matrix
        ``X`` in both orders (:func:`._kernels.both_orders`).
    g : ndarray of shape (n_features,)
    s : ndarray of shape (n_samples,)
    """
    Ct = C.T  # CSR of X^T: X^T v row by row

    def matvec(v: np.ndarray) -> np.ndarray:
        return np.asarray(R @ (g[:, None] * np.asarray(Ct @ v))) + s[:, None] * v

    diagonal = np.asarray(R.multiply(R) @ g).ravel() + s
    return matvec, diagonal


def pcg(
    matvec: Callable[[np.ndarray], np.ndarray],
    B: np.ndarray,
    diagonal: np.ndarray,
    start: np.ndarray | None = None,
) -> tuple[np.ndarray, int] | None:
    """Solve ``K Z = B`` by Jacobi-preconditioned CG (rules: module docstring).

    Parameters
    ----------
    matvec : callable
        ``matvec(V) = K V`` for an n x k block.
    B : ndarray of shape (n, k)
    diagonal : ndarray of shape (n,)
        ``diag(K)``, all positive.
    start : ndarray of shape (n, k), optional
        The starting point (zeros when omitted).

    Returns
    -------
    (Z, steps) or None
        The solution and the number of CG steps, or ``None`` when the
        stopping rule was not met within the step limit.
    """
    n = B.shape[0]
    bound = RTOL * np.sqrt(_columns_dot(B, B))
    Z = np.zeros_like(B) if start is None else start.copy()
    Z[:, bound == 0] = 0.0
    Rr = B - matvec(Z)
    inverse = 1.0 / diagonal
    P = inverse[:, None] * Rr
    rz = _columns_dot(Rr, P)
    for step in range(max(50, int(MAX_STEPS_FACTOR * n)) + 1):
        if np.all(np.sqrt(_columns_dot(Rr, Rr)) <= bound):
            Rr = B - matvec(Z)  # the true residual decides
            if np.all(np.sqrt(_columns_dot(Rr, Rr)) <= bound):
                return Z, step
            P = inverse[:, None] * Rr  # restart from Z
            rz = _columns_dot(Rr, P)
        KP = matvec(P)
        curvature = _columns_dot(P, KP)
        alpha = np.divide(rz, curvature, out=np.zeros_like(rz), where=curvature > 0)
        Z += alpha * P
        Rr -= alpha * KP
        Q = inverse[:, None] * Rr
        rz_next = _columns_dot(Rr, Q)
        beta = np.divide(rz_next, rz, out=np.zeros_like(rz), where=rz > 0)
        P = Q + beta * P
        rz = rz_next
    return None


SOLVERS = ("auto", "cholesky", "cg")
"""Values of the ``solver`` option."""
AUTO_STEPS = 100
"""``"auto"`` takes CG when ``n^3 / 3`` exceeds this many CG steps' flops."""


def uses_cg(solver: str, X, n_rhs: int, side: str) -> bool:
    """Whether the n x n systems are solved by CG (the ``solver`` rule).

    ``"cholesky"``: never; ``"cg"``: whenever the n x n form is solved
    (``side == "samples"``, i.e. M > n; the M x M form is always factorised);
    ``"auto"``: in the n x n form when the factorisation's ``n^3 / 3`` flops
    exceed :data:`AUTO_STEPS` CG steps of ``4 nnz(X) + 8 n`` flops per
    right-hand side (``n_rhs`` of them): on rcv1subset1 (n = 6000,
    nnz = 463k, 10 latent labels) CG; on a few hundred samples Cholesky.
    """
    if solver == "cholesky" or side != "samples":
        return False
    n = X.shape[0]
    return solver == "cg" or n**3 / 3 > AUTO_STEPS * (4 * X.nnz + 8 * n) * n_rhs


class WarmSolver:
    """Solves ``(X diag(g) X^T + diag(s)) Z = B`` once per iteration of a fit.

    By :func:`pcg` from the previous solution when ``use_cg``, falling back
    to ``exact()`` (a Cholesky solve) when CG gives up; otherwise always
    ``exact()``. ``steps`` lists the CG steps of each solve (-1: fell back).
    """

    def __init__(self, R: sp.csr_matrix, C: sp.csc_matrix, use_cg: bool):
        self.R, self.C, self.use_cg = R, C, use_cg
        self.last: np.ndarray | None = None
        self.steps: list[int] = []

    def solve(self, g, s, B, exact: Callable[[], np.ndarray]) -> np.ndarray:
        """``Z`` for the weights ``g``, ``s`` and right-hand sides ``B``."""
        solved = None
        if self.use_cg:
            matvec, diagonal = system(self.R, self.C, g, s)
            solved = pcg(matvec, B, diagonal, self.last)
        if solved is None:
            Z, steps = exact(), -1
        else:
            Z, steps = solved
        self.steps.append(steps)
        self.last = Z
        return Z
