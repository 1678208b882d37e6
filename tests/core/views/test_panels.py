"""Tests of mlfs_core.views.panels: measure panels, their titles, ranks within them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata

from mlfs_core.selectors import reference_methods
from mlfs_core.views import measure_panels, panel_ranks, panel_title

METHODS = ["MaxCS", "MeanCS", "MaxBNS", "MeanBNS", "PMU", "Random", "AF"]


def test_measure_panels_groups_by_measure_and_merges_singletons():
    """Check grouping by measure, with non-filters and singletons in 'other'."""
    methods = ["Random", "MaxCS", "MeanCS", "RaRBNS", "PPT-MI", "RoRBNS", "MaxIG"]
    assert measure_panels(methods) == {
        "CS": ["MaxCS", "MeanCS", "Random"],
        "BNS": ["RaRBNS", "RoRBNS", "Random"],
        "other": ["PPT-MI", "MaxIG"],
    }
    assert list(measure_panels(methods)) == ["CS", "BNS", "other"]


def test_measure_panels_never_ranks_the_baselines_alone():
    """Check that Random and AF join each measure panel instead of an 'other' panel."""
    paper000 = ["MaxCS", "MeanCS", "MaxBNS", "MeanBNS", "Random", "AF"]
    assert measure_panels(paper000) == {
        "CS": ["MaxCS", "MeanCS", "Random", "AF"],
        "BNS": ["MaxBNS", "MeanBNS", "Random", "AF"],
    }


def test_measure_panels_degenerate_inputs():
    """Check the empty input, a single filter, and only non-filter methods."""
    assert measure_panels([]) == {}
    assert measure_panels(["MaxCS"]) == {"other": ["MaxCS"]}
    assert measure_panels(["PMU", "ATR"]) == {"other": ["PMU", "ATR"]}


def test_measure_panels_take_the_baselines_given():
    """Check that a baseline passed to measure_panels joins every measure panel,
    and that without it the same name is a method of its own."""
    methods = ["MaxCS", "MeanCS", "MaxBNS", "MeanBNS", "MyBase"]
    assert measure_panels(methods, baselines=["MyBase"]) == {
        "CS": ["MaxCS", "MeanCS", "MyBase"],
        "BNS": ["MaxBNS", "MeanBNS", "MyBase"],
    }
    assert measure_panels(methods)["other"] == ["MyBase"]


def test_a_panel_title_names_the_catch_all_panel_by_what_it_holds():
    """Check a measure panel keeps its label and "other" is titled by its methods."""
    assert panel_title("BNS", ["MaxBNS", "MeanBNS"]) == "BNS"
    assert panel_title("other", ["PMU", "ATR", "Random"]) == (
        "Information-theoretic methods"
    )
    assert panel_title("other", ["PMU", "MaxIG"]) == "Other methods"
    assert panel_title("other", ["Random", "AF"]) == "Other methods"  # baselines only
    assert panel_title("other", ["PMU", "MyBase"], baselines=[]) == (
        "Information-theoretic methods"
    )


def _table(seed=0, metric="hamming_loss"):
    """Three datasets, two folds, two budgets, the CS, BNS and PMU methods, AF."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(3):
        for fold in range(2):
            for pct in (10.0, 20.0):
                for m in METHODS[:-1]:
                    rows.append((f"d{d}", m, 1, pct, fold, metric, rng.random()))
            rows.append((f"d{d}", "AF", 10, 100.0, fold, metric, rng.random()))
    columns = ["dataset", "method", "budget", "budget_pct", "fold", "metric", "value"]
    return pd.DataFrame(rows, columns=columns)


def _oracle_ranks(table, members, pct, lower_is_better):
    """Average rank of ``members`` at ``pct`` (AF from 100 %), written plainly."""
    totals = dict.fromkeys(members, 0.0)
    datasets = sorted(table["dataset"].unique())
    for d in datasets:
        means = []
        for m in members:
            at = 100.0 if m == "AF" else pct
            rows = table[
                (table["dataset"] == d)
                & (table["method"] == m)
                & (table["budget_pct"] == at)
            ]
            means.append(rows["value"].mean())
        scores = np.array(means) if lower_is_better else -np.array(means)
        for m, r in zip(members, rankdata(scores)):
            totals[m] += r
    return {m: totals[m] / len(datasets) for m in members}


def test_panel_ranks_rank_each_panel_apart_by_the_metric_direction():
    """Check the ranks within each measure panel against a plain oracle (a loss:
    lower is better), the all-features baseline beside every budget."""
    table = _table()
    ranks = panel_ranks(table, "hamming_loss", METHODS, by_measure=True)
    assert list(ranks["panel"].unique()) == [
        "CS",
        "BNS",
        "Information-theoretic methods",
    ]
    for panel, members in (("CS", ["MaxCS", "MeanCS", "Random", "AF"]),):
        for pct in (10.0, 20.0):
            got = ranks[(ranks["panel"] == panel) & (ranks["budget_pct"] == pct)]
            expected = _oracle_ranks(table, members, pct, lower_is_better=True)
            assert dict(zip(got["method"], got["mean"])) == pytest.approx(expected)


def test_panel_ranks_in_one_panel_and_of_an_unknown_metric():
    """Check by_measure=False ranks every method together, and an unknown metric
    (an uploaded table's) is ranked as higher-is-better."""
    table = _table(seed=3, metric="my_score")
    ranks = panel_ranks(table, "my_score", METHODS, by_measure=False)
    assert set(ranks["panel"]) == {""}
    got = ranks[ranks["budget_pct"] == 20.0]
    expected = _oracle_ranks(table, METHODS, 20.0, lower_is_better=False)
    assert dict(zip(got["method"], got["mean"])) == pytest.approx(expected)
    assert panel_ranks(table, "my_score", [], by_measure=True).empty


def test_every_registered_baseline_joins_the_panels():
    """Check the registry's baselines are the default ones of measure_panels."""
    panels = measure_panels(["MaxCS", "MeanCS", *reference_methods()])
    assert set(reference_methods()) <= set(panels["CS"])
