"""What the three sparse-regression methods share.

The input as the methods see it (:func:`prepared`: scaled, CSR, float64, so a
dense and a sparse ``X`` take the same path and give the same bits), the
dense Gram matrix of the smaller side (``X^T X`` when ``M <= n``, ``X X^T``
otherwise, so the cost follows ``min(n, M)``, never ``max``) with its memory
checked before it is made, a symmetric positive definite solve (in place, on
one BLAS thread, so its bits do not depend on the number of threads), the top
eigenvalue of a Gram matrix, and the result: the score of a feature is the
Euclidean norm of its row of ``W``, ranked descending with ties to the lowest
index (:func:`~mlfs_core.aggregation.order_by_score`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ....aggregation import order_by_score
from ....errors import ConfigError
from ..._spec import Ranking
from .._scaling import DENSE_LIMIT_BYTES, scale

Observer = Callable[[int, np.ndarray], None]
"""``observe(t, W)``: called with the start (``t = 0``) and after each iteration."""

_GRAM_COPIES = 2  # the Gram matrix and one working copy (weighted or factored)


@dataclass(frozen=True)
class SparseFit:
    """What one sparse-regression fit learned.

    Attributes
    ----------
    W : ndarray of shape (n_features, n_outputs)
        The coefficients; a feature's score is the norm of its row.
    objective_path : ndarray of shape (n_iterations + 1,)
        The objective at the start point, then after each iteration.
    """

    W: np.ndarray
    objective_path: np.ndarray

    @property
    def scores(self) -> np.ndarray:
        """``||W_i||_2`` per feature (higher is better)."""
        return row_norms(self.W)

    def ranking(self, k: int) -> Ranking:
        """The top ``k`` features by score, ties to the lowest index."""
        scores = self.scores
        return Ranking(
            order=order_by_score(scores)[:k].astype(np.int64),
            scores=scores,
            objective_path=self.objective_path,
        )


def row_norms(W: np.ndarray) -> np.ndarray:
    """The Euclidean norm of each row of ``W``."""
    return np.sqrt(np.einsum("ij,ij->i", W, W))


def prepared(X, scaling: str) -> sp.csr_matrix:
    """``X`` scaled (:func:`~.._scaling.scale`) as a CSR float64 matrix.

    A dense ``X`` is made sparse (never the reverse), so dense and sparse
    input of the same values follow the same arithmetic.
    """
    scaled = scale(X, scaling)
    return scaled if sp.issparse(scaled) else sp.csr_matrix(scaled)


def labels(Y) -> np.ndarray:
    """``Y`` as a dense float64 array."""
    return np.asarray(Y.toarray() if sp.issparse(Y) else Y, dtype=np.float64)


def small_side(X) -> str:
    """``"features"`` when ``M <= n`` (systems are M x M), else ``"samples"``."""
    n, m = X.shape
    return "features" if m <= n else "samples"


def check_gram_memory(X, method: str) -> None:
    """Refuse, with the estimate, a Gram matrix past :data:`DENSE_LIMIT_BYTES`.

    Raises
    ------
    ConfigError
        Naming the method, the size of the system and the memory it needs.
    """
    d = min(X.shape)
    need = _GRAM_COPIES * d * d * 8
    if need > DENSE_LIMIT_BYTES:
        raise ConfigError(
            f"method {method!r}: its linear systems are {d} x {d} "
            f"(min(n_samples, n_features)), which needs {need / 1024**3:.1f} GiB, "
            f"above the {DENSE_LIMIT_BYTES / 1024**3:.0f} GiB limit; rank a sample "
            "of the rows"
        )


def gram(B: sp.spmatrix, side: str) -> np.ndarray:
    """``B^T B`` (side ``"features"``) or ``B B^T`` (``"samples"``), dense.

    The samples' Gram matrix, nearly dense on text, is made by the compiled
    :func:`._kernels.sample_gram` straight into a dense array.
    """
    if side == "samples":
        from ._kernels import sample_gram

        return sample_gram(B, np.ones(B.shape[1]))
    return np.asarray((B.T @ B).toarray())


def spd_solve(A: np.ndarray, rhs: np.ndarray, rebuild=None) -> np.ndarray:
    """``A^{-1} rhs`` for a symmetric positive definite ``A`` (overwritten).

    LAPACK's Cholesky ``potrf``/``potrs`` on ``A`` in place (a C-ordered
    ``A`` is passed as its transpose, which LAPACK reads without a copy), on
    **one BLAS thread**: OpenBLAS's threaded ``potrf`` splits the work by the
    number of threads and its bits change with it; on one thread they do not.

    Parameters
    ----------
    A : ndarray of shape (d, d), C-ordered
        Without ``rebuild``: the whole symmetric matrix; its upper triangle is
        factored. With ``rebuild``: only its lower triangle is read (above it,
        anything), as :func:`._kernels.lower_sample_gram` makes it.
    rhs : ndarray of shape (d, k)
    rebuild : callable, optional
        ``rebuild()`` gives the whole matrix again, for the fallback.

    Returns
    -------
    ndarray of shape (d, k)
        A matrix that is positive semi-definite only in floating point falls
        back to the least-squares solution (``scipy.linalg.lstsq``) of the
        whole matrix (without ``rebuild``: remade from the triangle the
        factorisation left untouched and the saved diagonal).
    """
    import scipy.linalg as sl
    from scipy.linalg import lapack
    from threadpoolctl import threadpool_limits

    A = np.ascontiguousarray(A, dtype=np.float64)
    diagonal = A.diagonal().copy()
    lower = 0 if rebuild is not None else 1  # LAPACK's view: A.T
    with threadpool_limits(limits=1, user_api="blas"):
        factor, info = lapack.dpotrf(A.T, lower=lower, overwrite_a=1, clean=0)
        if info == 0:
            return lapack.dpotrs(factor, rhs, lower=lower)[0]
        if rebuild is not None:
            whole = rebuild()
        else:
            whole = np.tril(A, -1)
            whole += whole.T
            whole[np.diag_indices_from(whole)] = diagonal
        return sl.lstsq(whole, rhs, check_finite=False)[0]


def top_eigenvalue(G: np.ndarray) -> float:
    """The largest eigenvalue of a symmetric positive semi-definite ``G``.

    LAPACK's ``syevr`` for the last eigenvalue only up to 500 rows; above,
    ARPACK's Lanczos (``eigsh``) from the all-ones start vector (deterministic)
    to machine precision (``tol=0``).
    """
    import scipy.linalg as sl

    d = G.shape[0]
    if d <= 500:
        return float(sl.eigvalsh(G, subset_by_index=[d - 1, d - 1])[0])
    from scipy.sparse.linalg import eigsh

    value = eigsh(G, k=1, which="LA", v0=np.ones(d), tol=0)[0]
    return float(value[0])


def stopped(before: float, after: float, tol: float) -> bool:
    """The shared rule: the relative change of the objective is below ``tol``.

    ``|after - before| < tol * |before|``; with ``tol = 0`` never.
    """
    return tol > 0 and abs(after - before) < tol * abs(before)


def run_iterates(
    iterates: Iterator[tuple[np.ndarray, float]],
    *,
    tol: float,
    max_iter: int,
    observe: Observer | None = None,
    stop_at_zero: bool = True,
) -> SparseFit:
    """Follow a method's iterates under the shared stopping rule.

    Parameters
    ----------
    iterates : iterator of (W, objective)
        The start point, then one pair after each iteration; it is advanced
        only while the fit goes on (at most ``max_iter`` iterations).
    tol : float
        Stop after iteration t when :func:`stopped` holds for the objectives
        before and after it.
    max_iter : int
        Largest number of iterations.
    observe : callable, optional
        ``observe(t, W)`` with the start (t = 0) and after each iteration.
    stop_at_zero : bool
        Stop also when the objective before an iteration is exactly 0.

    Returns
    -------
    SparseFit
        The last ``W`` and the objective path (start, then each iteration).
    """
    path = []
    for t, (W, value) in enumerate(iterates):
        path.append(value)
        if observe is not None:
            observe(t, W)
        if t == max_iter:
            break
        if t > 0 and (
            (stop_at_zero and path[-2] == 0) or stopped(path[-2], path[-1], tol)
        ):
            break
    return SparseFit(W=W, objective_path=np.asarray(path))
