"""The matrix-free CG solve of the n x n systems and the ``solver`` rule.

:func:`_cg.pcg` is checked against numpy's dense solve of the explicitly
formed ``X diag(g) X^T + diag(s)``, and MIFS's CG path against its Cholesky
path: the same objective path (rtol 1e-8) and the same ranking.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from mlfs_core.selectors.field import sparse as fs
from mlfs_core.selectors.field.sparse import _cg


def _sparse(n, m, seed=0, density=0.3):
    rng = np.random.default_rng(seed)
    return sp.csr_matrix(rng.random((n, m)) * (rng.random((n, m)) < density))


def _dense_system(X, g, s):
    D = X.toarray()
    K = np.zeros((X.shape[0], X.shape[0]))
    for f in range(X.shape[1]):
        K += g[f] * np.outer(D[:, f], D[:, f])
    return K + np.diag(s)


def _residuals(K, Z, B):
    return np.linalg.norm(B - K @ Z, axis=0) / np.linalg.norm(B, axis=0)


def test_pcg_meets_its_residual_rule_against_a_dense_solve():
    """Check the solution meets ||B - K Z|| <= RTOL ||B|| per column, matches
    numpy's solve, and a warm start at the solution takes 0 steps."""
    X = _sparse(40, 90, seed=1)
    rng = np.random.default_rng(2)
    g, s = rng.random(90) + 0.01, rng.random(40) * 1e-3 + 1e-4
    B = rng.standard_normal((40, 3))
    K = _dense_system(X, g, s)
    matvec, diagonal = _cg.system(X, X.tocsc(), g, s)
    np.testing.assert_allclose(diagonal, np.diag(K), rtol=1e-13)
    np.testing.assert_allclose(matvec(B), K @ B, rtol=1e-12)
    Z, steps = _cg.pcg(matvec, B, diagonal)
    assert steps > 0
    assert np.all(_residuals(K, Z, B) <= _cg.RTOL)
    np.testing.assert_allclose(Z, np.linalg.solve(K, B), rtol=1e-6, atol=1e-8)
    again, zero_steps = _cg.pcg(matvec, B, diagonal, Z)
    assert zero_steps == 0 and again.tobytes() == Z.tobytes()


def test_pcg_zero_column_and_giving_up():
    """Check a zero right-hand side gives exactly 0 (even from a non-zero
    start) and that past its step limit pcg gives up (None)."""
    X = _sparse(30, 60, seed=3)
    g, s = np.ones(60), np.ones(30)
    matvec, diagonal = _cg.system(X, X.tocsc(), g, s)
    B = np.zeros((30, 2))
    B[:, 1] = 1.0
    Z, _ = _cg.pcg(matvec, B, diagonal, np.ones((30, 2)))
    assert np.all(Z[:, 0] == 0.0)
    hard = _sparse(200, 400, seed=4, density=0.5)
    g = np.geomspace(1e-12, 1.0, 400)  # condition ~1e12
    matvec, diagonal = _cg.system(hard, hard.tocsc(), g, np.full(200, 1e-12))
    rhs = np.random.default_rng(5).standard_normal((200, 1))
    limited = _cg.MAX_STEPS_FACTOR
    try:
        _cg.MAX_STEPS_FACTOR = 0  # at most 50 steps
        assert _cg.pcg(matvec, rhs, diagonal) is None
        warm = _cg.WarmSolver(hard, hard.tocsc(), use_cg=True)
        exact = np.linalg.solve(_dense_system(hard, g, np.full(200, 1e-12)), rhs)
        got = warm.solve(g, np.full(200, 1e-12), rhs, lambda: exact)
        assert warm.steps == [-1] and got is exact  # fell back to the exact solve
    finally:
        _cg.MAX_STEPS_FACTOR = limited


def test_solver_rule():
    """Check the stated rule: cholesky never CG, cg in the n x n form only,
    auto by the flop count (rcv1subset1's size: CG; a few hundred rows: not)."""
    small = _sparse(300, 900, seed=6, density=0.05)
    assert not _cg.uses_cg("cholesky", small, 10, "samples")
    assert _cg.uses_cg("cg", small, 10, "samples")
    assert not _cg.uses_cg("cg", small, 10, "features")
    assert not _cg.uses_cg("auto", small, 10, "samples")
    k = np.arange(463_400)  # rcv1subset1's shape and number of non-zeros
    text = sp.csr_matrix((np.ones(k.size), (k % 6000, k % 47236)), (6000, 47236))
    assert _cg.uses_cg("auto", text, 10, "samples")
    assert not _cg.uses_cg("auto", text, 10, "features")
    n, nnz = 6000, text.nnz  # the boundary as the docstring states it
    assert n**3 / 3 > _cg.AUTO_STEPS * (4 * nnz + 8 * n) * 10


def _mifs(X, Y, solver, **options):
    return fs.fit_sparse("MIFS", X, Y, solver=solver, **options)


@pytest.mark.parametrize("seed", [0, 1])
def test_mifs_cg_reaches_the_cholesky_objective_and_ranking(seed):
    """Check MIFS by CG and by Cholesky (M > n): objective paths within 1e-8,
    the same converged objective, the same full ranking, CG really used."""
    X = _sparse(60, 240, seed=seed, density=0.1)
    Y = (np.random.default_rng(seed + 10).random((60, 6)) < 0.3).astype(float)
    Y[0] = 1
    a = _mifs(X, Y, "cholesky", tol=0, max_iter=60)
    b = _mifs(X, Y, "cg", tol=0, max_iter=60)
    np.testing.assert_allclose(b.objective_path, a.objective_path, rtol=1e-8)
    assert a.objective_path.tobytes() != b.objective_path.tobytes()  # CG ran
    np.testing.assert_allclose(b.W, a.W, rtol=1e-6, atol=1e-9 * np.abs(a.W).max())
    order = np.argsort(-a.scores, kind="stable")
    assert np.argsort(-b.scores, kind="stable")[:20].tolist() == order[:20].tolist()
    c, d = _mifs(X, Y, "cholesky"), _mifs(X, Y, "cg")  # default stopping rule
    assert c.objective_path.size == d.objective_path.size
    np.testing.assert_allclose(d.objective_path[-1], c.objective_path[-1], rtol=1e-8)
    auto = _mifs(X, Y, "auto", tol=0, max_iter=60)  # small: auto is Cholesky
    assert auto.objective_path.tobytes() == a.objective_path.tobytes()


def test_mifs_cg_is_a_descent_with_the_same_bits_on_any_thread_count():
    """Check MIFS by CG never increases its objective and gives the same bits
    twice and on one and two BLAS threads."""
    X = _sparse(240, 400, seed=6, density=0.05)
    Y = (np.random.default_rng(7).random((240, 5)) < 0.3).astype(float)
    fits = []
    for threads in (1, 2, 2):
        with threadpool_limits(limits=threads, user_api="blas"):
            fits.append(_mifs(X, Y, "cg", max_iter=15, tol=0))
    path = fits[0].objective_path
    assert np.all(np.diff(path) <= 1e-10 * path[0])
    for other in fits[1:]:
        assert other.W.tobytes() == fits[0].W.tobytes()
        assert other.objective_path.tobytes() == path.tobytes()
