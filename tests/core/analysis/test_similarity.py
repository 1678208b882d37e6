"""Tests of mlfs_core.analysis.similarity (Kuncheva index)."""

from __future__ import annotations

import pandas as pd
import pytest

from mlfs_core.analysis import kuncheva_index, similarity_matrix


@pytest.mark.parametrize(
    ("a", "b", "m", "expected"),
    [
        ([0, 1, 2], [0, 1, 2], 10, 1.0),
        ([0, 1, 2], [3, 4, 5], 10, (0 * 10 - 9) / (3 * 7)),  # -3/7
        ([0, 1, 2], [2, 1, 7], 10, (2 * 10 - 9) / (3 * 7)),  # 11/21
        ([0, 1], [2, 3], 4, -1.0),
        ([0], [0], 2, 1.0),
    ],
)
def test_kuncheva_index_hand_values(a, b, m, expected):
    """Check that the Kuncheva index matches hand-computed values."""
    assert kuncheva_index(a, b, m) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("a", "b", "m"),
    [([0], [0, 1], 5), ([0, 1], [0, 1], 2), ([], [], 3), ([0, 0], [1, 2], 5)],
)
def test_kuncheva_index_rejects_bad_input(a, b, m):
    """Check that unequal sizes, duplicates, k = 0 and k = M raise ValueError."""
    with pytest.raises(ValueError):
        kuncheva_index(a, b, m)


def test_similarity_matrix_averages_folds_and_datasets():
    """Check that the matrix averages over (dataset, fold) pairs and skips AF."""
    rows = [
        ("d1", "A", 0, 0, 10, [0, 1, 2, 3]),
        ("d1", "B", 0, 0, 10, [0, 1, 5, 6]),
        ("d1", "A", 1, 0, 10, [0, 1, 2, 3]),
        ("d1", "B", 1, 0, 10, [0, 1, 2, 6]),
        ("d1", "AF", 0, 0, 10, list(range(10))),
        ("d1", "B", 0, 1, 10, [9, 8, 7, 6]),  # repeat 1 is ignored
    ]
    sel = pd.DataFrame(
        rows, columns=["dataset", "method", "fold", "repeat", "n_features", "features"]
    )
    out = similarity_matrix(sel, budget=2)
    assert list(out.index) == ["A", "B"]
    assert out.loc["A", "B"] == pytest.approx(1.0)
    out = similarity_matrix(sel, budget_pct=30)  # k = 3
    expected = (kuncheva_index([0, 1, 2], [0, 1, 5], 10) + 1.0) / 2
    assert out.loc["B", "A"] == pytest.approx(expected)
    assert out.loc["A", "A"] == 1.0
