"""The sparse label-pair folds of LSMFS and MLSMFS equal the dense kernel.

:mod:`mlfs_core.selectors.it.pair_folds` splits each feature's label pairs
by whether its non-mode samples carry the labels; these tests force that
path (every feature sparse, or a mix, tiny chunks, no or one round of best
partners so that the scans fall back) and compare with the dense blocks of
:mod:`mlfs_core.selectors.it.pairs` and with the naive oracle.
"""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import check_rng
from mlfs_core.selectors.it import pair_folds, pair_max, pairs, pairs_sparse
from mlfs_core.selectors.it.codes import prepare_codes
from mlfs_core.selectors.it.terms import compute_statics

from .test_greedy_oracle import assert_ranks_as_naive


def _sparse_codes(seed: int):
    """Mostly-mode codes (several non-mode codes), few labels per sample."""
    rng = check_rng(seed)
    n, m, q, bins = 50 + 7 * seed, 12, 3 + seed % 4, 2 + seed % 3
    codes = rng.integers(0, bins, size=(n, m))
    codes[rng.random((n, m)) < 0.75] = 0
    codes[:, 5] = 0  # a constant feature
    Y = (rng.random((n, q)) < 0.3).astype(np.int8)
    Y[:, 0] = codes[:, 0] > 0
    return codes, Y


@pytest.fixture(params=["all-sparse", "mixed", "fallbacks", "one-round"])
def forced(request, monkeypatch):
    """Force the sparse path (every feature, some, or with every scan falling back)."""
    monkeypatch.setattr(pair_folds, "_worth_sparse", lambda problem, light: True)
    if request.param == "all-sparse":
        monkeypatch.setattr(pair_folds, "_HEAVY", 0)
    elif request.param == "mixed":
        monkeypatch.setattr(pair_folds, "_HEAVY", 2)
    elif request.param == "fallbacks":
        monkeypatch.setattr(pair_folds, "_HEAVY", 0)
        monkeypatch.setattr(pair_max, "_ROUNDS", 0)  # every row scanned in full
        monkeypatch.setattr(pair_max, "_FALLBACK_ROWS", 2)
        monkeypatch.setattr(pair_max, "_FALLBACK_ITEMS", 2)
        monkeypatch.setattr(pair_max, "_KEY_CHUNK", 3)
        monkeypatch.setattr(pair_folds, "_KEY_CHUNK", 3)
        monkeypatch.setattr(pair_folds, "_PAIR_CHUNK", 4)
        monkeypatch.setattr(pairs_sparse, "_PAIR_CHUNK", 5)
        monkeypatch.setattr(pairs_sparse, "_RECORDS", 3)
    else:  # one round of best partners, then full scans
        monkeypatch.setattr(pair_folds, "_HEAVY", 0)
        monkeypatch.setattr(pair_max, "_ROUNDS", 1)
    return request.param


@pytest.mark.parametrize("seed", range(6))
def test_sparse_folds_equal_the_dense_kernel(seed, forced):
    """Check both folds against the dense blocks, feature by feature."""
    codes, Y = _sparse_codes(seed)
    problem = prepare_codes(codes, Y)
    statics = compute_statics(problem)
    np.testing.assert_allclose(
        pair_folds.positive_interaction_sum(problem, statics),
        pairs.positive_interaction_sum(problem, statics),
        rtol=0,
        atol=1e-10,
    )
    np.testing.assert_allclose(
        pair_max.max_conditional_sparse(problem, statics),
        pairs.max_conditional(problem, statics),
        rtol=0,
        atol=1e-10,
    )


@pytest.mark.parametrize("method", ["LSMFS", "MLSMFS"])
@pytest.mark.parametrize("seed", range(3))
def test_sparse_folds_rank_as_the_naive_oracle(method, seed, forced):
    """Check the full ranking and path on the forced sparse path."""
    codes, Y = _sparse_codes(seed)
    assert_ranks_as_naive(codes, Y, method)


def test_sparse_path_is_taken_on_text_like_data():
    """Check the split sends features touching few labels to the sparse path."""
    rng = check_rng(4)
    n, m, q = 400, 300, 30
    codes = (rng.random((n, m)) < 0.01).astype(int)
    Y = (rng.random((n, q)) < 0.05).astype(np.int8)
    problem = prepare_codes(codes, Y)
    dense, light = pair_folds._split(problem, pair_folds._touched(problem))
    assert light.sum() > 0.9 * m
    assert dense.size + light.sum() == m


@pytest.mark.parametrize("seed", range(4))
def test_pair_sum_in_feature_blocks_equals_the_dense_blocks(seed, monkeypatch):
    """Check sum_{i<j} H(f, l_i, l_j) with one-feature co-occurrence blocks."""
    monkeypatch.setattr(pairs_sparse, "_RECORDS", 1)
    codes, Y = _sparse_codes(seed)
    problem = prepare_codes(codes, Y)
    blocks = list(pairs_sparse.PairCounts(problem).blocks())
    assert len(blocks) > 2
    assert [b[0] for b in blocks[1:]] == [b[1] for b in blocks[:-1]]
    assert (blocks[0][0], blocks[-1][1]) == (0, codes.shape[1])
    dense = np.zeros(codes.shape[1])
    for fs, _, _, h3 in pairs.triple_blocks(problem):
        dense[fs] += h3.sum(axis=1)
    np.testing.assert_allclose(
        pairs.triple_entropy_sum(problem), dense, rtol=0, atol=1e-9
    )


@pytest.mark.parametrize("seed", range(3))
def test_key_order_equals_unique_and_a_stable_sort(seed, monkeypatch):
    """Check the touched entries' key order against np.unique and argsort."""
    monkeypatch.setattr(pair_folds, "_HEAVY", 0)
    codes, Y = _sparse_codes(seed)
    problem = prepare_codes(codes, Y)
    entries = pairs_sparse._touched(problem)
    light = np.ones(problem.n_features, dtype=bool)
    ent = pair_folds._Touched(problem, pair_folds._Labels(problem), entries, light)
    width = problem.n_samples + 1
    unique, inverse, by_key = ent.key_order(width)
    keys = (ent.t * width + ent.x) * width + ent.alpha
    expected, expected_inverse = np.unique(keys, return_inverse=True)
    assert unique.tolist() == expected.tolist()
    assert inverse.tolist() == expected_inverse.ravel().tolist()
    stable = np.argsort(expected_inverse.ravel(), kind="stable")
    assert by_key.tolist() == stable.tolist()
    assert ent.key_order(width) is ent.key_order(width)  # computed once
