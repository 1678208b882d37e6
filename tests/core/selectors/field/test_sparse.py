"""The sparse-regression methods RFS, LLSF and MIFS against plain oracles.

Each oracle below is written from the papers' formulas with dense numpy and
explicit loops, independently of the engine's vectorised n-dimensional forms.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core.selectors.field import sparse as fs
from mlfs_core.selectors.field.sparse import _mifs

RANKS = {"RFS": fs._rank_rfs, "LLSF": fs._rank_llsf, "MIFS": fs._rank_mifs}


def _data(n, m, q=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m)) * (rng.random((n, m)) < 0.6)
    Y = (rng.random((n, q)) < 0.4).astype(np.int8)
    Y[0, :] = 1  # every label occurs
    return X, Y


def _minmax(X):
    X = np.asarray(X, float)
    lo, hi = X.min(axis=0), X.max(axis=0)
    out = np.zeros_like(X)
    for j in range(X.shape[1]):
        if hi[j] > lo[j]:
            out[:, j] = (X[:, j] - lo[j]) / (hi[j] - lo[j])
    return out


# ---------------------------------------------------------------- RFS oracle
def _rfs_oracle(X, Y, gamma, iterations=400):
    """Nie et al.'s Algorithm 1 on the full (M + n)-dimensional U, plainly."""
    n, m = X.shape
    A = np.hstack([X, gamma * np.eye(n)])
    Y = Y.astype(float)
    Dinv = np.eye(m + n)
    for _ in range(iterations):
        U = Dinv @ A.T @ np.linalg.solve(A @ Dinv @ A.T, Y)
        Dinv = np.zeros((m + n, m + n))
        for i in range(m + n):
            Dinv[i, i] = 2.0 * np.sqrt(np.sum(U[i] ** 2) + 1e-16)
    W = U[:m]
    return W, _rfs_value(X, Y, W, gamma)


def _rfs_value(X, Y, W, gamma):
    loss = sum(np.linalg.norm(X[i] @ W - Y[i]) for i in range(X.shape[0]))
    return loss + gamma * sum(np.linalg.norm(W[j]) for j in range(W.shape[0]))


@pytest.mark.parametrize(("n", "m"), [(30, 12), (14, 40)], ids=["M<=n", "M>n"])
def test_rfs_converges_to_the_oracles_objective_and_ranking(n, m):
    """Check RFS's converged objective and ranking against Nie et al.'s
    algorithm run plainly on U = [W; E] (and that no nearby W does better)."""
    X, Y = _data(n, m)
    fit = fs.fit_sparse("RFS", X, Y, gamma=0.5, tol=1e-12, max_iter=400)
    W_o, value_o = _rfs_oracle(_minmax(X), Y, 0.5)
    assert fit.objective_path[-1] == pytest.approx(value_o, rel=1e-7)
    scores_o = np.linalg.norm(W_o, axis=1)
    assert np.argsort(-scores_o, kind="stable").tolist() == (
        np.argsort(-fit.scores, kind="stable").tolist()
    )
    rng = np.random.default_rng(1)
    Xs = _minmax(X)
    for _ in range(20):  # a convex problem: the limit is the minimum
        moved = fit.W + 1e-3 * rng.standard_normal(fit.W.shape)
        assert _rfs_value(Xs, Y, moved, 0.5) >= fit.objective_path[-1] - 1e-9


def test_rfs_objective_never_increases_and_both_forms_agree():
    """Check the reweighting is a descent and the n x n form (M > n forced
    both ways) gives the M x M form's W."""
    X, Y = _data(20, 30)
    Xs = fs.prepared(X, "minmax")
    a = fs.rfs_fit(Xs, Y, gamma=1.0, tol=0, max_iter=30, side="samples")
    b = fs.rfs_fit(Xs, Y, gamma=1.0, tol=0, max_iter=30, side="features")
    assert np.all(np.diff(a.objective_path) <= 1e-12 * a.objective_path[0])
    np.testing.assert_allclose(a.W, b.W, rtol=1e-6, atol=1e-8 * np.abs(a.W).max())
    np.testing.assert_allclose(a.objective_path, b.objective_path, rtol=1e-10)
    assert a.objective_path.size == 31  # the start, then 30 iterations


# --------------------------------------------------------------- LLSF oracle
def _cosine_distance(Y):
    Z = Y.astype(float) + 2.2e-16
    q = Z.shape[1]
    R = np.zeros((q, q))
    for j in range(q):
        for k in range(q):
            if j != k:
                cos = (
                    Z[:, j]
                    @ Z[:, k]
                    / (np.linalg.norm(Z[:, j]) * np.linalg.norm(Z[:, k]))
                )
                R[j, k] = 1.0 - cos
    return R


