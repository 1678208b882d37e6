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


def _random_selections(seed: int = 0) -> pd.DataFrame:
    """Three datasets x two folds x four methods of random rankings."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rows = [
        (f"d{d}", name, fold, 0, m, rng.permutation(m))
        for d, m in enumerate((30, 57, 101))
        for fold in (0, 1)
        for name in ("A", "B", "C", "D")
    ]
    columns = ["dataset", "method", "fold", "repeat", "n_features", "features"]
    return pd.DataFrame(rows, columns=columns)


@pytest.mark.parametrize("budget", [{"budget": 1}, {"budget": 7}, {"budget_pct": 50}])
def test_similarity_matrix_equals_the_mean_of_pairwise_indices(budget):
    """Check that every cell is the mean of kuncheva_index over the (dataset,
    fold) pairs (the matrix computes all pairs of a fold at once)."""
    import numpy as np

    from mlfs_core._validation import budget_from_percent

    table = _random_selections()
    matrix = similarity_matrix(table, **budget)
    for a in "ABCD":
        for b in "ABCD":
            if a >= b:
                continue
            values = []
            for (_, _), group in table.groupby(["dataset", "fold"], sort=True):
                rows = group.set_index("method")
                m = int(rows.loc[a, "n_features"])
                k = budget.get("budget") or budget_from_percent(budget["budget_pct"], m)
                top_a, top_b = rows.loc[a, "features"][:k], rows.loc[b, "features"][:k]
                values.append(kuncheva_index(top_a, top_b, m))
            expected = pytest.approx(sum(values) / len(values), rel=1e-12, abs=0)
            assert matrix.loc[a, b] == matrix.loc[b, a] == expected
    assert np.all(np.diag(matrix.to_numpy()) == 1.0)


def test_similarity_matrix_still_rejects_a_subset_with_duplicates():
    """Check that a ranking repeating a feature raises kuncheva_index's error."""
    table = _random_selections()
    table.at[0, "features"] = [0, 0, *range(2, 30)]
    with pytest.raises(ValueError, match="without duplicates"):
        similarity_matrix(table, budget=5)
