"""Co-occurrence totals from the records, and (f, i) groups on both lookup paths.

:class:`mlfs_core.selectors.it.pairs_sparse.PairCounts` sums each feature's
(code, label pair) records into (feature, label pair) totals by merging
their sorted runs; :meth:`mlfs_core.selectors.it.data.Entries.group_of`
locates groups through a dense index or a sorted search. These tests compare
the totals with a direct product and the pair sums on both lookup paths with
the dense kernel.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core import check_rng
from mlfs_core.selectors.it import data, pairs, pairs_sparse
from mlfs_core.selectors.it.codes import prepare_codes


def _problem(seed: int, bins: int):
    rng = check_rng(seed)
    n, m, q = 60, 9, 5
    codes = rng.integers(0, bins, size=(n, m))
    codes[rng.random((n, m)) < 0.6] = 0
    Y = (rng.random((n, q)) < 0.45).astype(np.int8)
    return codes, prepare_codes(codes, Y)


@pytest.mark.parametrize("bins", [2, 3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_totals_equal_the_product_of_presence_and_label_pairs(seed, bins):
    """Check totals (f, pair, S) and each record's total against X^T P."""
    codes, problem = _problem(seed, bins)
    counts = pairs_sparse.PairCounts(problem)
    features = np.arange(codes.shape[1])
    (f, v, pair, s), (g_f, g_pair, big_s), where = counts.counts(features)
    present = sp.csr_matrix((problem.codes != 0).T.astype(float))
    want = sp.coo_matrix(present @ counts.pairs)
    want_keys = want.row * counts.pairs.shape[1] + want.col
    got_keys = g_f * counts.pairs.shape[1] + g_pair
    order = np.argsort(want_keys)
    assert got_keys.tolist() == want_keys[order].tolist()
    assert big_s.tolist() == np.rint(want.data[order]).astype(int).tolist()
    assert big_s.sum() > 0  # the data has shared samples
    np.testing.assert_array_equal(g_f[where], f)
    np.testing.assert_array_equal(g_pair[where], pair)
    np.testing.assert_array_equal(np.bincount(where, weights=s), big_s)


@pytest.mark.parametrize("lookup", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_pair_sums_on_both_group_lookups(seed, lookup, monkeypatch):
    """Check sum_{i<j} H(f, l_i, l_j) with the dense group index and without."""
    if not lookup:
        monkeypatch.setattr(data, "GROUP_LOOKUP_KEYS", 0)
    _, problem = _problem(seed, 3)
    assert (problem.entries._group_index is not None) == lookup
    dense = np.zeros(problem.n_features)
    for fs, _, _, h3 in pairs.triple_blocks(problem):
        dense[fs] += h3.sum(axis=1)
    np.testing.assert_allclose(
        pairs.triple_entropy_sum(problem), dense, rtol=0, atol=1e-9
    )
