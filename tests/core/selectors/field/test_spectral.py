"""Issue 52, the spectral family: MDDM-proj, MDDM-spc and MCLS.

Each method is checked against a plainly written oracle of its formula on
small dense data: an eigendecomposition of the M x M matrix for MDDM-proj,
the generalized eigenproblem (scipy.linalg.eigh) for MDDM-spc in both the
M > n and M <= n forms, and a loop-based MCLS that follows the steps of the
authors' MCLS.m (dense n x n matrices, the label manifold's quadratic
programme solved per label by bounded-variable least squares).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import scipy.linalg
import scipy.sparse as sp
from scipy.optimize import lsq_linear

from mlfs_core import MultiLabelSelector, compute_ranking, rank_features
from mlfs_core.data import Dataset
from mlfs_core.data.synthetic import write_mulan
from mlfs_core.errors import ConfigError
from mlfs_core.selectors import METHODS
from mlfs_core.selectors.field.spectral import _common, _graphs
from mlfs_core.selectors.field.spectral._mcls import mcls_scores
from mlfs_core.selectors.field.spectral._mddm import spc_scores

SPECTRAL = ["MDDM-proj", "MDDM-spc", "MCLS"]


# ---------------------------------------------------------------- data


def _dyadic(n, m, q, seed, *, density=1.0):
    """Features in {0, .., 4} with 0 and 4 in every column (min-max scaling
    divides by 4: every distance is exact), labels 0/1 with each label
    present at least once."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, size=(n, m)).astype(float)
    X[rng.random((n, m)) > density] = 0.0
    X[0], X[1] = 0.0, 4.0
    Y = (rng.random((n, q)) < 0.35).astype(np.int8)
    Y[2] = 1
    return X, Y


def _minmax(X):
    """Plain min-max scaling, column by column (constant column -> 0)."""
    X = np.array(X, dtype=float)
    out = np.zeros_like(X)
    for j in range(X.shape[1]):
        lo, hi = X[:, j].min(), X[:, j].max()
        if hi > lo:
            out[:, j] = (X[:, j] - lo) / (hi - lo)
    return out


def _assert_ranks_as(order, oracle, rtol=1e-7):
    """``order`` sorts the oracle's scores descending; equal scores (within
    rounding) go by the lowest index."""
    oracle = np.asarray(oracle, dtype=float)
    tol = rtol * max(1.0, np.abs(oracle).max())
    assert sorted(order.tolist()) == list(range(oracle.size))
    for a, b in zip(order[:-1], order[1:], strict=True):
        assert oracle[a] >= oracle[b] - tol, (a, b, oracle[a], oracle[b])
        if abs(oracle[a] - oracle[b]) <= tol:
            assert a < b, (a, b)


# ---------------------------------------------------------------- MDDM oracles


def _centred(A):
    return A - A.mean(axis=0)


def _mddm_proj_oracle(X, Y):
    Xc, Yc = _centred(_minmax(X)), _centred(np.asarray(Y, float))
    S = Xc.T @ Yc @ Yc.T @ Xc  # the M x M matrix
    lam, P = np.linalg.eigh(S)
    keep = lam > 1e-10 * max(lam.max(), 1e-300)
    return (P[:, keep] ** 2 * lam[keep]).sum(axis=1)


