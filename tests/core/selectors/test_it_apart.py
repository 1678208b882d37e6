"""The step terms of features apart from s equal a dense count, on both paths.

:mod:`mlfs_core.selectors.it.triples` counts exactly only the features that
share a non-mode sample with the new feature s and gives the others (apart
from s) closed forms per mode count and per (label, mode count, alpha) key.
These tests force the split (``OVERLAP_SHARE = 1``: every apart feature on
the closed forms) and its absence (``OVERLAP_SHARE = 0``: every feature
counted) and compare both with tables counted densely here and with the
naive oracle.
"""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import check_rng
from mlfs_core.selectors.it import triples
from mlfs_core.selectors.it.codes import prepare_codes

from .test_greedy_oracle import assert_ranks_as_naive, assert_step_terms_as_dense


def _codes(seed: int):
    """Mostly-mode codes with several codes, overlapping and apart features."""
    rng = check_rng(seed)
    n, m, q, bins = 40 + 5 * seed, 10, 2 + seed % 3, 2 + seed % 3
    codes = rng.integers(0, bins, size=(n, m))
    codes[rng.random((n, m)) < 0.8] = 0
    codes[:, 3] = 0  # a constant feature (s with no non-mode sample)
    codes[: n // 2, 4] = 0  # features 4 and 5 never share a non-mode sample
    codes[n // 2 : n // 2 + 4, 4] = 1
    codes[n // 2 :, 5] = 0
    codes[:3, 5] = bins - 1
    codes[:, 6] = np.where(rng.random(n) < 0.7, 1, 2)  # mode is not code 0
    Y = (rng.random((n, q)) < 0.3).astype(np.int8)
    Y[:, 0] = codes[:, 0] > 0
    return codes, Y


@pytest.mark.parametrize("seed", range(5))
def test_step_terms_equal_the_dense_count(seed, overlap_share):
    """Check H(f, s) and sum_i H(f, s, l_i) for every s against dense tables."""
    codes, Y = _codes(seed)
    assert_step_terms_as_dense(codes, Y, range(codes.shape[1]))


def test_split_is_taken_and_apart_features_are_found():
    """Check the overlap set: features 4 and 5 are apart, s = 3 has none."""
    codes, Y = _codes(0)
    problem = prepare_codes(codes, Y)

    def rows(s):
        column = problem.codes[:, s].toarray().ravel()
        return [np.flatnonzero(column == w) for w in range(1, int(problem.n_bins[s]))]

    assert triples.overlap_of(problem, rows(3)).size == 0
    overlap = triples.overlap_of(problem, rows(4))
    assert 4 in overlap and 5 not in overlap
    assert overlap.size < codes.shape[1]


@pytest.mark.parametrize("method", ["PMU", "D2F", "MDMR", "SCLS", "LSMFS"])
def test_rankings_match_the_naive_oracle_on_both_paths(method, overlap_share):
    """Check full rankings and paths with and without the apart closed forms."""
    codes, Y = _codes(3)
    assert_ranks_as_naive(codes, Y, method)
