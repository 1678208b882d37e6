"""RF-ML (ReliefF with the Hamming label distance) against a plain loop oracle."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from mlfs_core import MultiLabelSelector, compute_ranking, get_method, rank_features
from mlfs_core.data import Dataset
from mlfs_core.data.synthetic import write_mulan
from mlfs_core.errors import ConfigError
from mlfs_core.selectors.field import relief
from mlfs_core.selectors.field.relief import nearest_neighbours, rank_rfml

from .conftest import assert_same_ranking

ORACLE_TOL = {"rtol": 1e-9, "atol": 1e-12}  # engine vs the plain oracle


def _minmax(X):
    X = np.asarray(X, dtype=float)
    out = np.zeros_like(X)
    for i in range(X.shape[1]):
        lo, hi = X[:, i].min(), X[:, i].max()
        if hi > lo:
            out[:, i] = (X[:, i] - lo) / (hi - lo)
    return out


def _neighbours(Xs, r, k, farthest=False):
    n, m = Xs.shape
    found = []
    for j in range(n):
        if j != r:
            d = sum(abs(Xs[r, i] - Xs[j, i]) for i in range(m))
            found.append((round(d, 9), j))
    found.sort(key=lambda t: ((-t[0] if farthest else t[0]), t[1]))
    return [j for _, j in found[:k]]


def oracle(X, Y, k=10, rows=None, farthest=False):
    """RF-ML written plainly: one reference, one neighbour, one feature at a time."""
    Xs = _minmax(X)
    Y = np.asarray(Y)
    n, m = Xs.shape
    q = Y.shape[1]
    rows = range(n) if rows is None else rows
    k = min(k, n - 1)
    n_y, n_f, n_yf = 0.0, [0.0] * m, [0.0] * m
    for r in rows:
        for j in _neighbours(Xs, r, k, farthest):
            d_y = sum(int(Y[r, c] != Y[j, c]) for c in range(q)) / q
            n_y += d_y / k
            for i in range(m):
                diff = abs(Xs[r, i] - Xs[j, i])
                n_f[i] += diff / k
                n_yf[i] += d_y * diff / k
    total = len(list(rows))
    scores = []
    for i in range(m):
        first = n_yf[i] / n_y if n_y > 0 else 0.0
        rest = total - n_y
        second = (n_f[i] - n_yf[i]) / rest if rest > 1e-9 * total else 0.0
        scores.append(first - second)
    return np.array(scores)


def _data(seed=0, n=30, m=6, q=4, grid=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, (n, m)).astype(float) if grid else rng.random((n, m))
    Y = (rng.random((n, q)) < 0.4).astype(int)
    return X, Y


def _rank(X, Y, **options):
    return rank_rfml(X, Y, k=X.shape[1], rng=np.random.default_rng(0), **options)


@pytest.mark.parametrize("k", [1, 3, 10])
@pytest.mark.parametrize("grid", [False, True])
def test_scores_match_the_loop_oracle(k, grid):
    """Check the weights and the ranking against the plain oracle, on
    continuous data and on integer-grid data full of distance ties."""
    X, Y = _data(seed=k, grid=grid)
    r = _rank(X, Y, n_neighbors=k)
    assert_same_ranking(r.order, r.scores, oracle(X, Y, k), **ORACLE_TOL)


def test_takes_the_nearest_neighbours_not_the_farthest():
    """Check the trap of a public port (k farthest): on a line the nearest
    instances are taken, and the ranking differs from the farthest variant."""
    Xs = np.array([[0.0], [1.0], [3.0], [7.0], [15.0]]) / 15.0
    found = nearest_neighbours(Xs, np.array([0, 4]), 2)
    assert found.index.tolist() == [[1, 2], [3, 2]]
    X, Y = _data(seed=5, n=24, m=5)
    Y[:, 0] = X[:, 0] > 0.5  # label 0 follows feature 0
    r = _rank(X, Y, n_neighbors=3)
    near, far = oracle(X, Y, 3), oracle(X, Y, 3, farthest=True)
    assert_same_ranking(r.order, r.scores, near, **ORACLE_TOL)
    assert not np.allclose(r.scores, far)
    assert r.order[0] == 0


def test_self_is_excluded_and_a_duplicate_row_at_distance_zero_counts():
    """Check that a row is never its own neighbour while its duplicate is, at
    distance 0, and that among equal distances the lowest index comes first."""
    Xs = np.array([[0.2, 0.4], [0.2, 0.4], [0.2, 0.4], [1.0, 1.0]])
    found = nearest_neighbours(Xs, np.arange(4), 2)
    assert found.index.tolist() == [[1, 2], [0, 2], [0, 1], [0, 1]]
    assert found.distance[:3].tolist() == [[0.0, 0.0]] * 3
    middle = np.array([[0.5], [0.0], [1.0]])  # rows 1 and 2 equally far from 0
    assert nearest_neighbours(middle, np.array([0]), 1).index.tolist() == [[1]]


def test_distances_equal_up_to_rounding_tie_to_the_lowest_index():
    """Check that sums differing only by floating-point rounding tie: 0.1 +
    0.2 and 0.3 are the same distance, so index order decides."""
    Xs = np.array([[0.0, 0.0], [0.1, 0.2], [0.3, 0.0]])
    assert 0.1 + 0.2 != 0.3
    assert nearest_neighbours(Xs, np.array([0]), 1).index.tolist() == [[1]]
    flipped = Xs[[0, 2, 1]]
    assert nearest_neighbours(flipped, np.array([0]), 1).index.tolist() == [[1]]


def _sparse_data(seed=1, n=40, m=12, negative=False):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m)) * (rng.random((n, m)) < 0.3)
    if negative:
        X[rng.random((n, m)) < 0.1] *= -1
    X[:, 3] = (X[:, 3] > 0).astype(float)  # binary columns take the product path
    X[:, 7] = (X[:, 7] > 0) * 2.0
    Y = (rng.random((n, 3)) < 0.5).astype(int)
    return X, Y


@pytest.mark.parametrize("scaling", ["minmax", "standard", "none"])
@pytest.mark.parametrize("negative", [False, True])
def test_sparse_and_dense_x_give_the_same_weights(monkeypatch, scaling, negative):
    """Check that the sparse path (product + gathered minima, in several
    gather blocks and distance blocks) equals the dense one."""
    X, Y = _sparse_data(negative=negative)
    dense = _rank(X, Y, n_neighbors=4, scaling=scaling)
    monkeypatch.setattr(relief, "GATHER_ENTRIES", 50)
    monkeypatch.setattr(relief, "BLOCK_BYTES", 8 * 40 * 3)
    monkeypatch.setattr(relief, "DENSE_FILL", 2.0)  # never densify
    sparse = _rank(sp.csr_matrix(X), Y, n_neighbors=4, scaling=scaling)
    np.testing.assert_allclose(sparse.scores, dense.scores, rtol=1e-9, atol=1e-12)
    assert sparse.order.tolist() == dense.order.tolist()
    if scaling == "minmax":
        assert_same_ranking(sparse.order, sparse.scores, oracle(X, Y, 4), **ORACLE_TOL)


def test_sparse_x_is_never_densified(monkeypatch):
    """Check that a sparse X is not turned dense: toarray on the whole matrix
    would fail here."""
    X, Y = _sparse_data(n=30, m=10)
    Xc = sp.csr_matrix(X)
    monkeypatch.setattr(relief, "DENSE_FILL", 2.0)
    seen = []
    original = sp.csr_matrix.toarray

    def watched(self, *args, **kwargs):
        seen.append(self.shape)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sp.csr_matrix, "toarray", watched)
    rank_rfml(Xc, Y, k=3, rng=np.random.default_rng(0), n_neighbors=3)
    assert (30, 10) not in seen


def test_default_uses_every_instance_and_not_the_generator():
    """Check that n_samples=0 (the default) is deterministic: same bits, and
    the generator is left untouched."""
    X, Y = _data(seed=3)
    rng = np.random.default_rng(7)
    state = rng.bit_generator.state
    a = rank_rfml(X, Y, k=6, rng=rng)
    assert rng.bit_generator.state == state
    b = rank_rfml(X, Y, k=6, rng=np.random.default_rng(99))
    assert a.scores.tobytes() == b.scores.tobytes()
    assert get_method("RF-ML").defaults == {
        "n_neighbors": 10,
        "n_samples": 0,
        "scaling": "minmax",
    }


def test_seeded_sample_of_references_is_reproducible():
    """Check that n_samples < n draws that many distinct references from the
    seed (the oracle on the same rows agrees), the same seed giving the same
    bits and another seed other references."""
    X, Y = _data(seed=4, n=40)
    a = compute_ranking(X, Y, "RF-ML", random_state=3, n_samples=10, n_neighbors=3)
    b = compute_ranking(X, Y, "RF-ML", random_state=3, n_samples=10, n_neighbors=3)
    c = compute_ranking(X, Y, "RF-ML", random_state=4, n_samples=10, n_neighbors=3)
    assert a.scores.tobytes() == b.scores.tobytes()
    assert not np.array_equal(a.scores, c.scores)
    rows = np.sort(np.random.default_rng(3).choice(40, size=10, replace=False))
    assert_same_ranking(a.order, a.scores, oracle(X, Y, 3, rows=rows), **ORACLE_TOL)
    full = compute_ranking(X, Y, "RF-ML", n_samples=40, n_neighbors=3)
    np.testing.assert_allclose(full.scores, oracle(X, Y, 3), rtol=1e-9)


@pytest.mark.parametrize(
    "case",
    ["constant-feature", "label-never-present", "duplicate-rows", "n2", "n1", "same"],
)
def test_scores_stay_finite_on_degenerate_data(case):
    """Check finite weights (and the oracle's) on degenerate data: N_Y = 0
    (identical labels), N_Y = m (two rows with opposite labels), one row."""
    X, Y = _data(seed=6, n=8, m=4, q=3)
    if case == "constant-feature":
        X[:, 1] = 2.5
    elif case == "label-never-present":
        Y[:, 2] = 0
    elif case == "duplicate-rows":
        X[1], Y[1] = X[0], Y[0]
        X[2] = X[0]
    elif case == "n2":
        X, Y = X[:2], np.array([[1, 0, 1], [0, 1, 0]])
    elif case == "n1":
        X, Y = X[:1], Y[:1]
    else:
        Y[:] = Y[0]
    r = _rank(X, Y, n_neighbors=3)
    assert np.all(np.isfinite(r.scores))
    if X.shape[0] > 1:
        assert_same_ranking(r.order, r.scores, oracle(X, Y, 3), **ORACLE_TOL)
    else:
        assert r.scores.tolist() == [0.0] * 4
    if case == "constant-feature":
        assert r.scores[1] == 0.0


def test_equal_scores_rank_by_lowest_index():
    """Check that two identical columns score alike and the lower index wins."""
    X, Y = _data(seed=8)
    X[:, 4] = X[:, 1]
    r = _rank(X, Y, n_neighbors=3)
    assert r.scores[1] == r.scores[4]
    order = r.order.tolist()
    assert order.index(1) == order.index(4) - 1


def test_bad_options_name_the_parameter():
    X, Y = _data()
    with pytest.raises(ConfigError, match="n_neighbors"):
        rank_features(X, Y, "RF-ML", n_neighbors=0)
    with pytest.raises(ConfigError, match="scaling"):
        rank_features(X, Y, "RF-ML", scaling="robust")


def test_usable_as_every_method_is(tmp_path):
    """Check RF-ML through rank_features, the scikit-learn selector and the
    command line, with its family and citation."""
    X, Y = _data(seed=9, m=5)
    expected = np.argsort(-oracle(X, Y, 10), kind="stable")
    assert rank_features(X, Y, "RF-ML", k=3).tolist() == expected[:3].tolist()
    selector = MultiLabelSelector("RF-ML", k=2).fit(X, Y)
    assert np.flatnonzero(selector.get_support()).tolist() == sorted(expected[:2])
    spec = get_method("RF-ML")
    assert spec.family == "instance-based" and spec.score_kind == "score"
    assert "ReliefF" in spec.citation and "Spolaôr" in spec.citation
    path = write_mulan(
        Dataset(X, Y, [f"w{i}" for i in range(5)], ["a", "b", "c", "d"]),
        tmp_path,
        "tiny",
    )
    out = tmp_path / "r.csv"
    command = [sys.executable, "-m", "mlfs_core", "rank", str(path)]
    command += ["--method", "RF-ML", "--k", "3", "--out", str(out)]
    subprocess.run(command, check=True, capture_output=True)
    table = pd.read_csv(out)
    assert table["feature_index"].tolist() == expected[:3].tolist()