def _mddm_spc_oracle(X, Y, epsilon):
    Xc, Yc = _centred(_minmax(X)), _centred(np.asarray(Y, float))
    S = Xc.T @ Yc @ Yc.T @ Xc
    C = Xc.T @ Xc + epsilon * np.eye(X.shape[1])
    lam, P = scipy.linalg.eigh(S, C)  # P^T C P = I
    keep = lam > 1e-10 * max(lam.max(), 1e-300)
    return (P[:, keep] ** 2 * lam[keep]).sum(axis=1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mddm_proj_matches_the_eigendecomposition(seed):
    """Check MDDM-proj's scores and ranking against the eigenvectors of the
    M x M matrix X̃ᵀỸỸᵀX̃, weighted by their eigenvalues."""
    X, Y = _dyadic(30, 12, 4, seed)
    ranking = compute_ranking(X, Y, "MDDM-proj")
    oracle = _mddm_proj_oracle(X, Y)
    np.testing.assert_allclose(ranking.scores, oracle, rtol=1e-8, atol=1e-10)
    _assert_ranks_as(ranking.order, oracle)


@pytest.mark.parametrize(("n", "m"), [(12, 30), (40, 9)], ids=["M>n", "M<=n"])
@pytest.mark.parametrize("epsilon", [1e-3, 0.5])
def test_mddm_spc_matches_the_generalized_eigenproblem(n, m, epsilon):
    """Check MDDM-spc against scipy.linalg.eigh(S, X̃ᵀX̃ + εI) in both the
    n-dimensional (M > n) and the M-dimensional form."""
    X, Y = _dyadic(n, m, 3, seed=n + m)
    ranking = compute_ranking(X, Y, "MDDM-spc", epsilon=epsilon)
    oracle = _mddm_spc_oracle(X, Y, epsilon)
    np.testing.assert_allclose(ranking.scores, oracle, rtol=1e-6)
    _assert_ranks_as(ranking.order, oracle, rtol=1e-6)


@pytest.mark.parametrize(("n", "m"), [(12, 30), (40, 9)], ids=["M>n", "M<=n"])
def test_mddm_spc_with_a_small_ridge_is_the_minimum_norm_fit(n, m):
    """Check the documented limit (module docstring of _mddm): as epsilon
    goes to 0 the scores are the squared row norms of pinv(X̃)Ỹ, the
    minimum-norm least-squares fit, in both forms; with a large epsilon
    they are not."""
    X, Y = _dyadic(n, m, 3, seed=5, density=0.5)
    Xs = _minmax(X)
    T = np.linalg.pinv(_centred(Xs)) @ _centred(Y.astype(float))
    fit = (T**2).sum(axis=1)
    np.testing.assert_allclose(spc_scores(sp.csr_matrix(Xs), Y, 1e-7), fit, rtol=1e-5)
    assert not np.allclose(spc_scores(sp.csr_matrix(Xs), Y, 10.0), fit, rtol=1e-2)


def test_mddm_spc_forms_agree_sparse_and_dense():
    """Check that the M > n form and sparse X give the scores of the dense
    computation (X never centred when sparse)."""
    X, Y = _dyadic(15, 40, 3, seed=7, density=0.3)
    Xs = _minmax(X)
    dense = spc_scores(Xs, Y, 1e-3)
    sparse = spc_scores(sp.csr_matrix(Xs), Y, 1e-3)
    np.testing.assert_allclose(sparse, dense, rtol=1e-9)
    np.testing.assert_allclose(dense, _mddm_spc_oracle(X, Y, 1e-3), rtol=1e-6)


# ---------------------------------------------------------------- MCLS oracle


def _sq_dist(a, b):
    return float(sum((a[t] - b[t]) ** 2 for t in range(a.size)))


def _neighbours(A, k):
    """Each row's k nearest rows: self excluded, ties to the lowest index, a
    distance below 1e-12 (‖a‖² + ‖b‖²) counted as 0."""
    n = A.shape[0]
    index, dist = [], []
    for i in range(n):
        cands = []
        for j in range(n):
            if j == i:
                continue
            d = _sq_dist(A[i], A[j])
            if d <= 1e-12 * (A[i] @ A[i] + A[j] @ A[j]):
                d = 0.0
            cands.append((d, j))
        cands.sort()
        index.append([j for _, j in cands[:k]])
        dist.append([d for d, _ in cands[:k]])
    return np.array(index), np.array(dist)


def _pkn(A, k):
    n = A.shape[0]
    index, dist = _neighbours(A, k + 1)
    W = np.zeros((n, n))
    for i in range(n):
        di = dist[i]
        denom = k * di[k] - di[:k].sum() + np.finfo(float).eps
        for j in range(k + 1):
            W[i, index[i, j]] = (di[k] - di[j]) / denom
    return (W + W.T) / 2


def _normalize(A):
    out = np.array(A, dtype=float)
    for i in range(out.shape[0]):
        out[i] /= np.sqrt(max(1e-14, out[i] @ out[i]))
    return out


def _reconstruction(A, k):
    n, d = A.shape
    index, _ = _neighbours(A, k)
    R = np.zeros((n, n))
    for i in range(n):
        z = A[index[i]] - A[i]
        Z = z @ z.T
        if k > d or np.linalg.matrix_rank(Z) < k:
            Z = Z + np.eye(k) * 1e-3 * np.trace(Z)
        if np.trace(Z) == 0:
            w = np.ones(k)
        else:
            w = np.linalg.solve(Z, np.ones(k))
        R[i, index[i]] = w / w.sum()
    return R


def _manifold(R, Ypm):
    n, q = Ypm.shape
    I_R = np.eye(n) - R
    M = I_R.T @ I_R
    r = 1e-8 * np.trace(M) / n
    A = np.vstack([I_R, np.sqrt(r) * np.eye(n)])  # AᵀA = M + rI
    MU = np.zeros((n, q))
    for label in range(q):
        lo = np.where(Ypm[:, label] > 0, 1.0, -np.inf)
        hi = np.where(Ypm[:, label] > 0, np.inf, -1.0)
        fit = lsq_linear(A, np.zeros(2 * n), bounds=(lo, hi), method="bvls", tol=1e-15)
        MU[:, label] = fit.x
    return MU


def _laplacian_score_cai(X, W):
    D = W.sum(axis=1)
    out = np.zeros(X.shape[1])
    for j in range(X.shape[1]):
        f = X[:, j]
        t = D @ f
        d_prime = f @ (D * f) - t * t / D.sum()
        l_prime = f @ W @ f - t * t / D.sum()
        out[j] = l_prime / (10000.0 if d_prime < 1e-12 else d_prime)
    return out


def _mcls_oracle(X, Y, k):
    """MCLS.m's steps with dense n x n matrices; NaN where undefined."""
    Xs = _minmax(X)
    n = Xs.shape[0]
    Ypm = 2.0 * np.asarray(Y, float) - 1.0
    W = _pkn(Xs, k)
    MU = _manifold(_reconstruction(Xs, k), Ypm)
    W_new = W * _pkn(_normalize(MU), k)
    lap = _laplacian_score_cai(_normalize(Xs), W_new)
    index, _ = _neighbours(Xs, k)
    ones = np.zeros((n, n))
    for i in range(n):
        ones[i, index[i]] = 1.0
    ones = np.maximum(ones, ones.T)
    zeros = np.ones((n, n)) - ones
    LM = np.diag(ones.sum(axis=1)) - ones
    LC = np.diag(zeros.sum(axis=1)) - zeros
    score = np.full(Xs.shape[1], np.nan)
    for j in range(Xs.shape[1]):
        f = Xs[:, j]
        denom = f @ LC @ f
        if denom > 1e-12 * n * (f @ f):
            score[j] = lap[j] * (f @ LM @ f) / denom
    return score


@pytest.mark.parametrize(("seed", "k"), [(0, 5), (1, 3), (2, 7)])
def test_mcls_matches_the_authors_steps(seed, k):
    """Check MCLS's scores and ranking against a loop-based replay of
    MCLS.m on data whose distances are exact (many distance ties)."""
    X, Y = _dyadic(36, 8, 3, seed)
    ranking = compute_ranking(X, Y, "MCLS", n_neighbors=k)
    oracle = _mcls_oracle(X, Y, k)
    assert np.all(np.isfinite(oracle))
    np.testing.assert_allclose(ranking.scores, oracle, rtol=1e-6, atol=1e-9)
    _assert_ranks_as(ranking.order, oracle, rtol=1e-6)


def test_mcls_with_more_neighbours_than_features_uses_the_ridge():
    """Check the k > M branch (ridge 1e-3 trace(Z)) against the oracle."""
    X, Y = _dyadic(30, 4, 2, seed=5)
    ranking = compute_ranking(X, Y, "MCLS", n_neighbors=6)
    oracle = _mcls_oracle(X, Y, 6)
    np.testing.assert_allclose(ranking.scores, oracle, rtol=1e-6, atol=1e-9)


def test_mcls_label_manifold_meets_its_constraints_and_optimality():
    """Check the active-set solution: y μ >= 1 everywhere and the bvls
    oracle's minimiser to 1e-9."""
    from mlfs_core.selectors.field.spectral._mcls import label_manifold

    X, Y = _dyadic(40, 6, 4, seed=3)
    Xs = _minmax(X)
    index, _ = _graphs.nearest(Xs, 5)
    R = _graphs.reconstruction_weights(Xs, index)
    Ypm = 2.0 * Y - 1.0
    MU = label_manifold(R, Ypm)
    assert np.all(Ypm * MU >= 1 - 1e-12)
    np.testing.assert_allclose(MU, _manifold(R.toarray(), Ypm), atol=1e-9)


# ---------------------------------------------------------------- neighbour rule


def test_neighbour_rule_self_excluded_ties_lowest_duplicates_count():
    """Check the stated rule: the instance is excluded, a duplicate at
    distance 0 comes first, equal distances go to the lowest index."""
    A = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 0.0], [-1.0, 0.0]])
    index, dist = _graphs.nearest(A, 3)
    assert index[0].tolist() == [3, 1, 2]  # duplicate 3 at 0, then tie 1 < 2 < 4
    assert dist[0].tolist() == [0.0, 1.0, 1.0]
    assert index[3].tolist() == [0, 1, 2]
    assert 0 not in index[0] and all(i not in index[i] for i in range(5))
    sparse_index, _ = _graphs.nearest(sp.csr_matrix(A), 3)
    assert np.array_equal(sparse_index, index)


