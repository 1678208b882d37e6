"""Tests of mlfs_core.selectors.tables (rankings as tidy tables)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core import compute_ranking
from mlfs_core.analysis import recovery_table
from mlfs_core.selectors import Ranking
from mlfs_core.selectors.tables import (
    RANKING_COLUMNS,
    ranking_frame,
    selections_frame,
    topk_side_by_side,
)

FEATS = ["a", "b", "c", "d"]


def _frame(order, scores=(4.0, 3.0, 2.0, 1.0)):
    return ranking_frame(Ranking(np.array(order), np.array(scores)), FEATS)


def test_ranking_frame_lists_features_best_first_with_their_scores():
    """Check positions, indices, names and scores of a hand-made ranking."""
    out = _frame([2, 0, 3], scores=(0.5, 0.1, 0.9, 0.2))
    assert list(out.columns) == RANKING_COLUMNS
    assert out["position"].tolist() == [1, 2, 3]
    assert out["feature_index"].tolist() == [2, 0, 3]
    assert out["feature"].tolist() == ["c", "a", "d"]
    assert out["score"].tolist() == [0.9, 0.5, 0.2]


def test_ranking_frame_of_empty_ranking_has_columns_and_no_rows():
    """Check that an empty order gives an empty table with the four columns."""
    out = _frame([])
    assert out.empty and list(out.columns) == RANKING_COLUMNS


def test_ranking_frame_rejects_wrong_number_of_feature_names():
    """Check that feature_names shorter than the scores raise a ValueError."""
    with pytest.raises(ValueError, match="feature_names has 3 names for 4 features"):
        ranking_frame(Ranking(np.array([0]), np.zeros(4)), FEATS[:3])


def test_ranking_frame_of_a_real_ranking_is_a_permutation(small_xy):
    """Check that a computed full ranking lists every feature once, scores sorted."""
    X, Y = small_xy
    names = [f"f{j}" for j in range(X.shape[1])]
    out = ranking_frame(compute_ranking(X, Y, "MaxCS"), names)
    assert sorted(out["feature_index"]) == list(range(X.shape[1]))
    assert out["score"].is_monotonic_decreasing


def test_topk_side_by_side_marks_shared_features_and_counts_overlap():
    """Check the membership flags and overlap of two hand-made top-3 lists."""
    a, b = _frame([0, 1, 2, 3]), _frame([2, 3, 0, 1])
    table, overlap = topk_side_by_side(a, b, 3, ("A", "B"))
    assert list(table.columns) == ["position", "A", "in B", "B", "in A"]
    assert table["A"].tolist() == ["a", "b", "c"]
    assert table["in B"].tolist() == [True, False, True]
    assert table["B"].tolist() == ["c", "d", "a"]
    assert table["in A"].tolist() == [True, False, True]
    assert overlap == 2


def test_topk_side_by_side_zero_k_and_empty_rankings():
    """Check that k = 0 or empty rankings give an empty table and overlap 0."""
    table, overlap = topk_side_by_side(_frame([0, 1]), _frame([1, 0]), 0, ("A", "B"))
    assert table.empty and overlap == 0
    table, overlap = topk_side_by_side(_frame([]), _frame([]), 5, ("A", "B"))
    assert table.empty and overlap == 0


def test_topk_side_by_side_pads_the_shorter_ranking():
    """Check that a ranking shorter than k leaves NaN names and False flags."""
    table, overlap = topk_side_by_side(_frame([0, 1, 2]), _frame([1]), 3, ("A", "B"))
    assert len(table) == 3 and overlap == 1
    assert table["B"].iloc[0] == "b" and table["B"].iloc[1:].isna().all()
    assert table["in A"].tolist() == [True, False, False]
    assert table["in B"].tolist() == [False, True, False]


def test_topk_side_by_side_keeps_both_columns_for_equal_names():
    """Check that comparing a method with itself keeps two distinct columns."""
    table, overlap = topk_side_by_side(_frame([0, 1]), _frame([1, 2]), 2, ("M", "M"))
    assert list(table.columns) == ["position", "M (1)", "in M (2)", "M (2)", "in M (1)"]
    assert table["M (2)"].tolist() == ["b", "c"] and overlap == 1


def test_selections_frame_feeds_recovery_table():
    """Check the one-fold layout and recovery_table on it (precision by hand)."""
    table = selections_frame("toy", {"A": [0, 5, 1], "B": np.array([5, 6, 7])})
    assert table.columns.tolist() == ["dataset", "method", "fold", "repeat", "features"]
    assert table["dataset"].tolist() == ["toy", "toy"]
    assert table["features"].iloc[0].dtype == np.int64
    out = recovery_table(table, [0, 1], ks=[2, 3])
    got = out.set_index(["method", "k"])["precision"]
    assert got[("A", 2)] == 0.5 and got[("A", 3)] == pytest.approx(2 / 3)
    assert got[("B", 3)] == 0.0


def test_selections_frame_without_methods_is_empty():
    """Check that no rankings give an empty table that still has every column."""
    table = selections_frame("toy", {})
    assert table.empty
    assert isinstance(table, pd.DataFrame) and "features" in table.columns


def test_ranking_frame_of_a_greedy_ranking_shows_the_criterion_path(small_xy):
    """Check that greedy rankings show J(f | S) per step, not n - position."""
    X, Y = small_xy
    result = compute_ranking(X, Y, "PMU", k=4)
    out = ranking_frame(result, [f"f{j}" for j in range(X.shape[1])])
    np.testing.assert_array_equal(out["score"].to_numpy(), result.criterion_path)
    assert out["feature_index"].tolist() == result.order.tolist()
