"""Tests of mlfs_core.views.results: directions, post-hoc blocks, curve bands."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core.analysis import nemenyi_pvalues, select, wilcoxon_holm
from mlfs_core.views import (
    POSTHOC_ALPHA,
    block_at_budget,
    curve_bands,
    friedman_at,
    known_direction,
    metric_direction,
    metric_label,
    pairwise_pvalues,
    read_band,
    similarity_part,
)

COLUMNS = ["dataset", "method", "budget", "budget_pct", "fold", "metric", "value"]


def _table(seed=0, metric="micro_f1", datasets=4):
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(datasets):
        for fold in range(3):
            for pct in (10.0, 20.0):
                for m in ("MaxCS", "MeanCS", "PMU"):
                    rows.append((f"d{d}", m, 2, pct, fold, metric, rng.random()))
            rows.append((f"d{d}", "AF", 20, 100.0, fold, metric, rng.random()))
    return pd.DataFrame(rows, columns=COLUMNS)


def test_an_unknown_metric_counts_as_higher_is_better_and_says_so():
    """Check the registry's direction, the fallback and the selector's words."""
    assert metric_direction("hamming_loss") is False
    assert metric_direction("micro_f1") is True
    assert metric_direction("uploaded_score") is True
    assert known_direction("uploaded_score") is None
    assert metric_label("micro_f1") == "micro_f1 (higher is better)"
    assert "unknown metric: ranked as higher is better" in metric_label("x")


def test_the_block_at_a_budget_holds_the_all_features_baseline():
    """Check the post-hoc block: the methods at the budget, AF beside them, and
    the tests on it equal the analysis functions on the same selection."""
    table = _table()
    block = block_at_budget(table, "micro_f1", ["MaxCS", "PMU", "AF"], 10.0)
    assert sorted(block.table["method"].unique()) == ["AF", "MaxCS", "PMU"]
    direct = select(
        table[table["method"].isin(["MaxCS", "PMU", "AF"])],
        metric="micro_f1",
        budget=10.0,
        higher_is_better=True,
        reference_methods=("AF",),
    )
    methods = ["MaxCS", "MeanCS", "AF"]
    pd.testing.assert_frame_equal(
        pairwise_pvalues(table, "micro_f1", methods, 10.0, "nemenyi"),
        nemenyi_pvalues(block_at_budget(table, "micro_f1", methods, 10.0)),
    )
    pd.testing.assert_frame_equal(
        pairwise_pvalues(table, "micro_f1", methods, 20.0, "wilcoxon-holm"),
        wilcoxon_holm(block_at_budget(table, "micro_f1", methods, 20.0)),
    )
    assert len(direct.table) == len(block.table)
    assert friedman_at(table, "micro_f1", methods, 10.0).alpha == POSTHOC_ALPHA


def test_an_unknown_pairwise_test_is_refused_naming_the_choices():
    """Check a test name outside PAIRWISE_TESTS is a ValueError naming them."""
    with pytest.raises(ValueError, match="nemenyi"):
        pairwise_pvalues(_table(), "micro_f1", ["MaxCS", "PMU"], 10.0, "t-test")


def _oracle_band(table, method, pct):
    """Mean, mean - std, mean + std of a method's values at a budget (plainly)."""
    values = table[(table["method"] == method) & (table["budget_pct"] == pct)]
    values = values[values["dataset"] == "d0"]["value"].to_numpy()
    mean = sum(values) / len(values)
    std = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    return mean, mean - std, mean + std


def test_curve_bands_take_the_runs_band_and_fall_back_point_by_point(tmp_path):
    """Check the band of curves.csv is used where it has the point, and mean ±
    std (the std over folds of metric_curves, ddof=0) where it has not."""
    table = _table(datasets=1)
    band = pd.DataFrame(
        {
            "dataset": ["d0"],
            "method": ["MaxCS"],
            "budget": [2],
            "budget_pct": [10.0],
            "metric": ["micro_f1"],
            "lower": [0.1],
            "upper": [0.9],
        }
    )
    band.to_csv(tmp_path / "curves.csv", index=False)
    read = read_band(tmp_path / "curves.csv", "micro_f1")
    out = curve_bands(table, "micro_f1", ["MaxCS", "PMU"], read)
    row = out[(out["method"] == "MaxCS") & (out["budget_pct"] == 10.0)].iloc[0]
    assert (row["lower"], row["upper"]) == (0.1, 0.9)
    mean, low, high = _oracle_band(table, "PMU", 20.0)
    row = out[(out["method"] == "PMU") & (out["budget_pct"] == 20.0)].iloc[0]
    assert (row["mean"], row["lower"], row["upper"]) == pytest.approx((mean, low, high))
    plain = curve_bands(table, "micro_f1", ["MaxCS", "PMU"])
    row = plain[(plain["method"] == "MaxCS") & (plain["budget_pct"] == 10.0)].iloc[0]
    assert (row["lower"], row["upper"]) == pytest.approx(
        _oracle_band(table, "MaxCS", 10.0)[1:]
    )


def test_a_missing_or_bandless_curves_file_gives_no_band(tmp_path):
    """Check read_band: None for a missing file, a file without lower/upper,
    and an unreadable one; the curves then fall back to mean ± std."""
    assert read_band(tmp_path / "curves.csv", "micro_f1") is None
    pd.DataFrame({"metric": ["micro_f1"], "mean": [0.5]}).to_csv(
        tmp_path / "curves.csv", index=False
    )
    assert read_band(tmp_path / "curves.csv", "micro_f1") is None
    (tmp_path / "bad.csv").write_bytes(b"\xff\xfe\x00 not a table \x00")
    assert read_band(tmp_path / "bad.csv", "micro_f1") is None


def test_a_similarity_part_keeps_the_methods_asked_in_the_matrix_order():
    """Check the part of a full matrix, and an empty frame with no pair to show."""
    names = ["A", "B", "C"]
    full = pd.DataFrame(
        [[1.0, 0.2, 0.3], [0.2, 1.0, np.nan], [0.3, np.nan, 1.0]],
        index=names,
        columns=names,
    )
    part = similarity_part(full, ("C", "A"))
    assert list(part.index) == ["A", "C"] and part.loc["A", "C"] == 0.3
    assert similarity_part(full, ("B", "C")).empty  # the only pair has no value
    assert similarity_part(full, ("A",)).empty