def test_neighbour_blocks_do_not_change_the_neighbours(monkeypatch):
    """Check that distances computed in row blocks give the same neighbours."""
    X, _ = _dyadic(50, 6, 1, seed=11)
    whole = _graphs.nearest(_minmax(X), 4)
    monkeypatch.setattr(_graphs, "BLOCK_CELLS", 7 * 50)
    blocked = _graphs.nearest(_minmax(X), 4)
    assert np.array_equal(whole[0], blocked[0])
    assert np.array_equal(whole[1], blocked[1])


def test_blocked_neighbours_equal_the_oracle_dense_and_sparse(monkeypatch):
    """Check the neighbour search, in uneven row blocks (3 rows a block for 50
    rows) and whole, on dense and on sparse input, against the loop oracle
    on data full of tied distances and duplicate rows: the same neighbours
    (ties to the lowest index) and the same distances, bit for bit."""
    X, _ = _dyadic(50, 6, 1, seed=19, density=0.5)
    A = _minmax(X)
    A[7] = A[3]  # a duplicate row: distance 0, counted
    oracle_index, oracle_dist = _neighbours(A, 6)
    runs = []
    for cells in (50 * 50, 3 * 50):
        monkeypatch.setattr(_graphs, "BLOCK_CELLS", cells)
        runs += [_graphs.nearest(A, 6), _graphs.nearest(sp.csr_matrix(A), 6)]
    for index, dist in runs:
        assert np.array_equal(index, oracle_index)
        assert np.array_equal(dist, oracle_dist)
    assert index[3, 0] == 7 and dist[3, 0] == 0.0


