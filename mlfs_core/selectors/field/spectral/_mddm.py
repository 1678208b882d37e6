"""MDDM's projections as feature scores (Zhang & Zhou 2010).

Both scores are row norms of one M x q matrix, computed without the M x M
matrix of the eigenproblem and without centring a sparse ``X``.

- MDDM-proj: the eigenvectors P of S = X̃ᵀỸỸᵀX̃ (PᵀP = I) are the left
  singular vectors of B = X̃ᵀỸ, with λ_j = σ_j². Hence
  Σ_j λ_j P_ij² = ‖(UΣ)_i‖² = ‖B_i‖², the squared norm of row i of B, and
  B = XᵀỸ because Ỹ is centred (1ᵀỸ = 0).
- MDDM-spc: the generalized eigenvectors of S p = λ C_ε p, C_ε = X̃ᵀX̃ + εI,
  normalised by PᵀC_εP = I, are P = C_ε^{-1/2} U with U the left singular
  vectors of G = C_ε^{-1/2} B and λ_j = σ_j². Hence
  Σ_j λ_j P_ij² = ‖(C_ε^{-1/2} U Σ)_i‖² = ‖(C_ε^{-1} B)_i‖². When M > n the
  n-dimensional form C_ε^{-1} X̃ᵀ = X̃ᵀ(X̃X̃ᵀ + εI)^{-1} gives
  C_ε^{-1} B = Xᵀ Z with Z = (K̃ + εI)^{-1} Ỹ, K̃ = HXXᵀH the centred
  n x n kernel (Z is centred, so X̃ᵀZ = XᵀZ). When M <= n,
  X̃ᵀX̃ = XᵀX − n x̄x̄ᵀ.

Eigenvectors with λ_j = 0 add nothing, so the sums over λ_j > 0 are these
row norms exactly, and two identical features get bit-identical scores.

The ridge ε is absolute, added to X̃ᵀX̃ as it stands (sums over the n
rows of the scaled features, not divided by n). When it is small against
X̃ᵀX̃'s spectrum, C_ε^{-1}X̃ᵀỸ is close to X̃⁺Ỹ, the minimum-norm least-squares
fit of the centred labels (its limit as ε → 0), and where X̃ has more
columns than rank that fit puts its largest weights on features that occur
in one or two rows, which fit those rows' labels alone. That is the
method, not a rounding of either form (they agree to 1e-8 relative on
medical): on medical (978 x 1449, X̃ᵀX̃ of rank 829, its largest eigenvalue
885 and mean diagonal 8.1, against ε = 1e-3) half of MDDM-spc's top 50
features occur in at most 2 of the 978 documents (MDDM-proj's: 105), which
is why it ranks below Random there in the field comparison; with ε = 10 or
100 that median count is 16 or 72.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ....errors import ConfigError
from ..._spec import Ranking
from .._scaling import scale
from ._common import check_memory, ranking_from_scores

_BYTES = 8
_GRAM_CELLS = 4_000_000
"""Values of the d x d product formed at once (a block of rows)."""


def _centred_labels(Y) -> np.ndarray:
    Yf = np.asarray(Y, dtype=np.float64)
    return Yf - Yf.mean(axis=0)


def _dense(A) -> np.ndarray:
    return A.toarray() if sp.issparse(A) else np.asarray(A, dtype=np.float64)


def _proj_scores(X, Y) -> np.ndarray:
    """MDDM-proj's score of each feature: ``‖(XᵀỸ)_i‖²`` (see the module docstring)."""
    B = _dense(X.T @ _centred_labels(Y))
    return np.einsum("ij,ij->i", B, B)


def _gram(A) -> np.ndarray:
    """``A Aᵀ`` as a dense array, filled a block of rows at a time (a sparse
    ``A`` never makes the whole product sparse first)."""
    if not sp.issparse(A):
        A = np.asarray(A, dtype=np.float64)
        return A @ A.T
    A = sp.csr_matrix(A)
    d = A.shape[0]
    out = np.empty((d, d))
    step = max(1, _GRAM_CELLS // max(d, 1))
    for start in range(0, d, step):  # blocks of rows
        stop = min(start + step, d)
        out[start:stop] = (A[start:stop] @ A.T).toarray()
    return out


def _solve_symmetric(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``A⁻¹B`` for a symmetric positive definite ``A``, factorised in place
    (``A.T`` is ``A`` in Fortran order, so LAPACK takes it without a copy)."""
    import scipy.linalg

    try:
        factor = scipy.linalg.cho_factor(A.T, lower=True, overwrite_a=True)
    except np.linalg.LinAlgError:
        raise ConfigError(
            "method 'MDDM-spc': the covariance plus epsilon is not numerically "
            "positive definite; use a larger epsilon"
        ) from None
    return scipy.linalg.cho_solve(factor, B)


def _spc_memory(n_samples: int, n_features: int, n_labels: int) -> int:
    """Bytes of MDDM-spc's largest matrices: the dense d x d product
    (d = min(n, M)) and one copy of it, plus three M x q blocks:
    8(2d² + 3Mq)."""
    d = min(n_samples, n_features)
    return _BYTES * (2 * d * d + 3 * n_features * n_labels)


def spc_scores(X, Y, epsilon: float) -> np.ndarray:
    """MDDM-spc's score of each feature: ``‖(C_ε^{-1} X̃ᵀỸ)_i‖²``.

    Solved in the n-dimensional form when ``n_features > n_samples``, in
    the M-dimensional form otherwise; ``X`` sparse stays sparse.
    """
    n, m = X.shape
    Yc = _centred_labels(Y)
    if m > n:
        K = _gram(X)
        mean = K.mean(axis=0)
        K -= mean[:, None]  # in place: one n x n array at a time
        K -= mean[None, :]
        K += mean.mean()
        K[np.diag_indices_from(K)] += epsilon
        Z = _solve_symmetric(K, Yc)
        T = _dense(X.T @ Z)
    else:
        xbar = np.asarray(X.mean(axis=0), dtype=np.float64).ravel()
        C = _gram(X.T)
        C -= n * np.outer(xbar, xbar)
        C[np.diag_indices_from(C)] += epsilon
        B = _dense(X.T @ Yc)
        T = _solve_symmetric(C, B)
    return np.einsum("ij,ij->i", T, T)


def rank_mddm_proj(X, Y, *, k, rng, scaling="minmax") -> Ranking:
    """MDDM-proj: rank by Σ_j λ_j P_ij² of the projection PᵀP = I."""
    scores = _proj_scores(scale(X, scaling), Y)
    return ranking_from_scores(scores, np.ones(scores.size, bool), k)


def rank_mddm_spc(X, Y, *, k, rng, epsilon=1e-3, scaling="minmax") -> Ranking:
    """MDDM-spc: rank by Σ_j λ_j P_ij² of the projection PᵀC_εP = I."""
    n, m = X.shape
    need = _spc_memory(n, m, Y.shape[1])
    check_memory("MDDM-spc", need, f"the {min(n, m)} x {min(n, m)} system")
    scores = spc_scores(scale(X, scaling), Y, epsilon)
    return ranking_from_scores(scores, np.ones(scores.size, bool), k)
