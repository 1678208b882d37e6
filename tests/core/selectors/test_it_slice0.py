"""The w = 0 slice of the step sums and the entry structures it reads.

:func:`mlfs_core.selectors.it.triples._overlapping_part` takes the (f, i)
group totals of the ``s = 0`` rows as the static ``alpha`` minus the
products' sums, keeps ``sum T(remainder)`` per feature up to date at the
entries the products hit (:attr:`.data.Entries.count_tsum`), and reads each
entry's pair count as a repeat of its (f, v) row's
(:attr:`.data.Entries.row_sizes`). These tests force entries hit by two
codes of s, features with several codes, and both the gathered and the
all-features path, and compare with a dense count and the naive oracle.
"""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import check_rng
from mlfs_core.selectors.it import pairs
from mlfs_core.selectors.it.codes import prepare_codes
from mlfs_core.selectors.it.terms import compute_statics

from .test_greedy_oracle import assert_ranks_as_naive, assert_step_terms_as_dense, tsum


def _codes(seed: int):
    """Features of 2 to 5 codes; s = 0 has three non-mode codes on shared rows."""
    rng = check_rng(100 + seed)
    n, m, q = 60, 9, 3 + seed % 2
    codes = rng.integers(0, 2 + seed % 4, size=(n, m))
    codes[rng.random((n, m)) < 0.55] = 0
    codes[:, 0] = np.where(rng.random(n) < 0.5, 0, rng.integers(1, 4, n))
    codes[: n // 3, 7] = 0  # apart from some, overlapping others
    codes[:, 8] = codes[:, 0]  # every (f = v, l_i) entry hit by one code of s
    Y = (rng.random((n, q)) < 0.4).astype(np.int8)
    return codes, Y


@pytest.mark.parametrize("seed", range(4))
def test_label_sums_equal_the_dense_count(seed, overlap_share):
    """Check H(f, s) and sum_i H(f, s, l_i) on the gathered and all-features path."""
    codes, Y = _codes(seed)
    assert_step_terms_as_dense(codes, Y, (0, 3, 7))


def test_entry_structures_equal_direct_counts():
    """Check count_tsum and row_sizes against the stored (f, v, i) counts."""
    codes, Y = _codes(1)
    problem = prepare_codes(codes, Y)
    entries = problem.entries
    fl = problem.feature_label[:, 1:, :]  # codes >= 1
    t = np.where(fl > 0, fl * np.log2(np.maximum(fl, 1)), 0.0)
    np.testing.assert_allclose(entries.count_tsum, t.sum(axis=(1, 2)), atol=1e-12)
    assert entries.row_sizes.tolist() == (fl > 0).sum(axis=2).tolist()


def test_group_sums_are_exact_integers_per_group():
    """Check group_sums adds the values of each (f, i) group of the positions."""
    codes, Y = _codes(2)
    entries = prepare_codes(codes, Y).entries
    positions = np.arange(0, entries.counts.size, 2)
    groups, sums = entries.group_sums(positions, entries.counts[positions])
    expected = np.bincount(
        entries.group[positions],
        weights=entries.counts[positions],
        minlength=entries.group_f.size,
    )
    assert groups.tolist() == np.flatnonzero(expected).tolist()
    assert sums.tolist() == expected[groups].astype(int).tolist()


@pytest.mark.parametrize("method", ["PMU", "D2F", "MDMR"])
def test_rankings_with_several_codes_match_the_oracle(method, overlap_share):
    """Check whole rankings with multi-code features against the naive oracle."""
    codes, Y = _codes(3)
    assert_ranks_as_naive(codes, Y, method)


@pytest.mark.parametrize("seed", range(3))
def test_dense_pair_folds_group_codes_by_mask(seed):
    """Check the dense fold kernel (codes grouped per (f, j)) against a dense count."""
    codes, Y = _codes(seed)
    problem = prepare_codes(codes, Y)
    statics = compute_statics(problem)
    n, q = codes.shape[0], Y.shape[1]
    expected_sum, expected_max = np.zeros(codes.shape[1]), np.zeros(codes.shape[1])
    for f in range(codes.shape[1]):
        total, best = 0.0, 0.0
        for i in range(q):
            for j in range(q):
                if i == j:
                    continue
                h = [
                    np.log2(n) - tsum(np.bincount(c)) / n
                    for c in (
                        codes[:, f],
                        Y[:, i],
                        Y[:, j],
                        codes[:, f] * 2 + Y[:, i],
                        codes[:, f] * 2 + Y[:, j],
                        Y[:, i] * 2 + Y[:, j],
                        (codes[:, f] * 2 + Y[:, i]) * 2 + Y[:, j],
                    )
                ]
                h_f, h_i, h_j, h_fi, h_fj, h_ij, h_fij = h
                interaction = h_f + h_i + h_j - h_fi - h_fj - h_ij + h_fij
                total += max(interaction, 0.0)
                best = max(best, h_fj + h_ij - h_fij - h_j)
        expected_sum[f], expected_max[f] = total, best
    np.testing.assert_allclose(
        pairs.positive_interaction_sum(problem, statics), expected_sum, atol=1e-10
    )
    np.testing.assert_allclose(
        pairs.max_conditional(problem, statics), expected_max, atol=1e-10
    )
