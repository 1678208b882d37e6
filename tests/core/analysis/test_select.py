"""The analysis functions refuse to mix metrics or budgets, and follow the registry.

Also the Iman-Davenport edge: chi-squared one ulp below its maximum.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import friedmanchisquare

from mlfs_core import METRICS
from mlfs_core.analysis import (
    Selection,
    average_ranks,
    dataset_ranks,
    friedman_by_budget,
    friedman_nemenyi,
    iman_davenport,
    metric_curves,
    nemenyi_pvalues,
    rank_table,
    select,
    wilcoxon_holm,
)
from mlfs_core.analysis.stats import ID_RTOL
from mlfs_core.errors import IncompleteTableError

from .tables import long_table


def _results(rng, *, datasets=4, methods=("A", "B", "C"), budgets=(10.0, 20.0)):
    """A tidy results table: two metrics (one loss), two budgets, two folds, AF."""
    rows = []
    for d in range(datasets):
        for metric in ("micro_f1", "hamming_loss"):
            for fold in range(2):
                for pct in budgets:
                    for method in methods:
                        value = rng.random()
                        rows.append((f"d{d}", method, 10, pct, fold, metric, value))
                rows.append((f"d{d}", "AF", 100, 100.0, fold, metric, rng.random()))
    return pd.DataFrame(
        rows,
        columns=[
            "dataset",
            "method",
            "budget",
            "budget_pct",
            "fold",
            "metric",
            "value",
        ],
    )


def test_several_metrics_are_refused_with_what_to_pass(rng):
    """Check that a table with several metrics is refused, naming metric=."""
    with pytest.raises(
        ValueError, match=r"select: the table holds 2 metrics .*metric="
    ):
        select(_results(rng))


def test_several_budgets_are_refused_with_what_to_pass(rng):
    """Check that a table with several budgets is refused, naming budget=,
    over_budgets= and by=."""
    with pytest.raises(
        ValueError,
        match=r"2 budgets .*budget=.*over_budgets='mean'.*by=\['budget_pct'\]",
    ):
        select(_results(rng), metric="micro_f1")


def test_the_results_table_itself_is_refused_naming_select(rng):
    """Check that every analysis refuses a DataFrame with a TypeError saying to
    call select first (the one way in)."""
    functions = [
        average_ranks,
        dataset_ranks,
        friedman_nemenyi,
        friedman_by_budget,
        rank_table,
        metric_curves,
        nemenyi_pvalues,
        wilcoxon_holm,
    ]
    for function in functions:
        with pytest.raises(TypeError, match=r"takes a Selection, got DataFrame"):
            function(_results(rng))


def test_the_selection_holds_what_was_chosen(rng):
    """Check the Selection's fields: the table narrowed, the metric, its
    direction, the budget column and the grouping."""
    chosen = select(_results(rng), metric="hamming_loss", budget=10.0)
    assert isinstance(chosen, Selection)
    assert (chosen.metric, chosen.higher_is_better) == ("hamming_loss", False)
    assert (chosen.budget_column, chosen.by, chosen.per_budget) == (
        "budget_pct",
        (),
        False,
    )
    assert (chosen.budget, chosen.over_budgets) == (10.0, None)
    assert set(chosen.table["budget_pct"]) == {10.0}
    assert set(chosen.table["metric"]) == {"hamming_loss"}
    assert "AF" in set(chosen.table["method"])  # copied to the chosen budget
    grouped = select(_results(rng), metric="micro_f1", by=["budget_pct"])
    assert grouped.per_budget and grouped.by == ("budget_pct",)
    assert grouped.budget is None
    mean = select(_results(rng), metric="micro_f1", over_budgets="mean")
    assert (mean.budget, mean.over_budgets) == (None, "mean")


def test_per_budget_analyses_need_a_per_budget_selection(rng):
    """Check rank_table, friedman_by_budget and metric_curves refuse a
    one-budget selection, and friedman_nemenyi a per-budget one, each saying
    what to select."""
    one = select(_results(rng), metric="micro_f1", budget=10.0)
    for function in (rank_table, friedman_by_budget, metric_curves):
        with pytest.raises(ValueError, match=r"select with by=\['budget_pct'\]"):
            function(one)
    grouped = select(_results(rng), metric="micro_f1", by=["budget_pct"])
    with pytest.raises(ValueError, match="call friedman_by_budget"):
        friedman_nemenyi(grouped)


def test_an_unchecked_selection_is_not_ranked(rng):
    """Check missing='keep' selects every row unchecked, which the curves take
    and every ranking refuses."""
    res = _results(rng)
    gap = res.drop(index=res.index[0])  # d0, A at 10 % has one fold left
    gap = gap[~((gap["dataset"] == "d1") & (gap["method"] == "B"))]
    kept = select(gap, metric="micro_f1", by=["budget_pct"], missing="keep")
    assert len(metric_curves(kept)) > 0
    for function in (rank_table, average_ranks, friedman_by_budget):
        with pytest.raises(ValueError, match="missing='keep'.*not checked"):
            function(kept)
    with pytest.raises(IncompleteTableError):
        select(gap, metric="micro_f1", by=["budget_pct"])


def test_loss_direction_comes_from_the_registry():
    """Check that hamming loss ranks the smallest loss first without being told."""
    assert METRICS["hamming_loss"].higher_is_better is False
    t = pd.DataFrame(
        {
            "dataset": ["a"] * 3 + ["b"] * 3,
            "method": ["X", "Y", "Z"] * 2,
            "metric": "hamming_loss",
            "value": [0.1, 0.2, 0.3, 0.15, 0.25, 0.35],
        }
    )
    ranks = average_ranks(select(t))
    assert ranks["mean"].to_dict() == {"X": 1.0, "Y": 2.0, "Z": 3.0}
    res = friedman_nemenyi(select(t))
    assert res.ranks["mean"].to_dict() == {"X": 1.0, "Y": 2.0, "Z": 3.0}
    chosen = select(t.assign(budget=1), metric="hamming_loss", by=["budget"])
    assert rank_table(chosen).set_index("method")["mean"].to_dict() == {
        "X": 1.0,
        "Y": 2.0,
        "Z": 3.0,
    }


def test_contradicting_the_registry_is_an_error(rng):
    """Check that higher_is_better=True on a loss is refused."""
    with pytest.raises(ValueError, match="contradicts metric 'hamming_loss'"):
        select(_results(rng), metric="hamming_loss", budget=10.0, higher_is_better=True)


def test_unknown_metric_needs_a_direction():
    """Check that a metric the registry does not know needs higher_is_better=."""
    t = pd.DataFrame(
        {
            "dataset": ["a", "a", "b", "b"],
            "method": ["X", "Y"] * 2,
            "metric": "my_score",
            "value": [0.1, 0.2, 0.3, 0.4],
        }
    )
    with pytest.raises(ValueError, match="'my_score' is not in the metric registry"):
        select(t)
    assert average_ranks(select(t, higher_is_better=False))["mean"].to_dict() == {
        "X": 1.0,
        "Y": 2.0,
    }


def test_a_missing_metric_or_budget_names_what_the_table_holds(rng):
    """Check the messages for a metric or budget that is not in the table."""
    with pytest.raises(ValueError, match="'macro_f1' is not in the table.*hamming"):
        select(_results(rng), metric="macro_f1", budget=10.0)
    with pytest.raises(ValueError, match=r"budget=30.0 is not in .*10\.0, 20\.0"):
        select(_results(rng), metric="micro_f1", budget=30.0)
    with pytest.raises(ValueError, match="not both"):
        select(_results(rng), metric="micro_f1", budget=10.0, over_budgets="mean")
    with pytest.raises(ValueError, match="over_budgets='median' is not one of"):
        select(_results(rng), metric="micro_f1", over_budgets="median")
    with pytest.raises(ValueError, match="no column 'value'"):
        select(pd.DataFrame({"dataset": [], "method": []}))
    with pytest.raises(ValueError, match="missing='ignore' is not one of"):
        select(_results(rng), metric="micro_f1", budget=10.0, missing="ignore")


def test_one_budget_ranks_that_budget_with_af_copied(rng):
    """Check that budget= ranks exactly the rows of that budget, plus AF's."""
    res = _results(rng)
    out = average_ranks(select(res, metric="micro_f1", budget=20.0))
    micro = res[res["metric"] == "micro_f1"]
    keep = micro[(micro["budget_pct"] == 20.0) | (micro["method"] == "AF")]
    expected = average_ranks(
        select(keep[["dataset", "method", "value"]], higher_is_better=True)
    )
    pd.testing.assert_frame_equal(out, expected)
    assert "AF" in out.index