def _soft(Z, s):
    out = np.zeros_like(Z)
    for idx, z in np.ndenumerate(Z):
        out[idx] = np.sign(z) * max(abs(z) - s, 0.0)
    return out


def _llsf_oracle(X, Y, alpha, beta, rho, tol, max_iter, R=None):
    """The authors' procedure, as BASELINES.md states it, step by step."""
    Y = Y.astype(float)
    R = _cosine_distance(Y) if R is None else R
    XtX, XtY = X.T @ X, X.T @ Y

    def f(W):
        return (
            0.5 * np.linalg.norm(X @ W - Y) ** 2
            + 0.5 * alpha * np.trace(R @ W.T @ W)
            + beta * np.abs(W).sum()
        )

    W = np.linalg.solve(XtX + rho * np.eye(X.shape[1]), XtY)
    lip = np.sqrt(2 * (np.linalg.norm(XtX, 2) ** 2 + np.linalg.norm(alpha * R, 2) ** 2))
    W_prev, b_prev, b = W.copy(), 1.0, 1.0
    path = [f(W)]
    for _ in range(max_iter):
        V = W + (b_prev - 1) / b * (W - W_prev)
        W_next = _soft(V - (XtX @ V - XtY + alpha * V @ R) / lip, beta / lip)
        b_prev, b = b, (1 + np.sqrt(1 + 4 * b * b)) / 2
        W_prev, W = W, W_next
        path.append(f(W))
        if tol > 0 and abs(path[-1] - path[-2]) < tol * abs(path[-2]):
            break
    return W, np.array(path)


@pytest.mark.parametrize(("n", "m"), [(30, 12), (14, 40)], ids=["M<=n", "M>n"])
@pytest.mark.parametrize("tol", [0.0, 1e-4])
def test_llsf_replays_the_authors_steps(n, m, tol):
    """Check LLSF's W and objective path equal the authors' steps replayed
    by a plain loop, step for step (to 1e-10)."""
    X, Y = _data(n, m, seed=3)
    options = {"alpha": 0.5, "beta": 0.05, "rho": 0.1, "tol": tol, "max_iter": 40}
    fit = fs.fit_sparse("LLSF", X, Y, **options)
    W_o, path_o = _llsf_oracle(_minmax(X), Y, **options)
    assert fit.objective_path.size == path_o.size
    np.testing.assert_allclose(fit.objective_path, path_o, rtol=1e-10)
    np.testing.assert_allclose(fit.W, W_o, rtol=1e-10, atol=1e-10 * np.abs(W_o).max())
    if tol == 0:
        assert path_o.size == 41  # exactly max_iter steps


def test_llsf_R_is_the_cosine_distance_not_the_similarity():
    """Check R = 1 - cos(Y_j + eps, Y_k + eps): two identical labels are at
    distance 0, complementary ones at 1, and the procedure run with the
    similarity instead (a public port's mistake) gives another W."""
    Y = np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1], [0, 1, 1]])
    R = fs.label_distance(Y)
    np.testing.assert_allclose(R, _cosine_distance(Y), atol=1e-15)
    assert R[0, 1] == pytest.approx(1 - 2 / np.sqrt(2 * 3))
    same = fs.label_distance(np.array([[1, 1], [0, 0], [1, 1]]))
    assert same[0, 1] == pytest.approx(0.0, abs=1e-15) and np.trace(same) == 0.0
    X, Yd = _data(25, 10, seed=5)
    options = {"alpha": 1.0, "beta": 0.01, "rho": 0.1, "tol": 0.0, "max_iter": 30}
    fit = fs.fit_sparse("LLSF", X, Yd, **options)
    similarity = 1.0 - _cosine_distance(Yd)
    W_sim, _ = _llsf_oracle(_minmax(X), Yd, R=similarity, **options)
    W_dist, _ = _llsf_oracle(_minmax(X), Yd, **options)
    assert np.abs(W_sim - W_dist).max() > 1e-3
    np.testing.assert_allclose(fit.W, W_dist, rtol=1e-10, atol=1e-12)


def test_llsf_never_present_label_keeps_finite_distances():
    """Check a label that never occurs (the column eps) gets finite distances."""
    Y = np.array([[1, 0], [0, 0], [1, 0]])
    R = fs.label_distance(Y)
    assert np.all(np.isfinite(R)) and R[0, 1] == pytest.approx(1 - np.sqrt(2 / 3))