@pytest.mark.parametrize("sparse", [False, True])
def test_gram_blocks_do_not_change_the_reconstruction_weights(monkeypatch, sparse):
    """Check that the neighbours' Gram matrices formed a few instances at a
    time give the same bits as all at once."""
    X, _ = _dyadic(50, 6, 1, seed=12, density=0.6)
    A = sp.csr_matrix(_minmax(X)) if sparse else _minmax(X)
    index, _ = _graphs.nearest(A, 4)
    monkeypatch.setattr(_graphs, "_GRAM_ROWS", 10_000)  # one block
    whole = _graphs.reconstruction_weights(A, index).toarray()
    monkeypatch.setattr(_graphs, "_GRAM_ROWS", 9)  # two instances a block
    blocked = _graphs.reconstruction_weights(A, index).toarray()
    assert np.array_equal(whole, blocked)


# ---------------------------------------------------------------- shared rules


@pytest.mark.parametrize("method", SPECTRAL)
def test_sparse_and_dense_give_the_same_ranking(method):
    """Check that sparse X (kept sparse) and dense X give the same order, and
    the internal dense and sparse paths the same scores."""
    X, Y = _dyadic(40, 25, 3, seed=4, density=0.4)
    dense = compute_ranking(X, Y, method)
    sparse = compute_ranking(sp.csr_matrix(X), Y, method)
    assert np.array_equal(dense.order, sparse.order)
    if method == "MCLS":
        Xs = _minmax(X)
        a, _ = mcls_scores(Xs, Y, 5)
        b, _ = mcls_scores(sp.csr_matrix(Xs), Y, 5)
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("method", SPECTRAL)
def test_same_input_same_bits(method):
    """Check determinism: the same call twice gives identical bits."""
    X, Y = _dyadic(40, 15, 3, seed=9, density=0.5)
    a = compute_ranking(sp.csr_matrix(X), Y, method)
    b = compute_ranking(sp.csr_matrix(X), Y, method)
    assert a.order.tobytes() == b.order.tobytes()
    assert a.scores.tobytes() == b.scores.tobytes()


def _degenerate():
    """A constant feature, a label never present, duplicate rows."""
    X, Y = _dyadic(30, 8, 3, seed=12)
    X[:, 3] = 2.0  # constant
    Y[:, 1] = 0  # never present
    X[10], Y[10] = X[11], Y[11]  # duplicate rows
    X[20], Y[20] = X[11], Y[11]
    return X, Y


@pytest.mark.parametrize("method", SPECTRAL)
def test_degenerate_data_gives_finite_scores(method):
    """Check finite scores with a constant feature, an absent label and
    duplicate rows; the constant feature ranks last."""
    X, Y = _degenerate()
    ranking = compute_ranking(X, Y, method)
    assert np.all(np.isfinite(ranking.scores))
    assert ranking.order[-1] == 3
    assert ranking.scores[3] == ranking.scores.min()


def test_mcls_degenerate_data_matches_the_oracle():
    """Check MCLS with duplicate rows (rank-deficient neighbour systems, the
    1e-3 trace ridge) against the oracle; the constant feature is undefined
    there and last here, storing the lowest defined score minus 1."""
    X, Y = _degenerate()
    ranking = compute_ranking(X, Y, "MCLS")
    oracle = _mcls_oracle(X, Y, 5)
    defined = ~np.isnan(oracle)
    assert defined.tolist() == [j != 3 for j in range(8)]
    np.testing.assert_allclose(ranking.scores[defined], oracle[defined], rtol=1e-6)
    assert ranking.scores[3] == ranking.scores[defined].min() - 1.0
    assert ranking.scores[3] == pytest.approx(oracle[defined].min() - 1.0)
    _assert_ranks_as(ranking.order, np.where(defined, oracle, -2.0), rtol=1e-6)


def test_undefined_scores_rank_last_in_index_order():
    """Check the ranking rule: descending, ties lowest index, undefined last."""
    scores = np.array([1.0, np.nan, 3.0, 1.0, 0.0, 7.0])
    defined = np.array([True, False, True, True, False, True])
    ranking = _common.ranking_from_scores(scores, defined, 6)
    assert ranking.order.tolist() == [5, 2, 0, 3, 1, 4]
    assert ranking.scores.tolist() == [1.0, 0.0, 3.0, 1.0, 0.0, 7.0]  # min 1 - 1
    none = _common.ranking_from_scores(scores, np.zeros(6, bool), 3)
    assert none.order.tolist() == [0, 1, 2] and set(none.scores) == {-1.0}


