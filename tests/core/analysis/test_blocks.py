"""Analysis states its blocks: every rank-based function refuses a table with
missing (dataset, method, budget) cells by default, naming them, and
missing="drop-blocks" leaves the incomplete blocks out and says how many."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core.analysis import (
    average_ranks,
    control_comparisons,
    dataset_ranks,
    friedman_by_budget,
    friedman_nemenyi,
    nemenyi_pvalues,
    rank_table,
    select,
    wilcoxon_holm,
)
from mlfs_core.errors import ConfigError, DroppedBlocksWarning, IncompleteTableError

METHODS = [f"M{i}" for i in range(10)]
BUDGETS = [10.0 * b for b in range(1, 11)]
DATASETS = ["d0", "d1", "d2", "d3"]


def _results(seed=0):
    """4 datasets x 10 methods x 10 budgets x 2 folds of micro_f1."""
    rng = np.random.default_rng(seed)
    rows = [
        (d, m, int(b), b, fold, "micro_f1", float(rng.random()))
        for d in DATASETS
        for m in METHODS
        for b in BUDGETS
        for fold in range(2)
    ]
    columns = ["dataset", "method", "budget", "budget_pct", "fold", "metric", "value"]
    return pd.DataFrame(rows, columns=columns)


def test_first_budgets_missing_refuse_the_mean_over_budgets():
    """Check the issue's case: a method's first 5 budgets NaN on one dataset
    (or their rows dropped on another) refuse over_budgets='mean', naming the
    cells; before, its rank moved with no warning."""
    res = _results()
    first = (res["method"] == "M3") & (res["budget_pct"] <= 50)
    res.loc[first & (res["dataset"] == "d0"), "value"] = np.nan
    res = res[~(first & (res["dataset"] == "d1"))]
    with pytest.raises(IncompleteTableError) as info:
        select(res, metric="micro_f1", over_budgets="mean")
    message = str(info.value)
    assert "10 of 400 (dataset, method, budget_pct) cells" in message
    assert "('d0', 'M3', 10.0)" in message and "('d1', 'M3', 10.0)" in message
    assert sorted(info.value.cells)[:2] == [("d0", "M3", 10.0), ("d0", "M3", 20.0)]
    assert isinstance(info.value, ValueError)
    assert not isinstance(info.value, ConfigError)
    with pytest.warns(DroppedBlocksWarning, match="dropped 2 incomplete block.* of 4"):
        chosen = select(
            res, metric="micro_f1", over_budgets="mean", missing="drop-blocks"
        )
    result = friedman_nemenyi(chosen)
    assert result.n_datasets == 2


def test_one_method_deleted_on_one_dataset_refuses_the_test():
    """Check that deleting one method's rows on one dataset no longer cuts the
    test from 4 datasets to 3 silently."""
    res = _results()
    res = res[~((res["method"] == "M7") & (res["dataset"] == "d2"))]
    with pytest.raises(IncompleteTableError, match=r"\('d2', 'M7', 50\.0\)"):
        select(res, metric="micro_f1", budget=50.0)
    with pytest.warns(DroppedBlocksWarning, match="1 incomplete block.* of 4"):
        chosen = select(res, metric="micro_f1", budget=50.0, missing="drop-blocks")
    result = friedman_nemenyi(chosen)
    assert result.n_datasets == 3


def test_one_nan_fold_makes_its_cell_missing():
    """Check that a NaN in one fold is not averaged away by the other fold."""
    res = _results()
    res.loc[res.index[0], "value"] = np.nan  # d0, M0, 10 %, fold 0
    with pytest.raises(IncompleteTableError, match=r"1 of 40 .*\('d0', 'M0', 10\.0\)"):
        select(res, metric="micro_f1", budget=10.0)


@pytest.mark.parametrize(
    "call",
    [
        (dataset_ranks, {"budget": 30.0}),
        (average_ranks, {"by": ["budget_pct"]}),
        (rank_table, {"by": ["budget_pct"]}),
        (friedman_by_budget, {"by": ["budget_pct"]}),
        (nemenyi_pvalues, {"budget": 30.0}),
        (wilcoxon_holm, {"budget": 30.0}),
        (lambda chosen: control_comparisons(chosen, "M0"), {"over_budgets": "mean"}),
    ],
    ids=[
        "dataset_ranks",
        "average_ranks",
        "rank_table",
        "friedman_by_budget",
        "nemenyi_pvalues",
        "wilcoxon_holm",
        "control_comparisons",
    ],
)
def test_every_ranking_function_states_its_blocks(call):
    """Check the selection each rank-based function takes refuses a gap, drops
    it on request (the warning pointing at the caller's line), and that the
    function then runs on the complete blocks."""
    function, choice = call
    res = _results()
    gap = (res["method"] == "M5") & (res["budget_pct"] == 30.0)
    res = res[~(gap & res["dataset"].isin(["d0", "d1"]))]
    with pytest.raises(IncompleteTableError, match=r"'M5', 30\.0"):
        select(res, metric="micro_f1", **choice)
    with pytest.warns(DroppedBlocksWarning, match="dropped 2 incomplete block") as w:
        chosen = select(res, metric="micro_f1", missing="drop-blocks", **choice)
    assert w[0].filename == __file__
    assert len(function(chosen)) > 0


def test_dropped_blocks_change_nothing_else():
    """Check drop-blocks ranks the complete blocks exactly as a table holding
    only them."""
    res = _results()
    gap = res[~((res["method"] == "M1") & (res["dataset"] == "d3"))]
    with pytest.warns(DroppedBlocksWarning):
        dropped = average_ranks(
            select(gap, metric="micro_f1", budget=20.0, missing="drop-blocks")
        )
    alone = average_ranks(
        select(res[res["dataset"] != "d3"], metric="micro_f1", budget=20.0)
    )
    pd.testing.assert_frame_equal(dropped, alone)


def test_unknown_missing_value_is_refused():
    """Check a misspelt missing= value is one clear error."""
    with pytest.raises(ValueError, match="missing='drop' is not one of"):
        select(_results(), metric="micro_f1", budget=10.0, missing="drop")
