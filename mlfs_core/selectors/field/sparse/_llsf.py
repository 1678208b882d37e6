"""LLSF: learning label-specific features.

Huang, Li, Huang and Wu, "Learning label-specific features for multi-label
classification", ICDM 2015 and IEEE TKDE 28(12), 2016. The objective

    f(W) = 1/2 ||X W - Y||_F^2 + alpha/2 tr(R W^T W) + beta ||W||_1

with ``R_jk = 1 - cos(Y_j + eps, Y_k + eps)`` the cosine **distance** of the
label columns (``eps = 2.2e-16``, as the authors' ``pdist2(Y' + eps, Y' +
eps, 'cosine')``; :func:`label_distance`). ``R`` has trace 0, so ``f`` is not
convex (unbounded below when M > n): the method is the authors' procedure,
replayed exactly:

- ``W_0 = (X^T X + rho I)^{-1} X^T Y``, computed as
  ``X^T (X X^T + rho I)^{-1} Y`` when M > n (the same matrix);
- ``Lip = sqrt(2 (||X^T X||_2^2 + ||alpha R||_2^2))`` (spectral norms; the
  first is the largest eigenvalue of the smaller Gram matrix);
- ``b_0 = b_1 = 1`` and ``W_1 = W_0``; step t (t = 1, 2, ...):
  ``V = W_t + ((b_{t-1} - 1) / b_t) (W_t - W_{t-1})``,
  ``W_{t+1} = soft(V - (X^T X V - X^T Y + alpha V R) / Lip, beta / Lip)``,
  ``b_{t+1} = (1 + sqrt(1 + 4 b_t^2)) / 2``, where
  ``soft(z, s) = sign(z) max(|z| - s, 0)``;
- stop after ``max_iter`` steps, or after step t when
  ``|f(W_{t+1}) - f(W_t)| < tol |f(W_t)|`` (``tol = 0``: exactly
  ``max_iter`` steps).

``objective_path`` is ``f(W_0)`` then ``f`` after each step. The score of a
feature is ``||W_i||_2`` (the project's choice: LLSF learns label-specific
features; the row norm is its usual use as one global ranking).
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
    run_iterates,
    small_side,
    spd_solve,
    top_eigenvalue,
)

_EPS = 2.2e-16
"""Added to every label value before the cosine distance (the authors' ``eps``)."""


def label_distance(Y) -> np.ndarray:
    """``R``: the cosine distance of label columns, ``1 - cos(Y_j + eps, Y_k + eps)``.

    The diagonal is exactly 0 (a label's distance to itself). A label that
    never occurs is the constant column ``eps`` and keeps finite distances.

    Examples
    --------
    >>> Y = np.array([[1, 1, 0], [0, 0, 1]])
    >>> label_distance(Y).round(6).tolist()
    [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    """
    Z = labels(Y) + _EPS
    norms = np.sqrt(np.einsum("ij,ij->j", Z, Z))
    R = 1.0 - (Z.T @ Z) / np.outer(norms, norms)
    np.fill_diagonal(R, 0.0)
    return R


def llsf_objective(X, Y, W, R, alpha: float, beta: float) -> float:
    """``1/2 ||X W - Y||_F^2 + alpha/2 tr(R W^T W) + beta ||W||_1``."""
    residual = X @ W - Y
    return float(
        0.5 * np.sum(residual * residual)
        + 0.5 * alpha * np.sum(R * (W.T @ W))
        + beta * np.abs(W).sum()
    )


def ridge_start(X, Y, rho: float, side: str | None = None) -> tuple[np.ndarray, float]:
    """``(W_0, ||X^T X||_2)``: the ridge start and the Gram matrix's top eigenvalue.

    ``side="features"`` solves ``(X^T X + rho I) W = X^T Y`` (M x M);
    ``side="samples"`` computes ``X^T (X X^T + rho I)^{-1} Y`` (n x n).
    Default: the smaller.
    """
    Y = labels(Y)
    side = side or small_side(X)
    G = gram(X, side)
    top = top_eigenvalue(G)
    G[np.diag_indices_from(G)] += rho
    if side == "features":
        return spd_solve(G, np.asarray(X.T @ Y)), top
    return np.asarray(X.T @ spd_solve(G, Y)), top


def _soft(Z: np.ndarray, s: float) -> np.ndarray:
    return np.sign(Z) * np.maximum(np.abs(Z) - s, 0.0)


def llsf_fit(
    X: sp.csr_matrix,
    Y,
    *,
    alpha: float = 2.0**-5,
    beta: float = 2.0**-3,
    rho: float = 0.1,
    tol: float = 1e-4,
    max_iter: int = 100,
    observe: Observer | None = None,
) -> SparseFit:
    """Run the authors' LLSF procedure on prepared data (rules: module docstring).

    Parameters
    ----------
    X : csr_matrix of shape (n_samples, n_features)
        Scaled features.
    Y : array-like of shape (n_samples, n_labels)
        0/1 labels.
    alpha, beta, rho, tol : float
        Label-correlation weight, l1 weight, ridge of the start, stopping tolerance.
    max_iter : int
        Largest number of steps.
    observe : callable, optional
        ``observe(t, W)`` with ``W_0`` (t = 0) and after each step.

    Returns
    -------
    SparseFit
    """
    Y = labels(Y)
    check_gram_memory(X, "LLSF")
    R = label_distance(Y)
    W, top = ridge_start(X, Y, rho)
    XtY = np.asarray(X.T @ Y)
    lip = np.sqrt(2.0 * (top**2 + (alpha * np.abs(np.linalg.eigvalsh(R)).max()) ** 2))
    iterates = _iterates(X, Y, W, R, XtY, alpha, beta, lip)
    return run_iterates(
        iterates, tol=tol, max_iter=max_iter, observe=observe, stop_at_zero=False
    )


def _iterates(X, Y, W, R, XtY, alpha, beta, lip):
    """``(W, f(W))`` from ``W_0``, then after each accelerated step."""
    W_prev, b_prev, b = W, 1.0, 1.0
    yield W, llsf_objective(X, Y, W, R, alpha, beta)
    while True:
        V = W + ((b_prev - 1.0) / b) * (W - W_prev)
        grad = np.asarray(X.T @ (X @ V)) - XtY + alpha * (V @ R)
        W_prev, W = W, _soft(V - grad / lip, beta / lip)
        b_prev, b = b, (1.0 + np.sqrt(1.0 + 4.0 * b * b)) / 2.0
        yield W, llsf_objective(X, Y, W, R, alpha, beta)
