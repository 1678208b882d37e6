"""Comparisons on per-dataset means (mlfs_papers.means)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from mlfs_core.errors import DroppedBlocksWarning, IncompleteTableError
from mlfs_papers.means import (
    friedman_on_means,
    method_wins,
    variant_ranks,
    within_dataset_ranks,
)


def _means(values: dict[str, list[float]], metric: str = "micro_f1") -> pd.DataFrame:
    """Long means table from {method: [mean on dataset 0, 1, ...]}."""
    return pd.DataFrame(
        [
            {"dataset": f"d{d}", "method": m, "metric": metric, "mean": v}
            for m, vals in values.items()
            for d, v in enumerate(vals)
        ]
    )


def test_within_dataset_ranks_follow_the_metric_direction():
    means = pd.concat(
        [
            _means({"A": [0.9], "B": [0.5]}, "micro_f1"),
            _means({"A": [0.9], "B": [0.5]}, "hamming_loss"),
        ]
    )
    ranked = within_dataset_ranks(means, ["A", "B"]).set_index(["metric", "method"])
    assert ranked.loc[("micro_f1", "A"), "rank"] == 1.0  # higher is better
    assert ranked.loc[("hamming_loss", "A"), "rank"] == 2.0  # a loss: lower is better


def test_within_dataset_ranks_only_rank_the_methods_given():
    means = _means({"A": [0.1], "B": [0.5], "C": [0.9]})
    ranked = within_dataset_ranks(means, ["A", "B"])
    assert dict(zip(ranked["method"], ranked["rank"])) == {"A": 2.0, "B": 1.0}


def test_method_wins_counts_firsts_ties_and_the_best_average():
    means = _means({"T": [0.9, 0.9, 0.1, 0.5], "U": [0.5, 0.8, 0.8, 0.5]})
    row = method_wins(means, "T", ["T", "U"]).iloc[0]
    assert row["n_datasets"] == 4
    assert row["n_best"] == 2  # a tie for first (rank 1.5) is no win
    assert row["avg_rank"] == pytest.approx((1 + 1 + 2 + 1.5) / 4)
    assert row["best_method"] == "T"
    assert row["best_avg_rank"] == pytest.approx(1.375)


def test_method_wins_of_an_absent_method_is_refused_or_nan():
    """Check a method without means is refused by default (the cells named),
    and with missing="drop-blocks" every block goes, with a warning."""
    means = _means({"U": [0.5, 0.8], "V": [0.1, 0.2]})
    with pytest.raises(IncompleteTableError, match=r"\('d0', 'T', 'micro_f1'\)"):
        method_wins(means, "T", ["T", "U"])
    with pytest.warns(DroppedBlocksWarning, match="dropped 2 incomplete block"):
        out = method_wins(means, "T", ["T", "U"], missing="drop-blocks")
    assert out.empty


def test_variant_ranks_rank_each_variant_against_the_same_others():
    means = _means(
        {"A": [0.5, 0.5], "P": [0.9, 0.9], "P-ref": [0.1, 0.1], "Q": [0.6, 0.4]}
    )
    variants = {"definition": {"P": "P"}, "reference-code": {"P": "P-ref"}}
    table = variant_ranks(means, ["A", "P", "Q"], variants)
    got = dict(zip(table["variant"], table["avg_rank"]))
    assert got == {"definition": 1.0, "reference-code": 3.0}
    assert set(table["method"]) == {"P"}


def test_friedman_on_means_equals_scipy_on_complete_datasets():
    rng = np.random.default_rng(0)
    values = {m: list(rng.random(6)) for m in "ABCD"}
    means = _means(values)
    # a fifth method on d0 only is not among ``methods``; an incomplete dataset
    # (D missing on d6) is left out
    extra = pd.DataFrame(
        [
            {"dataset": "d6", "method": m, "metric": "micro_f1", "mean": 0.5}
            for m in "ABC"
        ]
    )
    with pytest.raises(IncompleteTableError, match=r"\('d6', 'D', 'micro_f1'\)"):
        friedman_on_means(pd.concat([means, extra]), list("ABCD"))
    with pytest.warns(DroppedBlocksWarning, match="dropped 1 incomplete block.* of 7"):
        table = friedman_on_means(
            pd.concat([means, extra]), list("ABCD"), missing="drop-blocks"
        ).iloc[0]
    expected = stats.friedmanchisquare(*values.values())
    assert table["statistic"] == pytest.approx(expected.statistic)
    assert table["pvalue"] == pytest.approx(expected.pvalue)
    assert table["n_datasets"] == 6
    ranks = {m: table[f"rank_{m}"] for m in "ABCD"}
    assert table["best"] == min(ranks, key=ranks.get)


def test_friedman_on_means_skips_a_metric_with_one_dataset():
    assert friedman_on_means(_means({"A": [0.1], "B": [0.2]}), ["A", "B"]).empty


def test_the_means_rankings_refuse_unchecked_blocks():
    """Check missing='keep' (the curves' choice) is not accepted where methods
    are ranked on the means: a gap would otherwise be ranked over silently."""
    means = _means({"A": [0.1, 0.2], "B": [0.3]})
    for call in (
        lambda: within_dataset_ranks(means, ["A", "B"], missing="keep"),
        lambda: method_wins(means, "A", ["A", "B"], missing="keep"),
        lambda: friedman_on_means(means, ["A", "B"], missing="keep"),
    ):
        with pytest.raises(ValueError, match=r"missing='keep' is not one of 'refuse'"):
            call()


def _random_means():
    rng = np.random.default_rng(2)
    rows = [
        {"dataset": f"d{d}", "method": m, "metric": metric, "mean": rng.random()}
        for d in range(5)
        for m in "ABC"
        for metric in ("micro_f1", "hamming_loss")
    ]
    return pd.DataFrame(rows)


def test_friedman_on_means_takes_metric():
    """Check metric= tests that metric only, and an absent one is refused."""
    both = friedman_on_means(_random_means(), list("ABC"))
    one = friedman_on_means(_random_means(), list("ABC"), metric="micro_f1")
    assert one["metric"].tolist() == ["micro_f1"]
    row = both[both["metric"] == "micro_f1"].iloc[0]
    assert one.iloc[0].to_dict() == row[one.columns].to_dict()
    with pytest.raises(ValueError, match="metric 'macro_f1' is not in the table"):
        friedman_on_means(_random_means(), list("ABC"), metric="macro_f1")