@pytest.mark.parametrize(("n", "m"), [(30, 12), (14, 40)], ids=["M<=n", "M>n"])
def test_llsf_start_is_the_same_in_both_forms(n, m):
    """Check W_0 = (X^T X + rho I)^{-1} X^T Y equals X^T (X X^T + rho I)^{-1} Y."""
    X, Y = _data(n, m, seed=4)
    Xs = fs.prepared(X, "minmax")
    a, top_a = fs.ridge_start(Xs, Y, 0.1, side="features")
    b, top_b = fs.ridge_start(Xs, Y, 0.1, side="samples")
    D = _minmax(X)
    direct = np.linalg.solve(D.T @ D + 0.1 * np.eye(m), D.T @ Y)
    np.testing.assert_allclose(a, direct, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(b, direct, rtol=1e-9, atol=1e-12)
    assert top_a == pytest.approx(np.linalg.norm(D.T @ D, 2), rel=1e-12)
    assert top_b == pytest.approx(top_a, rel=1e-12)


# --------------------------------------------------------------- MIFS oracle
def _knn_graph(X, k):
    n = X.shape[0]
    near = []
    for i in range(n):
        others = sorted((np.sum((X[i] - X[j]) ** 2), j) for j in range(n) if j != i)
        near.append(others[:k])
    sigma = np.mean([np.sqrt(d) for row in near for d, _ in row])
    S = np.zeros((n, n))
    for i, row in enumerate(near):
        for d, j in row:
            S[i, j] = max(S[i, j], np.exp(-d / sigma**2))
            S[j, i] = max(S[j, i], np.exp(-d / sigma**2))
    return np.diag(S.sum(axis=1)) - S


def _armijo(f, x, g):
    if np.sum(g * g) == 0:
        return x
    step = 1.0
    for _ in range(61):
        if f(x - step * g) <= f(x) - 1e-4 * step * np.sum(g * g):
            return x - step * g
        step /= 2
    return x


def _mifs_oracle(X, Y, alpha, beta, gamma, c, k, iterations):
    """MIFS's rules (the engine's docstring) written plainly: dense systems."""
    Y = Y.astype(float)
    L = _knn_graph(X, k)
    P, s, Qt = np.linalg.svd(Y, full_matrices=False)
    V, B = P[:, :c] * s[:c], Qt[:c].copy()
    for j in range(c):
        if B[j, np.argmax(np.abs(B[j]))] < 0:
            V[:, j], B[j] = -V[:, j], -B[j]

    def J(W, V, B):
        return (
            np.linalg.norm(X @ W - V) ** 2
            + alpha * np.linalg.norm(Y - V @ B) ** 2
            + beta * np.trace(V.T @ L @ V)
            + gamma * sum(np.linalg.norm(w) for w in W)
        )

    W = np.linalg.solve(X.T @ X + gamma * np.eye(X.shape[1]), X.T @ V)
    path = [J(W, V, B)]
    for _ in range(iterations):
        D = np.diag([1 / (2 * np.linalg.norm(w)) for w in W])
        W = np.linalg.solve(X.T @ X + gamma * D, X.T @ V)
        gv = 2 * (V - X @ W) + 2 * alpha * (V @ B - Y) @ B.T + 2 * beta * L @ V
        V = _armijo(lambda T: J(W, T, B) - gamma * sum(map(np.linalg.norm, W)), V, gv)
        gb = 2 * alpha * V.T @ (V @ B - Y)
        B = _armijo(lambda T: J(W, V, T) - gamma * sum(map(np.linalg.norm, W)), B, gb)
        path.append(J(W, V, B))
    return W, np.array(path)


def test_mifs_replays_its_stated_rules():
    """Check MIFS (graph, SVD start, W closed form, Armijo steps on V and B)
    against the same rules written plainly with dense systems."""
    X, Y = _data(30, 8, q=5, seed=6)
    options = {"alpha": 1.0, "beta": 0.5, "gamma": 0.3, "n_latent": 3, "n_neighbors": 4}
    fit = fs.fit_sparse("MIFS", X, Y, tol=0.0, max_iter=15, **options)
    W_o, path_o = _mifs_oracle(_minmax(X), Y, 1.0, 0.5, 0.3, 3, 4, 15)
    np.testing.assert_allclose(fit.objective_path, path_o, rtol=1e-8)
    np.testing.assert_allclose(fit.W, W_o, rtol=1e-7, atol=1e-10)


def test_mifs_is_a_descent_and_moves_far_from_its_start():
    """Check MIFS's objective never increases (each block update is a descent:
    the W closed form by the l2,1 majorisation, V and B by Armijo steps) and,
    unlike a port stepping 1e-10 at a time, W and the objective move far."""
    X, Y = _data(40, 25, q=6, seed=7)
    seen = {}
    fit = fs.fit_sparse("MIFS", X, Y, tol=0.0, max_iter=60, observe=seen.__setitem__)
    path = fit.objective_path
    assert np.all(np.diff(path) <= 1e-10 * path[0])
    assert path[-1] < 0.5 * path[0]
    W0 = seen[0]
    assert np.linalg.norm(fit.W - W0) > 0.5 * np.linalg.norm(W0)
    assert sorted(seen) == list(range(61))


def test_mifs_start_is_the_signed_svd_of_Y():
    """Check V_0 B_0 is Y's best rank-c approximation and the sign rule holds."""
    _, Y = _data(20, 5, q=6, seed=8)
    V, B = fs.latent_start(Y, 3)
    P, s, Qt = np.linalg.svd(Y.astype(float))
    np.testing.assert_allclose(V @ B, (P[:, :3] * s[:3]) @ Qt[:3], atol=1e-12)
    assert all(B[j, np.argmax(np.abs(B[j]))] > 0 for j in range(3))
    assert fs.latent_start(Y, 50)[0].shape == (20, 6)  # c is at most q


def test_mifs_neighbours_exclude_self_count_duplicates_and_break_ties_low():
    """Check the kNN rule: itself excluded, a duplicate at distance 0 first,
    equal distances to the lowest index."""
    X = sp.csr_matrix(np.array([[0.0], [1.0], [1.0], [2.0], [5.0]]))
    index, d2 = _mifs._neighbours(X, 2)
    assert index.tolist() == [[1, 2], [2, 0], [1, 0], [1, 2], [3, 1]]
    assert d2[1].tolist() == [0.0, 1.0]
    L = fs.knn_laplacian(X, 2).toarray()
    np.testing.assert_allclose(L.sum(axis=1), 0, atol=1e-12)
    np.testing.assert_allclose(L, L.T)
    np.testing.assert_allclose(L, _knn_graph(X.toarray(), 2), atol=1e-12)


# ------------------------------------------------------------- every method
@pytest.mark.parametrize("method", sorted(RANKS))
def test_sparse_and_dense_input_give_the_same_ranking(method):
    """Check dense, CSR and CSC inputs of the same values rank identically."""
    X, Y = _data(25, 30, seed=9)
    dense = RANKS[method](X, Y, k=30, rng=None)
    for other in (sp.csr_matrix(X), sp.csc_matrix(X)):
        r = RANKS[method](other, Y, k=30, rng=None)
        assert r.order.tolist() == dense.order.tolist()
        np.testing.assert_array_equal(r.scores, dense.scores)


@pytest.mark.parametrize("method", sorted(RANKS))
def test_same_bits_twice(method):
    """Check two runs give the same scores and objective path, bit for bit."""
    X, Y = _data(25, 12, seed=10)
    a, b = (RANKS[method](sp.csr_matrix(X), Y, k=5, rng=None) for _ in range(2))
    assert a.scores.tobytes() == b.scores.tobytes()
    assert a.objective_path.tobytes() == b.objective_path.tobytes()
    assert a.order.tolist() == np.argsort(-a.scores, kind="stable")[:5].tolist()


def _degenerate():
    X, Y = _data(12, 6, seed=11)
    X[:, 2] = 3.0  # a constant feature
    Y[:, 1] = 0  # a label never present
    X[5], Y[5] = X[4], Y[4]  # duplicate rows
    return {
        "constant-and-absent-and-duplicates": (X, Y),
        "two-samples": (X[:2], Y[:2]),
        "no-label-at-all": (X, np.zeros_like(Y)),
        "all-zero-X": (np.zeros_like(X), Y),
    }


@pytest.mark.parametrize("case", sorted(_degenerate()))
@pytest.mark.parametrize("method", sorted(RANKS))
def test_scores_stay_finite_on_degenerate_data(method, case):
    """Check finite scores (and a full ranking) on a constant feature, a label
    never present, duplicate rows, two samples, no label, an all-zero X."""
    X, Y = _degenerate()[case]
    r = RANKS[method](sp.csr_matrix(X), Y, k=X.shape[1], rng=None)
    assert np.all(np.isfinite(r.scores)) and np.all(np.isfinite(r.objective_path))
    assert sorted(r.order.tolist()) == list(range(X.shape[1]))
    if case == "constant-and-absent-and-duplicates" and method != "LLSF":
        assert r.scores[2] < 1e-6 * r.scores.max()  # scaled to 0: no weight


# ---------------------------------------------------------- through the API
REGISTERED = ["RFS", "LLSF", "MIFS"]


@pytest.mark.parametrize("method", REGISTERED)
def test_registered_with_family_options_and_citation(method):
    """Check the spec: family, score kind, citation, options named as in
    BASELINES.md with ranges, and rank_features/compute_ranking agree."""
    from mlfs_core import compute_ranking, get_method, rank_features

    spec = get_method(method)
    assert spec.family == "sparse-regression" and spec.score_kind == "score"
    assert spec.citation.startswith(
        {"RFS": "Nie", "LLSF": "Huang", "MIFS": "Jian"}[method]
    )
    names = [o.name for o in spec.options]
    assert names[-3:] == ["tol", "max_iter", "scaling"]
    assert all(o.help for o in spec.options)
    X, Y = _data(30, 15, seed=12)
    order = rank_features(sp.csr_matrix(X), Y, method, k=6)
    ranking = compute_ranking(X, Y, method, k=6)
    assert order.tolist() == ranking.order.tolist()
    assert order.tolist() == RANKS[method](X, Y, k=6, rng=None).order.tolist()
    assert ranking.objective_path is not None and ranking.objective_path.size >= 2


def test_bad_options_are_one_clear_config_error():
    """Check an out-of-range option is refused naming it."""
    from mlfs_core import ConfigError, rank_features

    X, Y = _data(10, 5)
    with pytest.raises(ConfigError, match="rho"):
        rank_features(X, Y, "LLSF", rho=0.0)
    with pytest.raises(ConfigError, match="scaling"):
        rank_features(X, Y, "MIFS", scaling="log")


@pytest.mark.parametrize("method", REGISTERED)
def test_runs_in_the_scikit_learn_selector(method):
    """Check MultiLabelSelector keeps the method's top k columns."""
    from mlfs_core import MultiLabelSelector, rank_features

    X, Y = _data(30, 15, seed=13)
    selector = MultiLabelSelector(method=method, k=4).fit(X, Y)
    top = rank_features(X, Y, method, k=4)
    assert sorted(np.flatnonzero(selector.get_support())) == sorted(top)
    assert selector.transform(X).shape == (30, 4)


@pytest.mark.parametrize("method", REGISTERED)
def test_runs_from_the_command_line(method, tmp_path):
    """Check `python -m mlfs_core rank --method ...` prints the ranking."""
    import subprocess
    import sys

    import pandas as pd

    from mlfs_core.data import Dataset, load_dataset
    from mlfs_core.data.synthetic import write_mulan

    X, Y = _data(20, 6, q=3, seed=14)
    names = [f"f{j}" for j in range(6)]
    path = write_mulan(Dataset(X, Y, names, ["a", "b", "c"]), tmp_path, "toy")
    proc = subprocess.run(
        [sys.executable, "-m", "mlfs_core", "rank", str(path), "--method", method],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    out = pd.read_csv(pd.io.common.StringIO(proc.stdout))
    written = load_dataset(path)  # the values as the file holds them
    expected = RANKS[method](written.X, written.Y, k=6, rng=None)
    assert out["feature_index"].tolist() == expected.order.tolist()
    np.testing.assert_allclose(out["score"], expected.scores[expected.order], rtol=1e-9)


def test_the_command_line_passes_typed_options(tmp_path, capsys):
    """Check `mlfs rank --param gamma=0.25 --param max_iter=3` reaches RFS
    typed, and a wrong name or value is one clear error (status 2)."""
    from mlfs_core.cli import main
    from mlfs_core.data import Dataset, load_dataset
    from mlfs_core.data.synthetic import write_mulan

    X, Y = _data(20, 6, q=3, seed=15)
    names = [f"f{j}" for j in range(6)]
    path = write_mulan(Dataset(X, Y, names, ["a", "b", "c"]), tmp_path, "toy")
    argv = ["rank", str(path), "--method", "RFS", "--param", "gamma=0.25"]
    assert main([*argv, "--param", "max_iter=3"]) == 0
    out = capsys.readouterr().out.splitlines()[1:]
    written = load_dataset(path)
    expected = RANKS["RFS"](written.X, written.Y, k=6, rng=None, gamma=0.25, max_iter=3)
    assert [int(line.split(",")[1]) for line in out] == expected.order.tolist()
    assert main([*argv, "--param", "max_iter=three"]) == 2
    assert (
        "method 'RFS': max_iter must be an int in [1, 100000], got 'three'"
        in capsys.readouterr().err
    )
    assert main([*argv, "--param", "rho=1"]) == 2
    assert "gamma, tol, max_iter, scaling" in capsys.readouterr().err
