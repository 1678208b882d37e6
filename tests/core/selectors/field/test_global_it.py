"""GRRO and FIMF against plain counting oracles."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from itertools import combinations
from math import log2

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from mlfs_core import MultiLabelSelector, compute_ranking, get_method, rank_features
from mlfs_core.data import Dataset
from mlfs_core.data.synthetic import write_mulan
from mlfs_core.errors import ConfigError
from mlfs_core.selectors.field import global_it
from mlfs_core.selectors.field.global_it import (
    grro_cost,
    grro_weights,
    label_cosine_distance,
)

from .conftest import assert_same_ranking

ORACLE_TOL = {"rtol": 1e-7, "atol": 1e-9}  # engine vs the plain oracle

# ---------------------------------------------------------------- oracles


def _entropy(*columns):
    """Plug-in joint entropy in bits, by counting the tuples."""
    n = len(columns[0])
    counts = Counter(tuple(c[i] for c in columns) for i in range(n))
    return -sum(v / n * log2(v / n) for v in counts.values())


def _mi(a, b):
    return _entropy(a) + _entropy(b) - _entropy(a, b)


def _equal_width(X, bins):
    """Equal-width codes: a value on an inner edge goes to the upper bin."""
    X = np.asarray(X, dtype=float)
    codes = np.zeros(X.shape, dtype=int)
    for i in range(X.shape[1]):
        lo, hi = X[:, i].min(), X[:, i].max()
        if hi == lo:
            continue
        edges = [lo + (hi - lo) * e / bins for e in range(1, bins)]
        for r in range(X.shape[0]):
            codes[r, i] = sum(1 for e in edges if X[r, i] >= e)
    return codes


def _cosine_distance(Y):
    q = Y.shape[1]
    out = np.zeros((q, q))
    for j in range(q):
        for k in range(q):
            nj, nk = np.sqrt(Y[:, j] @ Y[:, j]), np.sqrt(Y[:, k] @ Y[:, k])
            if j != k and nj > 0 and nk > 0:
                out[j, k] = 1 - (Y[:, j] @ Y[:, k]) / (nj * nk)
    return out


def _kronecker_sylvester(A, B, Q):
    """AW + WB = Q by vec: (I kron A + B^T kron I) vec(W) = vec(Q), column-major."""
    c, q = Q.shape
    big = np.kron(np.eye(q), A) + np.kron(B.T, np.eye(c))
    return np.linalg.solve(big, Q.flatten(order="F")).reshape((c, q), order="F")


def grro_oracle(X, Y, alpha=100.0, beta=0.1, bins=2, features=None):
    codes = _equal_width(X, bins)
    Y = np.asarray(Y)
    features = range(codes.shape[1]) if features is None else features
    cols = [list(codes[:, i]) for i in features]
    labels = [list(Y[:, j]) for j in range(Y.shape[1])]
    FL = np.array([[_mi(f, lab) for lab in labels] for f in cols])
    FF = np.array([[1.0 if a == b else _mi(fa, fb) for b, fb in enumerate(cols)]
                   for a, fa in enumerate(cols)])  # fmt: skip
    A = np.eye(len(cols)) + alpha * FF
    W = _kronecker_sylvester(A, beta * _cosine_distance(Y.astype(float)), FL)
    return W.sum(axis=1), FL.sum(axis=1)


def fimf_oracle(X, Y, n_candidates=0, n_labels=3):
    X = np.asarray(X, dtype=float)
    n, m = X.shape
    B = np.zeros((n, m), dtype=int)
    for i in range(m):
        lo, hi = X[:, i].min(), X[:, i].max()
        for r in range(n):
            scaled = (X[r, i] - lo) / (hi - lo) if hi > lo else 0.0
            B[r, i] = 1 if scaled > 0.5 else 0
    feats = [list(B[:, i]) for i in range(m)]
    labs = [list(Y[:, j]) for j in range(Y.shape[1])]
    h_f = [_entropy(f) for f in feats]
    by_entropy = sorted(range(m), key=lambda i: (-h_f[i], i))
    chosen = by_entropy[: (n_candidates or m)]
    top = sorted(range(len(labs)), key=lambda j: (-_entropy(labs[j]), j))[:n_labels]
    scores = {}
    for i in chosen:
        f = feats[i]
        s = sum(_entropy(f) - _entropy(f, lab) for lab in labs)
        for a, b in combinations(top, 2):
            s += (
                -_entropy(f)
                + _entropy(f, labs[a])
                + _entropy(f, labs[b])
                - _entropy(f, labs[a], labs[b])
            )
        scores[i] = s
    return scores, h_f, chosen


# ---------------------------------------------------------------- helpers


def _data(seed=0, n=40, m=7, q=4):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m)) * 4 - 1
    Y = (rng.random((n, q)) < 0.4).astype(int)
    Y[:, 0] = X[:, 0] > 1.0  # one informative feature
    return X, Y


# ---------------------------------------------------------------- GRRO


@pytest.mark.parametrize("bins", [2, 3])
@pytest.mark.parametrize(("alpha", "beta"), [(100.0, 0.1), (1.0, 2.0)])
def test_grro_matches_counting_and_kronecker_oracle(bins, alpha, beta):
    """Check GRRO's scores against MI by counting and the Sylvester equation
    solved by Kronecker vectorisation."""
    X, Y = _data(seed=bins)
    r = compute_ranking(X, Y, "GRRO", bins=bins, alpha=alpha, beta=beta)
    expected, _ = grro_oracle(X, Y, alpha, beta, bins)
    assert_same_ranking(r.order, r.scores, expected, **ORACLE_TOL)
    assert r.candidates is None


def test_grro_default_is_two_bins_not_three():
    """Check the trap of a public port (3 bins): GRRO's default is 2 bins,
    and here 3 bins rank otherwise."""
    assert get_method("GRRO").defaults["bins"] == 2
    X, Y = _data(seed=11, n=60)
    X[:, 3] = np.linspace(0.0, 3.0, 60)
    Y[:, 1] = (X[:, 3] >= 1.0) & (X[:, 3] < 2.0)  # only the middle third informs
    r = compute_ranking(X, Y, "GRRO")
    two, _ = grro_oracle(X, Y, bins=2)
    three, _ = grro_oracle(X, Y, bins=3)
    assert_same_ranking(r.order, r.scores, two, **ORACLE_TOL)
    assert (
        np.argsort(-two, kind="stable").tolist()
        != np.argsort(-three, kind="stable").tolist()
    )


def test_grro_eigenbasis_solution_equals_solve_sylvester():
    from scipy.linalg import solve_sylvester

    rng = np.random.default_rng(2)
    FF = rng.random((6, 6))
    FF = (FF + FF.T) / 2
    np.fill_diagonal(FF, 1.0)
    LL = label_cosine_distance((rng.random((30, 4)) < 0.5).astype(int))
    FL = rng.random((6, 4))
    W = grro_weights(FL, FF, LL, alpha=3.0, beta=0.5)
    expected = solve_sylvester(np.eye(6) + 3.0 * FF, 0.5 * LL, FL)
    np.testing.assert_allclose(W, expected, rtol=1e-9, atol=1e-12)


def test_grro_singular_equation_is_refused():
    """Check that (I + alpha FF) W + W (beta LL) = FL with a cancelling pair
    of eigenvalues raises a ConfigError naming alpha and beta."""
    FF = np.array([[1.0, 0.0], [0.0, 1.0]])
    LL = np.array([[0.0, 1.0], [1.0, 0.0]])  # eigenvalues -1, 1
    with pytest.raises(ConfigError, match="alpha=0.0, beta=1.0"):
        grro_weights(np.ones((2, 2)), FF, LL, alpha=0.0, beta=1.0)


def test_label_cosine_distance_is_zero_for_a_label_never_present():
    Y = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 0]])
    LL = label_cosine_distance(Y)
    assert LL[2].tolist() == [0, 0, 0] and LL[:, 2].tolist() == [0, 0, 0]
    np.testing.assert_allclose(LL, _cosine_distance(Y.astype(float)))


def test_grro_above_max_features_ranks_the_most_relevant_first():
    """Check the default above max_features: the most relevant features are
    weighted (as GRRO on them alone), listed in Ranking.candidates, and the
    rest rank below them by relevance."""
    X, Y = _data(seed=4, m=9)
    r = compute_ranking(X, Y, "GRRO", max_features=4)
    _, relevance = grro_oracle(X, Y)
    chosen = sorted(np.argsort(-relevance, kind="stable")[:4].tolist())
    assert r.candidates.tolist() == chosen
    inside, _ = grro_oracle(X, Y, features=chosen)
    np.testing.assert_allclose(r.scores[chosen], inside, rtol=1e-7)
    others = [i for i in range(9) if i not in chosen]
    assert r.scores[others].max() < r.scores[chosen].min()
    rest = r.order.tolist()[4:]
    assert rest == sorted(others, key=lambda i: (-relevance[i], i))
    assert get_method("GRRO").defaults["above_max"] == "relevance"


def test_grro_refuses_with_the_estimate(monkeypatch):
    """Check above_max='refuse' and the memory bound: a ConfigError with the
    estimate, raised before any M x M work."""
    X, Y = _data(seed=5, m=9)
    with pytest.raises(ConfigError, match=r"9 features is above max_features=4.*GiB"):
        rank_features(X, Y, "GRRO", max_features=4, above_max="refuse")
    monkeypatch.setattr(global_it, "GRRO_MEMORY_BYTES", grro_cost(40, 9, 4, 2) - 1)

    def no_work(*args, **kwargs):
        raise AssertionError("the M x M matrix was computed")

    monkeypatch.setattr(global_it, "feature_redundancy", no_work)
    with pytest.raises(ConfigError, match="GiB, above the"):
        rank_features(X, Y, "GRRO")
    assert grro_cost(6000, 1000, 101, 2) == 8 * (
        6000 * 1000 + 2 * 2000**2 + 6 * 1000**2 + 3 * 1000 * 101
    )


@pytest.mark.parametrize("method", ["GRRO", "FIMF"])
def test_sparse_and_dense_x_rank_the_same(method):
    rng = np.random.default_rng(3)
    X = rng.random((50, 10)) * (rng.random((50, 10)) < 0.4)
    Y = (rng.random((50, 3)) < 0.4).astype(int)
    dense = compute_ranking(X, Y, method)
    sparse = compute_ranking(sp.csr_matrix(X), Y, method)
    assert sparse.scores.tobytes() == dense.scores.tobytes()
    assert sparse.order.tolist() == dense.order.tolist()


@pytest.mark.parametrize("method", ["GRRO", "FIMF"])
@pytest.mark.parametrize(
    "case", ["constant-feature", "label-never-present", "duplicate-rows", "n2", "n1"]
)
def test_scores_stay_finite_on_degenerate_data(method, case):
    X, Y = _data(seed=6, n=10, m=5, q=3)
    if case == "constant-feature":
        X[:, 2] = 1.5
    elif case == "label-never-present":
        Y[:, 1] = 0
    elif case == "duplicate-rows":
        X[1], Y[1] = X[0], Y[0]
    elif case == "n2":
        X, Y = X[:2], np.array([[1, 0, 1], [0, 1, 0]])
    else:
        X, Y = X[:1], Y[:1]
    r = compute_ranking(X, Y, method)
    assert np.all(np.isfinite(r.scores))
    if method == "GRRO":
        assert_same_ranking(r.order, r.scores, grro_oracle(X, Y)[0], **ORACLE_TOL)
    else:
        scores, _, _ = fimf_oracle(X, Y)
        assert_same_ranking(
            r.order, r.scores, np.array([scores[i] for i in range(5)]), **ORACLE_TOL
        )


def test_grro_is_deterministic():
    X, Y = _data(seed=7)
    a = compute_ranking(X, Y, "GRRO", random_state=1)
    b = compute_ranking(X, Y, "GRRO", random_state=2)
    assert a.scores.tobytes() == b.scores.tobytes()


# ---------------------------------------------------------------- FIMF


@pytest.mark.parametrize("n_labels", [1, 2, 3, 4])
def test_fimf_matches_the_counting_oracle(n_labels):
    X, Y = _data(seed=n_labels, q=5)
    r = compute_ranking(X, Y, "FIMF", n_labels=n_labels)
    scores, _, _ = fimf_oracle(X, Y, n_labels=n_labels)
    assert_same_ranking(
        r.order, r.scores, np.array([scores[i] for i in range(7)]), **ORACLE_TOL
    )
    assert r.candidates is None


def test_fimf_binarises_above_one_half_only():
    """Check that a value scaled to exactly 0.5 is 0: the feature 0, 1, 2
    binarises to 0, 0, 1 (as the oracle), not 0, 1, 1."""
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [0.0, 1.0]])
    Y = np.array([[0], [0], [1], [1]])
    r = compute_ranking(X, Y, "FIMF")
    scores, _, _ = fimf_oracle(X, Y)
    np.testing.assert_allclose(r.scores, [scores[0], scores[1]])
    above = compute_ranking(np.where(X == 1.0, 1.5, X), Y, "FIMF")
    assert not np.isclose(above.scores[0], r.scores[0])


def test_fimf_candidates_by_entropy_rest_below():
    """Check n_candidates: the highest-entropy features (ties: lowest index)
    are scored as the oracle, the others rank below them by entropy."""
    X, Y = _data(seed=8, m=9)
    X[:, 5] = X[:, 2]  # an entropy tie: the lower index is a candidate first
    r = compute_ranking(X, Y, "FIMF", n_candidates=4)
    scores, h_f, chosen = fimf_oracle(X, Y, n_candidates=4)
    assert r.candidates.tolist() == sorted(chosen)
    np.testing.assert_allclose(r.scores[chosen], [scores[i] for i in chosen])
    others = [i for i in range(9) if i not in chosen]
    assert r.scores[others].max() < r.scores[chosen].min()
    assert r.order.tolist()[4:] == sorted(others, key=lambda i: (-h_f[i], i))
    assert get_method("FIMF").defaults == {"n_candidates": 0, "n_labels": 3}


def test_bad_options_name_the_parameter():
    X, Y = _data()
    for method, option, value in [
        ("GRRO", "bins", 1),
        ("GRRO", "alpha", -1.0),
        ("GRRO", "above_max", "crash"),
        ("FIMF", "n_labels", 0),
        ("FIMF", "n_candidates", -2),
    ]:
        with pytest.raises(ConfigError, match=option):
            rank_features(X, Y, method, **{option: value})


@pytest.mark.parametrize("method", ["GRRO", "FIMF"])
def test_usable_as_every_method_is(method, tmp_path):
    X, Y = _data(seed=9, m=5)
    if method == "GRRO":
        expected = np.argsort(-grro_oracle(X, Y)[0], kind="stable")
    else:
        scores, _, _ = fimf_oracle(X, Y)
        expected = np.argsort(-np.array([scores[i] for i in range(5)]), kind="stable")
    assert rank_features(X, Y, method, k=3).tolist() == expected[:3].tolist()
    selector = MultiLabelSelector(method, k=2).fit(X, Y)
    assert np.flatnonzero(selector.get_support()).tolist() == sorted(expected[:2])
    spec = get_method(method)
    assert spec.family == "global-information" and spec.score_kind == "score"
    assert ("Zhang" if method == "GRRO" else "Lee and Kim") in spec.citation
    path = write_mulan(
        Dataset(X, Y, [f"w{i}" for i in range(5)], ["a", "b", "c", "d"]),
        tmp_path,
        "tiny",
    )
    out = tmp_path / "r.csv"
    command = [sys.executable, "-m", "mlfs_core", "rank", str(path)]
    command += ["--method", method, "--k", "3", "--out", str(out)]
    subprocess.run(command, check=True, capture_output=True)
    assert pd.read_csv(out)["feature_index"].tolist() == expected[:3].tolist()


def test_fimf_in_feature_blocks_equals_one_block(monkeypatch):
    """Check that scoring the features a few at a time (bounded memory)
    changes nothing."""
    X, Y = _data(seed=12, m=9)
    whole = compute_ranking(X, Y, "FIMF", n_candidates=7)
    monkeypatch.setattr(global_it, "_FEATURE_BLOCK", 4 * 4 * 2)  # 2 features a block
    blocks = compute_ranking(X, Y, "FIMF", n_candidates=7)
    assert blocks.scores.tobytes() == whole.scores.tobytes()