def test_over_budgets_mean_ranks_each_methods_mean_over_budgets(rng):
    """Check over_budgets='mean' against a two-stage mean computed here."""
    res = _results(rng, budgets=(10.0, 20.0, 30.0))
    micro = res[(res["metric"] == "micro_f1") & (res["method"] != "AF")]
    per_budget = micro.groupby(["dataset", "method", "budget_pct"])["value"].mean()
    means = per_budget.groupby(["dataset", "method"]).mean().reset_index()
    af = res[(res["metric"] == "micro_f1") & (res["method"] == "AF")]
    af = af.groupby(["dataset", "method"])["value"].mean().reset_index()
    expected = friedman_nemenyi(select(pd.concat([means, af]), higher_is_better=True))
    got = friedman_nemenyi(select(res, metric="micro_f1", over_budgets="mean"))
    assert got.statistic == pytest.approx(expected.statistic, abs=1e-12)
    pd.testing.assert_frame_equal(got.ranks, expected.ranks)


def test_by_budget_still_ranks_each_budget(rng):
    """Check average_ranks of a by=["budget_pct"] selection: one ranking per
    budget, AF (at 100 % only) ranked at each, as rank_table does."""
    res = _results(rng)
    chosen = select(res, metric="micro_f1", by=["budget_pct"])
    out = average_ranks(chosen)
    assert set(out.index.get_level_values("budget_pct")) == {10.0, 20.0}
    table = rank_table(chosen).set_index(["budget_pct", "method"])
    pd.testing.assert_frame_equal(out, table.loc[out.index, ["mean", "std"]])


