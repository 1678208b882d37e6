"""RoR/RaR on each label's top k only: the same rankings as full per-label sorts."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import aggregation
from mlfs_core.aggregation import per_label_orders, rand_robin, round_robin


def _scores(seed: int, q: int = 7, m: int = 60) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # few distinct values: many exact ties, also at the k-th position
    return rng.integers(0, 4, size=(q, m)).astype(np.float64) / 3.0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [1, 2, 5, 17, 59])
def test_top_orders_are_the_full_orders_cut_at_k(seed, k, monkeypatch):
    """Check each label's top k equals the first k of its full stable order."""
    monkeypatch.setattr(aggregation, "_BLOCK_CELLS", 100)  # several label blocks
    S = _scores(seed)
    full = np.argsort(-S, axis=1, kind="stable")
    assert np.array_equal(per_label_orders(S, k), full[:, :k])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [1, 3, 10, 30, 59, 60])
def test_round_robin_and_rand_robin_equal_the_full_sort_merge(seed, k):
    """Check RoR and RaR pick the same features whether the orders are cut or full."""
    S = _scores(seed)
    full = np.argsort(-S, axis=1, kind="stable")
    assert np.array_equal(round_robin(S, k), round_robin(S, k, orders=full))
    positives = np.arange(1, S.shape[0] + 1)
    partial = rand_robin(S, positives, k, rng=np.random.default_rng(seed))
    reference = rand_robin(
        S, positives, k, rng=np.random.default_rng(seed), orders=full
    )
    assert np.array_equal(partial, reference)
    assert len(set(partial.tolist())) == k


def test_cut_orders_shorter_than_k_are_refused():
    """Check orders cut below k raise instead of returning a wrong ranking."""
    S = _scores(0)
    with pytest.raises(ValueError, match="need 5"):
        round_robin(S, 5, orders=per_label_orders(S, 3))