def test_all_duplicate_neighbours_get_uniform_weights():
    """Check the stated fallback: trace(Z) = 0 gives weights 1/k."""
    A = np.array([[1.0, 0.0]] * 4 + [[0.0, 1.0]])
    index, _ = _graphs.nearest(A, 3)
    R = _graphs.reconstruction_weights(A, index).toarray()
    assert np.allclose(R[0, [1, 2, 3]], 1 / 3) and R[0, 0] == 0


def test_too_few_samples_for_the_neighbours_is_refused():
    """Check that n < n_neighbors + 2 is one clear ConfigError."""
    X, Y = _dyadic(6, 4, 2, seed=0)
    with pytest.raises(ConfigError, match="n_neighbors=5 needs at least .* 7"):
        rank_features(X, Y, "MCLS")
    assert rank_features(X, Y, "MCLS", n_neighbors=4).size == 4


@pytest.mark.parametrize(
    ("method", "estimate"), [("MCLS", 16 * 40 * 40), ("MDDM-spc", None)]
)
def test_memory_refusal_names_the_estimate(method, estimate, monkeypatch):
    """Check that above the bound the method refuses with its estimate."""
    monkeypatch.setattr(_common, "DENSE_BOUND_BYTES", 1000)
    X, Y = _dyadic(40, 10, 3, seed=0)
    with pytest.raises(ConfigError, match=rf"{method}.*needs an estimated .* GiB"):
        rank_features(X, Y, method)
    if estimate is not None:
        with pytest.raises(ConfigError, match=f"{estimate / 1024**3:.2f} GiB"):
            rank_features(X, Y, method)


def test_mcls_bound_admits_ten_thousand_samples():
    """Check that the documented bound lets n = 10,000 through."""
    from mlfs_core.selectors.field.spectral._mcls import mcls_memory

    assert mcls_memory(10_000) <= _common.DENSE_BOUND_BYTES
    assert mcls_memory(12_000) > _common.DENSE_BOUND_BYTES


def test_options_are_checked():
    """Check the options' ranges: epsilon > 0, n_neighbors >= 1, scaling."""
    X, Y = _dyadic(20, 5, 2, seed=0)
    with pytest.raises(ConfigError, match="epsilon"):
        rank_features(X, Y, "MDDM-spc", epsilon=0.0)
    with pytest.raises(ConfigError, match="n_neighbors"):
        rank_features(X, Y, "MCLS", n_neighbors=0)
    with pytest.raises(ConfigError, match="scaling"):
        rank_features(X, Y, "MDDM-proj", scaling="log")


@pytest.mark.parametrize("method", SPECTRAL)
def test_scaling_is_applied_first(method):
    """Check that scaling="none" on pre-scaled data equals the default."""
    X, Y = _dyadic(30, 8, 3, seed=2)
    a = compute_ranking(X, Y, method)
    b = compute_ranking(_minmax(X), Y, method, scaling="none")
    assert np.array_equal(a.order, b.order)
    np.testing.assert_allclose(a.scores, b.scores, rtol=1e-12)


# ---------------------------------------------------------------- the project's choices


def test_mddm_score_is_the_weight_over_positive_eigenvalues():
    """Pin the project's choice: with q = 1 there is one positive eigenvalue
    and the proj score is λ P_i1² = (X̃ᵀỹ)_i², not the first eigenvector alone."""
    X, Y = _dyadic(20, 6, 1, seed=1)
    b = _centred(_minmax(X)).T @ _centred(Y.astype(float))[:, 0]
    np.testing.assert_allclose(compute_ranking(X, Y, "MDDM-proj").scores, b * b)


def test_mcls_larger_score_ranks_first_and_identical_features_tie():
    """Pin the direction (larger first, as MCLS.m's sort(-score)) and the
    tie rule on two identical features."""
    X, Y = _dyadic(30, 6, 2, seed=6)
    X = np.column_stack([X, X[:, 2]])  # feature 6 = feature 2
    ranking = compute_ranking(X, Y, "MCLS")
    assert np.all(np.diff(ranking.scores[ranking.order]) <= 0)
    assert ranking.scores[2] == ranking.scores[6]
    position = {f: p for p, f in enumerate(ranking.order)}
    assert position[2] < position[6]


# ------------------------------------------------------- everywhere a method is


def test_registered_in_the_spectral_family_with_citations():
    """Check the registry entries: family, score kind, citation, options."""
    for name in SPECTRAL:
        spec = METHODS[name]
        assert spec.family == "spectral" and spec.score_kind == "score"
        assert "(2010)" in spec.citation or "(2018)" in spec.citation
        assert "scaling" in spec.defaults
    assert METHODS["MDDM-spc"].defaults["epsilon"] == 1e-3
    assert METHODS["MCLS"].defaults["n_neighbors"] == 5


