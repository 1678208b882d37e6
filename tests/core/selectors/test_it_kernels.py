"""The compiled kernels of the exact terms equal the numpy paths.

:mod:`mlfs_core.selectors.it.kernels` replaces the numpy passes of
:mod:`mlfs_core.selectors.it.pairs_sparse` (the shared-sample changes and
the touched-pair corrections) with loops that make the same operations in
the same order, and so do the w = 0 slice sums of the steps
(:mod:`mlfs_core.selectors.it.triples`) and the touched-pair loops of the
sparse folds (:mod:`mlfs_core.selectors.it.pair_folds`). These tests run
both paths (``data.COMPILED`` on and off) on data with shared samples, one
to four non-mode codes, the sparse folds forced and tiny chunks, and compare
the values exactly (the step sums to 1e-13, relative: their kernel sums per
feature, not in the numpy path's chunks), and the rankings with the naive
oracle.
"""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import check_rng
from mlfs_core.selectors.it import (
    data,
    kernels,
    pair_folds,
    pair_max,
    pairs,
    pairs_sparse,
    triples,
)
from mlfs_core.selectors.it.codes import prepare_codes
from mlfs_core.selectors.it.terms import compute_statics, step_terms

from ...fresh import imported_after
from .test_greedy_oracle import assert_ranks_as_naive


@pytest.fixture(autouse=True)
def _compiled_at_any_size(monkeypatch):
    """The kernels on this file's small problems (the engine keeps them for
    problems of at least ``data.COMPILED_FROM`` feature-label pairs)."""
    monkeypatch.setattr(data, "COMPILED_FROM", 0)


def _problem(seed: int, bins: int, rate: float = 0.45):
    """Mostly-mode codes and labels dense enough for shared label pairs."""
    rng = check_rng(seed)
    n, m, q = 70, 14, 6
    codes = rng.integers(0, bins, size=(n, m))
    codes[rng.random((n, m)) < 0.6] = 0
    codes[:, 3] = 0  # a constant feature
    Y = (rng.random((n, q)) < rate).astype(np.int8)
    return codes, Y, prepare_codes(codes, Y)


def _both_paths(monkeypatch, fn):
    """``fn()`` with the kernels, then on the numpy paths."""
    monkeypatch.setattr(data, "COMPILED", True)
    compiled = fn()
    monkeypatch.setattr(data, "COMPILED", False)
    return compiled, fn()


def test_lookup_clips_as_take():
    """Check T[c] of the kernels clips c to [0, n] as np.take(mode="clip")."""
    table = np.array([0.0, 0.5, 2.0, 4.75])
    got = [kernels._tv(table, c) for c in (-3, 0, 2, 3, 9)]
    assert got == np.take(table, [-3, 0, 2, 3, 9], mode="clip").tolist()


def test_read_only_install_compiles_uncached(monkeypatch):
    """Check kernels still compile where numba finds no writable cache folder."""
    real = kernels.numba.njit
    calls = []

    def njit(*args, **options):
        calls.append(options)
        if options.get("cache"):  # what numba raises without a cache locator
            raise RuntimeError("cannot cache function: no locator available")
        return real(*args, **options)

    monkeypatch.setattr(kernels.numba, "njit", njit)

    def double(x):
        return 2 * x

    assert kernels._jit(double)(21) == 42
    assert calls == [{"cache": True}, {}]


