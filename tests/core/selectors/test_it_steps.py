"""The per-step triple sums locate stored entries the same way on both paths."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import check_rng
from mlfs_core.selectors.it import data
from mlfs_core.selectors.it.codes import prepare_codes

from .test_greedy_oracle import assert_ranks_as_naive


@pytest.mark.parametrize("lookup", [True, False])
@pytest.mark.parametrize("method", ["PMU", "D2F", "MDMR"])
def test_entry_index_and_sorted_search_rank_alike(method, lookup, monkeypatch):
    """Check the dense entry index and the sorted search both rank as the oracle."""
    if not lookup:
        monkeypatch.setattr(data, "LOOKUP_KEYS", 0)
    rng = check_rng(21)
    codes = rng.integers(0, 3, size=(45, 8))
    codes[rng.random(codes.shape) < 0.6] = 0
    Y = (rng.random((45, 4)) < 0.35).astype(np.int8)
    problem = prepare_codes(codes, Y)
    assert (problem.entries._index is not None) == lookup
    assert_ranks_as_naive(codes, Y, method)