@pytest.mark.parametrize("method", SPECTRAL)
def test_multilabel_selector_runs_each_method(method):
    """Check MultiLabelSelector with each method keeps its top features."""
    X, Y = _dyadic(30, 10, 3, seed=3)
    selector = MultiLabelSelector(method, k=4).fit(X, Y)
    expected = rank_features(X, Y, method, k=4)
    assert np.array_equal(np.flatnonzero(selector.get_support()), np.sort(expected))
    assert selector.transform(X).shape == (30, 4)


def test_cli_rank_runs_each_method(tmp_path):
    """Check `python -m mlfs_core rank` with each method writes its order."""
    X, Y = _dyadic(24, 6, 2, seed=8)
    names = [f"f{j}" for j in range(6)]
    path = write_mulan(Dataset(X, Y, names, ["L0", "L1"]), tmp_path, "spec")
    for method in SPECTRAL:
        out = tmp_path / f"{method}.csv"
        proc = subprocess.run(
            [sys.executable, "-m", "mlfs_core", "rank", str(path), "--method", method]
            + ["--k", "3", "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        table = pd.read_csv(out)
        expected = rank_features(X, Y, method, k=3)
        assert table["feature_index"].tolist() == expected.tolist()


def test_partial_selection_equals_a_stable_sort():
    """Check the k smallest (partition + candidates sort) against a stable
    argsort on rows full of ties."""
    rng = np.random.default_rng(0)
    D = rng.integers(0, 4, size=(30, 40)).astype(float)
    D[3] = 1.0  # a row of equal values
    for k in (1, 5, 39):
        expected = np.argsort(D, axis=1, kind="stable")[:, :k]
        assert np.array_equal(_graphs._smallest(D, k), expected)


def test_label_blocks_do_not_change_the_manifold(monkeypatch):
    """Check that solving the labels in blocks gives the same MU."""
    from mlfs_core.selectors.field.spectral import _mcls

    X, Y = _dyadic(40, 6, 5, seed=13)
    Xs = _minmax(X)
    index, _ = _graphs.nearest(Xs, 5)
    R = _graphs.reconstruction_weights(Xs, index)
    whole = _mcls.label_manifold(R, 2.0 * Y - 1.0)
    monkeypatch.setattr(_mcls, "BLOCK_UNKNOWNS", 80)  # two labels a block
    blocked = _mcls.label_manifold(R, 2.0 * Y - 1.0)
    np.testing.assert_allclose(blocked, whole, rtol=0, atol=1e-12)


def test_free_block_is_the_block_diagonal_of_the_free_parts():
    """Check the label manifold's system, built from one mask of M's entries,
    against the plain block-diagonal of each label's free-by-free part (a
    label all free, one with a single free unknown, one with none)."""
    from mlfs_core.selectors.field.spectral import _mcls

    X, _ = _dyadic(30, 6, 1, seed=17)
    index, _ = _graphs.nearest(_minmax(X), 4)
    I_R = sp.identity(30, format="csr") - _graphs.reconstruction_weights(
        _minmax(X), index
    )
    M = (I_R.T @ I_R + 1e-6 * sp.identity(30)).tocsr()
    rng = np.random.default_rng(3)
    free = rng.random((4, 30)) < 0.6
    free[1], free[2], free[3] = True, False, False
    free[3, 7] = True
    expected = sp.block_diag([M.toarray()[np.ix_(f, f)] for f in free if f.any()])
    got = _mcls._free_block(M, free)
    assert got.has_sorted_indices
    assert np.array_equal(got.toarray(), expected.toarray())
    assert got.nnz == np.count_nonzero(expected.toarray())


def test_fill_order_renumbers_without_changing_the_manifold(monkeypatch):
    """Check that the label manifold is solved in _fill_order's renumbering
    (a permutation, not the identity here), that it gives the MU of the
    instances' own order, and that the order is the same on a rerun."""
    from mlfs_core.selectors.field.spectral import _mcls

    X, Y = _dyadic(60, 6, 5, seed=21)
    Xs = _minmax(X)
    index, _ = _graphs.nearest(Xs, 5)
    R = _graphs.reconstruction_weights(Xs, index)
    I_R = sp.identity(60, format="csr") - R
    order = _mcls._fill_order((I_R.T @ I_R + 1e-6 * sp.identity(60)).tocsr())
    assert sorted(order.tolist()) == list(range(60))
    assert order.tolist() != list(range(60))
    assert np.array_equal(
        order, _mcls._fill_order((I_R.T @ I_R + 1e-6 * sp.identity(60)).tocsr())
    )
    seen = []
    fill_order = _mcls._fill_order
    monkeypatch.setattr(_mcls, "_fill_order", lambda M: seen.append(1) or fill_order(M))
    ordered = _mcls.label_manifold(R, 2.0 * Y - 1.0)
    monkeypatch.setattr(_mcls, "_fill_order", lambda M: np.arange(M.shape[0]))
    plain = _mcls.label_manifold(R, 2.0 * Y - 1.0)
    assert seen == [1]
    np.testing.assert_allclose(ordered, plain, rtol=0, atol=1e-9)
    np.testing.assert_allclose(
        ordered, _manifold(R.toarray(), 2.0 * Y - 1.0), atol=1e-9
    )


def test_each_spectral_method_has_its_own_look():
    """Check the look table: each method its colour, dash and marker, none
    shared with another built-in method."""
    from mlfs_core.plots import method_look
    from mlfs_core.plots._look import FIELD_LOOKS as LOOKS
    from mlfs_core.plots._look import built_in_looks

    triples = {
        name: (s["color"], s["dash"], s["symbol"])
        for name, s in built_in_looks().items()
    }
    for name in SPECTRAL:
        assert method_look(name) == LOOKS[name]
        others = [t for other, t in triples.items() if other != name]
        assert triples[name] not in others
    assert len({method_look(m)["color"] for m in SPECTRAL}) == 3


@pytest.mark.parametrize("method", ["MDDM-proj", "MDDM-spc"])
def test_mddm_on_one_sample_scores_zero_and_ranks_by_index(method):
    """Check one sample: nothing varies, every score is 0 (finite), the
    order is the index order."""
    ranking = compute_ranking(np.array([[1.0, 2.0, 0.0]]), np.array([[1, 0]]), method)
    assert ranking.scores.tolist() == [0.0, 0.0, 0.0]
    assert ranking.order.tolist() == [0, 1, 2]


def test_mddm_spc_gram_in_row_blocks(monkeypatch):
    """Check that forming the d x d product in blocks of rows changes nothing."""
    from mlfs_core.selectors.field.spectral import _mddm

    X, Y = _dyadic(15, 40, 3, seed=7, density=0.3)
    Xs = sp.csr_matrix(_minmax(X))
    whole = spc_scores(Xs, Y, 1e-3)
    monkeypatch.setattr(_mddm, "_GRAM_CELLS", 2 * 40)
    np.testing.assert_allclose(spc_scores(Xs, Y, 1e-3), whole, rtol=1e-12)
    tall, labels = _dyadic(40, 9, 3, seed=8, density=0.5)  # M <= n form
    np.testing.assert_allclose(
        spc_scores(sp.csr_matrix(_minmax(tall)), labels, 1e-3),
        _mddm_spc_oracle(tall, labels, 1e-3),
        rtol=1e-6,
    )


def _cycling_case():
    """A label block on which the primal-dual active-set phase cycles
    (found by a seeded search; it is the case that used to warn)."""
    rng = np.random.default_rng(2)
    n, d = int(rng.integers(12, 40)), int(rng.integers(2, 6))
    X = rng.random((n, d))
    Y = (rng.random((n, 3)) < rng.uniform(0.1, 0.5)).astype(float)
    index, _ = _graphs.nearest(X, 4)
    return _graphs.reconstruction_weights(X, index[:, :3]), 2.0 * Y - 1.0


def test_label_manifold_terminates_exactly_where_the_active_set_cycles(monkeypatch):
    """Check that a cycling label goes to the monotone phase (spied), which
    stops with the KKT residual within KKT_TOL and the bvls oracle's
    minimiser, and that no warning is raised."""
    import warnings

    from mlfs_core.selectors.field.spectral import _mcls

    R, Ypm = _cycling_case()
    calls = []
    monotone = _mcls._monotone
    monkeypatch.setattr(
        _mcls, "_monotone", lambda M, y, mu: calls.append(len(y)) or monotone(M, y, mu)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        MU = _mcls.label_manifold(R, Ypm)
    assert sum(calls) >= 1  # the active set did cycle here
    n = R.shape[0]
    I_R = np.eye(n) - R.toarray()
    M = I_R.T @ I_R
    M = sp.csr_matrix(M + 1e-8 * np.trace(M) / n * np.eye(n))
    assert _mcls.kkt_residual(M, Ypm, MU).max() <= _mcls.KKT_TOL
    np.testing.assert_allclose(MU, _manifold(R.toarray(), Ypm), atol=1e-9)


def _first_repeat(R, Ypm):
    """Per label, the primal-dual step (0-based) whose new active set is one
    the label had before (None if it settles first) and the cycle's length,
    by a plain loop with dense solves from every constraint active."""
    n = R.shape[0]
    I_R = np.eye(n) - R.toarray()
    M = I_R.T @ I_R
    M = M + 1e-8 * np.trace(M) / n * np.eye(n)
    found = []
    for label in range(Ypm.shape[1]):
        y = Ypm[:, label]
        active, history = np.ones(n, dtype=bool), []
        for step in range(100):
            history.append(active.tolist())
            mu = np.where(active, y, 0.0)
            free = ~active
            if free.any():
                mu[free] = np.linalg.solve(M[np.ix_(free, free)], -M[free] @ mu)
            new = y * (M @ mu) - (y * mu - 1.0) > 0
            if np.array_equal(new, active):
                found.append((None, 0))
                break
            if new.tolist() in history:
                found.append((step, len(history) - history.index(new.tolist())))
                break
            active = new
    return found


def test_a_longer_cycle_goes_to_the_monotone_phase_when_it_repeats(monkeypatch):
    """Check the cycle rule: a label whose active set returns to any earlier
    one (here a cycle of 3 sets, not only the set of two steps before) goes
    to the monotone phase at that step, not after MAX_ACTIVE_SET_STEPS."""
    from mlfs_core.selectors.field.spectral import _mcls

    R, Ypm = _cycling_case()
    repeats = _first_repeat(R, Ypm)
    first = min(step for step, _ in repeats if step is not None)
    assert max(length for _, length in repeats) > 2
    steps, entered = [], []
    solve, monotone = _mcls._free_solution, _mcls._monotone
    monkeypatch.setattr(
        _mcls, "_free_solution", lambda M, y, a: steps.append(1) or solve(M, y, a)
    )
    monkeypatch.setattr(
        _mcls,
        "_monotone",
        lambda M, y, mu: entered.append(len(steps)) or monotone(M, y, mu),
    )
    MU = _mcls.label_manifold(R, Ypm)
    assert entered[0] == first + 1  # the primal-dual steps 0..first
    np.testing.assert_allclose(MU, _manifold(R.toarray(), Ypm), atol=1e-9)


def test_monotone_phase_alone_reaches_the_oracle(monkeypatch):
    """Check the monotone phase from the worst start (no primal-dual step:
    every label goes to it at once) on the cycling case and on a dyadic one."""
    from mlfs_core.selectors.field.spectral import _mcls

    monkeypatch.setattr(_mcls, "MAX_ACTIVE_SET_STEPS", 1)
    X, Y = _dyadic(40, 6, 4, seed=3)
    Xs = _minmax(X)
    index, _ = _graphs.nearest(Xs, 5)
    for R, Ypm in (
        _cycling_case(),
        (_graphs.reconstruction_weights(Xs, index), 2.0 * Y - 1.0),
    ):
        MU = _mcls.label_manifold(R, Ypm)
        assert np.all(Ypm * MU >= 1.0)
        np.testing.assert_allclose(MU, _manifold(R.toarray(), Ypm), atol=1e-9)


def test_mcls_ranks_as_the_oracle_where_the_active_set_cycles(monkeypatch):
    """Check the ranking end to end on the data of the cycling case (the
    monotone phase spied: it runs)."""
    from mlfs_core.selectors.field.spectral import _mcls

    calls = []
    monotone = _mcls._monotone
    monkeypatch.setattr(
        _mcls, "_monotone", lambda M, y, mu: calls.append(len(y)) or monotone(M, y, mu)
    )
    rng = np.random.default_rng(2)
    n, d = int(rng.integers(12, 40)), int(rng.integers(2, 6))
    X = rng.random((n, d))
    Y = (rng.random((n, 3)) < rng.uniform(0.1, 0.5)).astype(float)
    ranking = compute_ranking(X, Y, "MCLS", n_neighbors=3)
    oracle = _mcls_oracle(X, Y, 3)
    assert calls and np.all(np.isfinite(oracle))
    # MU's rows here include exact duplicates (labels fully active), whose
    # PKN neighbours tie at distances of rounding size: scores agree to 1e-3
    np.testing.assert_allclose(ranking.scores, oracle, rtol=1e-2)
    assert ranking.order.tolist() == np.argsort(-oracle, kind="stable").tolist()


def test_a_failed_kkt_check_is_one_ranking_error(monkeypatch):
    """Check that a solution off the KKT tolerance is refused, not returned."""
    from mlfs_core.errors import RankingError
    from mlfs_core.selectors.field.spectral import _mcls

    R, Ypm = _cycling_case()
    # every constraint active: feasible, but not the minimiser
    monkeypatch.setattr(_mcls, "_active_set", lambda M, Y: Y.copy())
    with pytest.raises(RankingError, match="MCLS.*KKT residual"):
        _mcls.label_manifold(R, Ypm)


def test_mddm_spc_with_a_vanishing_ridge_is_refused_clearly():
    """Check that a ridge too small to keep the system positive definite is
    one ConfigError naming epsilon, not a LinAlgError."""
    X, Y = _dyadic(30, 8, 2, seed=1)
    X = np.column_stack([X, X[:, 0]])  # a repeated feature: singular covariance
    with pytest.raises(ConfigError, match="MDDM-spc.*larger epsilon"):
        rank_features(X, Y, "MDDM-spc", epsilon=1e-300)