@pytest.mark.parametrize("bins", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_shared_deltas_equal_the_product_path(seed, bins, monkeypatch):
    """Check the keys and values of every (f, t, u) with shared samples."""
    _, _, problem = _problem(seed, bins)
    both = pairs._label_pair_counts(problem)
    entries = pairs_sparse._touched(problem)
    compiled = pairs_sparse.pair_counts(problem, both)
    assert isinstance(compiled, pairs_sparse.CompiledPairCounts)
    numpy_counts = pairs_sparse.PairCounts(problem)
    features = np.array([0, 2, 3, 5, 6, 9, 13])
    keys, deltas = pairs_sparse.shared_cell_deltas(
        problem, both, entries, compiled, features
    )
    want_keys, want = pairs_sparse.shared_cell_deltas(
        problem, both, entries, numpy_counts, features
    )
    assert keys.size > 20  # the data has shared samples
    assert keys.tolist() == want_keys.tolist()
    np.testing.assert_array_equal(deltas, want)


@pytest.mark.parametrize("bins", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_pair_sum_equals_the_numpy_path(seed, bins, monkeypatch):
    """Check sum_{i<j} of the (f, l_i, l_j) T-sums, and against the dense blocks."""
    _, _, problem = _problem(seed, bins)
    both = pairs._label_pair_counts(problem)
    compiled, numpy_path = _both_paths(
        monkeypatch, lambda: pairs_sparse.triple_tsum_sum(problem, both)
    )
    np.testing.assert_array_equal(compiled, numpy_path)
    dense = np.zeros(problem.n_features)
    monkeypatch.setattr(data, "COMPILED", True)
    for fs, _, _, h3 in pairs.triple_blocks(problem):
        dense[fs] += h3.sum(axis=1)
    np.testing.assert_allclose(
        pairs.triple_entropy_sum(problem), dense, rtol=0, atol=1e-9
    )


def test_large_scratch_falls_back_to_the_product(monkeypatch):
    """Check the numpy path is taken when the scratch table would be too big."""
    monkeypatch.setattr(pair_folds, "_worth_sparse", lambda problem, light: True)
    monkeypatch.setattr(pair_folds, "_HEAVY", 0)
    _, _, problem = _problem(0, 3, rate=0.3)
    both = pairs._label_pair_counts(problem)
    statics = compute_statics(problem)

    def terms():
        return [
            pairs_sparse.triple_tsum_sum(problem, both),
            pair_folds.positive_interaction_sum(problem, statics),
            pair_max.max_conditional_sparse(problem, statics),
        ]

    want = terms()
    monkeypatch.setattr(pairs_sparse, "_KERNEL_SCRATCH", 10)
    assert isinstance(pairs_sparse.pair_counts(problem, both), pairs_sparse.PairCounts)
    for got, expected in zip(terms(), want):  # the product, compiled corrections
        np.testing.assert_array_equal(got, expected)
    monkeypatch.setattr(pairs_sparse, "_KERNEL_SCRATCH", 1 << 24)
    monkeypatch.setattr(data, "COMPILED", False)
    assert isinstance(pairs_sparse.pair_counts(problem, both), pairs_sparse.PairCounts)
    assert data.kernels() is None


@pytest.mark.parametrize("bins", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_sparse_folds_equal_the_numpy_path(seed, bins, monkeypatch):
    """Check LSMFS's and MLSMFS's folds with every feature on the sparse path."""
    monkeypatch.setattr(pair_folds, "_worth_sparse", lambda problem, light: True)
    monkeypatch.setattr(pair_folds, "_HEAVY", 0)
    _, _, problem = _problem(seed, bins, rate=0.3)
    statics = compute_statics(problem)
    for fold in (
        pair_folds.positive_interaction_sum,
        pair_max.max_conditional_sparse,
    ):
        compiled, numpy_path = _both_paths(monkeypatch, lambda: fold(problem, statics))
        np.testing.assert_array_equal(compiled, numpy_path)
        assert np.abs(compiled).max() > 0


@pytest.mark.parametrize("method", ["PMU", "LRFS", "LSMFS", "MLSMFS"])
@pytest.mark.parametrize("seed", range(2))
def test_compiled_rankings_equal_the_naive_oracle(method, seed, monkeypatch):
    """Check full rankings and paths with the kernels on data with shared pairs."""
    monkeypatch.setattr(pair_folds, "_worth_sparse", lambda problem, light: True)
    codes, Y, _ = _problem(seed, 3, rate=0.3)
    assert_ranks_as_naive(codes, Y, method)


@pytest.mark.parametrize("chunk", [3, 1 << 16])
@pytest.mark.parametrize("bins", [2, 3, 5])
@pytest.mark.parametrize("seed", range(3))
def test_step_sums_equal_the_numpy_path(seed, bins, overlap_share, chunk, monkeypatch):
    """Check every step term, gathered and all-features paths, tiny chunks.

    H(f, s) is bit-identical; the label sums equal to 1e-13 (relative),
    since the kernel sums each feature's cells in one loop, not in chunks.
    """
    monkeypatch.setattr(triples, "_CHUNK", chunk)
    _, _, problem = _problem(seed, bins)
    for s in (0, 1, 3, 7):
        compiled, numpy_path = _both_paths(
            monkeypatch, lambda s=s: step_terms(problem, s, with_labels=True)
        )
        np.testing.assert_array_equal(compiled.h_fs, numpy_path.h_fs)
        # The step kernel sums per feature in its own order: equal to rounding.
        np.testing.assert_allclose(
            compiled.h_fsl_sum, numpy_path.h_fsl_sum, rtol=1e-13, atol=0
        )
    assert np.abs(compiled.h_fsl_sum).max() > 0


@pytest.mark.parametrize("method", ["PMU", "D2F", "MDMR"])
@pytest.mark.parametrize("seed", range(2))
def test_compiled_steps_rank_as_the_naive_oracle(method, seed, monkeypatch):
    """Check full rankings and paths of the triple-sum methods with tiny chunks."""
    monkeypatch.setattr(triples, "_CHUNK", 5)
    codes, Y, _ = _problem(seed, 4)
    assert_ranks_as_naive(codes, Y, method)


def test_small_problems_take_the_numpy_paths(monkeypatch):
    """Check that below ``COMPILED_FROM`` feature-label pairs no kernel is used,
    from that size on they are, and that off means off at any size."""
    _, _, problem = _problem(0, 3)
    size = problem.n_features * problem.n_labels
    monkeypatch.setattr(data, "COMPILED_FROM", size + 1)
    assert data.kernels(problem) is None
    both = pairs._label_pair_counts(problem)
    assert isinstance(pairs_sparse.pair_counts(problem, both), pairs_sparse.PairCounts)
    monkeypatch.setattr(data, "COMPILED_FROM", size)
    assert data.kernels(problem) is not None
    assert isinstance(
        pairs_sparse.pair_counts(problem, both), pairs_sparse.CompiledPairCounts
    )
    monkeypatch.setattr(data, "COMPILED", False)
    assert data.kernels(problem) is None


def test_ranking_a_small_dataset_does_not_import_numba():
    """Check in a fresh interpreter that every IT method on emotions-sized data
    ranks without loading numba (its import alone costs more than the ranking)."""
    code = (
        "import numpy as np\n"
        "from mlfs_core import compute_ranking\n"
        "rng = np.random.default_rng(0)\n"
        "X = rng.random((200, 70)); Y = (rng.random((200, 6)) < 0.3).astype(int)\n"
        "for m in ('PMU', 'LRFS', 'LSMFS', 'MLSMFS', 'D2F', 'MDMR'):\n"
        "    compute_ranking(X, Y, m, k=5)\n"
    )
    assert imported_after(code, ["numba"]) == []