def test_a_plain_table_needs_its_direction_stated():
    """Check that a table with neither a metric column nor higher_is_better= is
    refused with one clear error (no guessed direction, no warning), and that
    stating the direction or the metric ranks it."""
    t = pd.DataFrame(
        {
            "dataset": ["a", "a", "b", "b"],
            "method": ["X", "Y"] * 2,
            "value": [0.9, 0.8, 0.7, 0.6],
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="direction of its values is unknown"):
            select(t)
        up = average_ranks(select(t, higher_is_better=True))
        named = average_ranks(select(t, metric="micro_f1"))  # from the registry
    assert up["mean"].to_dict() == {"X": 1.0, "Y": 2.0}
    pd.testing.assert_frame_equal(up, named)


def test_friedman_by_budget_takes_the_direction_from_the_registry(rng):
    """Check that friedman_by_budget without higher_is_better ranks a loss right."""
    res = _results(rng)
    out = friedman_by_budget(select(res, metric="hamming_loss", by=["budget_pct"]))
    loss = res[res["metric"] == "hamming_loss"]
    flipped = loss.assign(value=-loss["value"], metric="flipped")
    same = friedman_by_budget(select(flipped, higher_is_better=True, by=["budget_pct"]))
    # a monotone flip of the values reverses the ranks: chi2 is unchanged
    np.testing.assert_allclose(out["statistic"], same["statistic"], atol=1e-12)
    assert len(out) == 2


# ---- Iman-Davenport at the edge ---------------------------------------------


def _formula_chi2(ranks: np.ndarray) -> float:
    """Friedman's chi-squared as the formula computes it in floating point."""
    n, m = ranks.shape
    mean_ranks = ranks.mean(axis=0)
    return float(
        12.0 * n / (m * (m + 1)) * (np.sum(mean_ranks**2) - m * (m + 1) ** 2 / 4.0)
    )


def _same_order_tables():
    """(N, m) whose identical rankings leave the formula's chi2 below N (m - 1)."""
    below = []
    for n in range(2, 31):
        for m in range(2, 15):
            ranks = np.tile(np.arange(1.0, m + 1), (n, 1))
            if _formula_chi2(ranks) < n * (m - 1):
                below.append((n, m))
    return below


def test_the_formula_does_fall_an_ulp_below_the_maximum():
    """Check that the edge is real: (6, 11) gives 59.99999999999999 for 60."""
    below = _same_order_tables()
    assert (6, 11) in below
    assert _formula_chi2(np.tile(np.arange(1.0, 12), (6, 1))) == 59.99999999999999


@pytest.mark.parametrize(("n", "m"), _same_order_tables())
def test_iman_davenport_is_infinite_an_ulp_below_the_maximum(n, m):
    """Check F = inf and p = 0 for chi2 an ulp below N (m - 1)."""
    chi2 = _formula_chi2(np.tile(np.arange(1.0, m + 1), (n, 1)))
    assert chi2 < n * (m - 1)
    assert iman_davenport(chi2, n, m) == (float("inf"), 0.0)


def test_same_ranking_on_every_dataset_gives_the_maximum_exactly(rng):
    """Check 59 random "all datasets agree" tables, with the edge sizes among them.

    The values differ from dataset to dataset; only the order of the methods
    is shared. chi2 must be exactly N (m - 1), F infinite, p 0.
    """
    sizes = _same_order_tables()
    sizes += [(int(rng.integers(2, 40)), int(rng.integers(3, 15))) for _ in range(59)]
    sizes = sizes[:59]
    for n, m in sizes:
        order = rng.permutation(m)
        values = np.sort(rng.random((n, m)), axis=1)[:, order]
        res = friedman_nemenyi(select(long_table(values), higher_is_better=True))
        assert res.statistic == n * (m - 1), (n, m)
        assert (res.iman_davenport, res.iman_davenport_pvalue) == (float("inf"), 0.0)
        ref = friedmanchisquare(*values.T).statistic
        assert res.statistic == pytest.approx(ref, rel=1e-12)


def test_same_tied_ranking_on_every_dataset_is_also_the_maximum():
    """Check identical rankings with a tie (A > B = C): chi2 = N (m - 1), F = inf."""
    values = np.tile([0.9, 0.5, 0.5], (5, 1))
    res = friedman_nemenyi(select(long_table(values), higher_is_better=True))
    assert res.statistic == 10.0
    assert res.iman_davenport == float("inf")


def test_one_swap_below_the_maximum_stays_finite():
    """Check the tolerance does not swallow a genuine F: one adjacent swap, 20
    methods, 1000 datasets (N m^3 = 8e6)."""
    n, m = 1000, 20
    values = np.tile(np.arange(m, 0, -1.0), (n, 1))
    values[0, [0, 1]] = values[0, [1, 0]]
    res = friedman_nemenyi(select(long_table(values), higher_is_better=True))
    gap = n * (m - 1) - res.statistic
    assert gap > ID_RTOL * n * (m - 1)
    assert np.isfinite(res.iman_davenport)
    ref = friedmanchisquare(*values.T).statistic
    assert res.statistic == pytest.approx(ref, rel=1e-12)


def test_by_is_a_list_of_columns_of_the_table(rng):
    """Check by= as a bare string, or naming a column the table lacks, is one
    clear error (a string would otherwise be read letter by letter)."""
    with pytest.raises(ValueError, match=r"by= takes a list of columns, e\.g\. by="):
        select(_results(rng), metric="micro_f1", by="budget_pct")
    with pytest.raises(ValueError, match="no column 'measure'"):
        select(_results(rng), metric="micro_f1", budget=10.0, by=["measure"])


def test_the_selection_reads_in_one_line(rng):
    """Check a Selection's repr says what was chosen and how many rows, not the
    whole table."""
    text = repr(select(_results(rng), metric="micro_f1", budget=10.0))
    assert text == (
        "Selection(metric='micro_f1', higher_is_better=True, "
        "budget_column='budget_pct', by=(), budget=10.0, over_budgets=None, "
        "missing='refuse', rows=32)"
    )
