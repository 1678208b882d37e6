"""Tests of mlfs_core.analysis.ranks."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core.analysis import average_ranks, dataset_ranks, rank_table, select
from mlfs_core.errors import ConfigError, DroppedBlocksWarning, IncompleteTableError


def _table(rows):
    return pd.DataFrame(rows, columns=["dataset", "method", "value"])


HAND = _table(
    [
        ("d1", "A", 0.9),
        ("d1", "B", 0.8),
        ("d1", "C", 0.8),  # A=1, B=C=2.5
        ("d2", "A", 0.5),
        ("d2", "B", 0.7),
        ("d2", "C", 0.6),  # B=1, C=2, A=3
        ("d3", "A", 0.4),
        ("d3", "B", 0.4),
        ("d3", "C", 0.4),  # all 2
    ]
)


def test_average_ranks_hand_worked_with_ties():
    """Check average ranks and population std against a hand-worked table with ties."""
    out = average_ranks(select(HAND, higher_is_better=True))
    # A: 1, 3, 2 -> mean 2, std sqrt(2/3); B: 2.5, 1, 2 -> 11/6; C: 2.5, 2, 2 -> 13/6
    assert out.loc["A", "mean"] == pytest.approx(2.0)
    assert out.loc["A", "std"] == pytest.approx(np.sqrt(2 / 3))
    assert out.loc["B", "mean"] == pytest.approx(11 / 6)
    assert out.loc["C", "mean"] == pytest.approx(13 / 6)
    assert out.loc["C", "std"] == pytest.approx(np.std([2.5, 2, 2]))
    assert list(out.index) == ["B", "A", "C"]


def test_average_ranks_lower_is_better_reverses():
    """Check that higher_is_better=False gives rank 1 to the smallest value."""
    ranks = dataset_ranks(select(HAND, higher_is_better=False))
    d2 = ranks[ranks["dataset"] == "d2"].set_index("method")["rank"]
    assert d2.to_dict() == {"A": 1.0, "B": 3.0, "C": 2.0}


def test_average_ranks_averages_repeated_rows_first():
    """Check that several rows per (dataset, method) are averaged before ranking."""
    t = _table([("d", "A", 0.0), ("d", "A", 1.0), ("d", "B", 0.6)])
    out = average_ranks(select(t, higher_is_better=True))
    assert out.loc["A", "mean"] == 2.0  # mean 0.5 < 0.6


def test_average_ranks_refuse_or_drop_incomplete_datasets():
    """Check that a dataset missing a method is refused by default (the
    missing cell named) and left out of the ranking with missing="drop-blocks"."""
    t = pd.concat([HAND, _table([("d4", "A", 1.0), ("d4", "B", 0.0)])])
    with pytest.raises(IncompleteTableError, match=r"\('d4', 'C'\)") as info:
        select(t, higher_is_better=True)
    assert info.value.cells == [("d4", "C")]
    assert not isinstance(info.value, ConfigError)
    with pytest.warns(DroppedBlocksWarning, match="dropped 1 incomplete block"):
        chosen = select(t, higher_is_better=True, missing="drop-blocks")
    ranks = average_ranks(chosen)
    assert ranks.loc["A", "mean"] == pytest.approx(2.0)


def test_rank_table_flags_best_and_broadcasts_af():
    """Check that rank_table ranks per budget, copies AF to each and flags the best."""
    rows = []
    for ds, base in [("d1", 0.5), ("d2", 0.6)]:
        for pct, bonus in [(10, 0.0), (20, 0.1)]:
            rows.append((ds, "X", 1, pct, "micro_f1", base + bonus + 0.2))
            rows.append((ds, "Y", 1, pct, "micro_f1", base + bonus))
        rows.append((ds, "AF", 9, 100.0, "micro_f1", base + 0.25))
    res = pd.DataFrame(
        rows, columns=["dataset", "method", "budget", "budget_pct", "metric", "value"]
    )
    out = rank_table(select(res, metric="micro_f1", by=["budget_pct"]))
    assert set(out["budget_pct"]) == {10, 20}
    at10 = out[out["budget_pct"] == 10].set_index("method")
    assert at10.loc["AF", "mean"] == 1.0  # 0.75 beats 0.7 and 0.5
    assert at10.loc["X", "mean"] == 2.0
    at20 = out[out["budget_pct"] == 20].set_index("method")
    assert at20.loc["X", "best"] and not at20.loc["AF", "best"]
    assert (out["n_datasets"] == 2).all()
