"""Issue 27: many-method figures stay readable, baselines are references."""

from __future__ import annotations

import numpy as np
import pandas as pd

from mlfs_core.plots import (
    average_rank_curves,
    cooccurrence_heatmap,
    figure_from_dict,
    highlight_figure,
    metric_vs_budget,
)
from mlfs_core.plots._style import GREY, method_styles
from mlfs_core.selectors import list_methods


def _curves(methods, budgets=(10, 20, 30)) -> pd.DataFrame:
    rows = [
        {"method": m, "budget_pct": b, "mean": 0.1 * i + 0.001 * b}
        for i, m in enumerate(methods)
        for b in budgets
    ]
    return pd.DataFrame(rows)


def test_twelve_methods_get_twelve_distinct_colour_and_dash_pairs():
    """Check that 12 methods (paper 001) never share both colour and dash,
    and that the first 7 names outside the registry get 7 colours."""
    paper001 = list_methods("information-theoretic") + list_methods("baseline")
    styles = method_styles(paper001)
    assert len({(s["color"], s["dash"]) for s in styles.values()}) == 12
    styles = method_styles([f"M{i}" for i in range(12)])
    assert len({(s["color"], s["dash"]) for s in styles.values()}) == 12
    assert len({s["color"] for s in list(styles.values())}) == 7


def test_af_single_point_becomes_a_flat_line_over_the_other_budgets():
    """Check that AF at 100 % spans the budgets run (10-30), not one point."""
    df = pd.concat(
        [
            _curves(["A", "B"]),
            pd.DataFrame([{"method": "AF", "budget_pct": 100, "mean": 0.7}]),
        ]
    )
    fig = metric_vs_budget(df, x="budget_pct", facet=None)
    (af,) = [t for t in fig.data if t.legendgroup == "AF"]
    assert list(af.x) == [10.0, 30.0] and list(af.y) == [0.7, 0.7]
    assert af.name == "AF (reference)" and af.line.dash == "longdash"
    assert max(max(t.x) for t in fig.data) == 30


def test_reference_alone_keeps_its_own_budget():
    """Check that a panel with only AF still draws it (finite, at its budget)."""
    df = pd.DataFrame([{"method": "AF", "budget_pct": 100, "mean": 0.7}])
    fig = metric_vs_budget(df, x="budget_pct", facet=None)
    assert list(fig.data[0].x) == [100.0, 100.0]


def test_highlight_greys_every_other_method_and_draws_it_last():
    """Check that highlighting B turns A and C grey and puts B on top."""
    df = _curves(["A", "B", "C"])
    for fig in (
        metric_vs_budget(df, x="budget_pct", facet=None, highlight="B"),
        average_rank_curves(df, x="budget_pct", highlight="B"),
    ):
        colours = {t.name: t.line.color for t in fig.data}
        assert colours["A"] == colours["C"] == GREY != colours["B"]
        assert fig.data[-1].name == "B"
        # the legend keeps the methods' order, whatever the drawing order
        ranks = {t.name: t.legendrank for t in fig.data}
        assert ranks["A"] < ranks["B"] < ranks["C"]


def test_one_legend_at_the_top_of_a_tall_figure():
    """Check that 11 panels keep one legend at the top, below the title."""
    df = pd.concat(
        [_curves(["A", "B"]).assign(dataset=f"d{i}") for i in range(11)],
        ignore_index=True,
    )
    fig = metric_vs_budget(df, x="budget_pct")
    legend = fig.layout.legend
    assert legend.yanchor == "top" and legend.yref == "container"
    assert legend.y > 0.95 and sum(bool(t.showlegend) for t in fig.data) == 2


def test_one_panel_per_row_on_request():
    """Check that wrap=1 stacks the panels (one at a time on a small screen)."""
    df = pd.concat(
        [_curves(["A"]).assign(dataset=f"d{i}") for i in range(2)], ignore_index=True
    )
    fig = metric_vs_budget(df, x="budget_pct", wrap=1)
    assert fig.layout.xaxis.domain == fig.layout.xaxis2.domain


def test_crowded_cooccurrence_ticks_stand_upright_and_are_cut():
    """Check that 40 long label names get upright, cut ticks (no overlap)."""
    names = [f"TAG_a_very_long_label_name_{i:02d}" for i in range(40)]
    m = pd.DataFrame(np.eye(40), index=names, columns=names)
    fig = cooccurrence_heatmap(m)
    assert fig.layout.xaxis.tickangle == -90
    assert max(len(t) for t in fig.layout.xaxis.ticktext) <= 18


def test_highlight_draws_the_other_methods_as_one_grey_trace_per_panel():
    """Check that 11 panels x 12 methods highlighted on one method draw 11 grey
    traces (not 121), each point hovering with its method's name, while the
    legend still lists all 12 methods in their order."""
    methods = [f"M{i:02d}" for i in range(12)]
    df = pd.concat(
        [_curves(methods).assign(dataset=f"d{i}") for i in range(11)],
        ignore_index=True,
    )
    plain = metric_vs_budget(df, x="budget_pct")
    fig = figure_from_dict(highlight_figure(plain.to_dict(), "M05"))
    grey = [t for t in fig.data if t.name == "other methods"]
    assert len(grey) == 11 and {t.xaxis for t in grey} == {t.xaxis for t in plain.data}
    assert all(t.mode == "lines" and t.line.color == GREY for t in grey)
    # runs apart: 11 other methods x (3 budgets + a gap) points, gap = None
    first = grey[0]
    assert len(first.x) == 11 * 4 and first.x[3] is None
    assert list(first.text[:4]) == ["M00"] * 4 and first.text[4] == "M01"
    # the highlighted method's line and band stay in every panel, on top
    drawn = [t for t in fig.data if t.name == "M05"]
    assert len(drawn) == 11
    legend = [t.name for t in fig.data if t.showlegend]
    assert sorted(legend) == methods
    ranks = {t.name: t.legendrank for t in fig.data if t.showlegend}
    assert [ranks[m] for m in methods] == sorted(ranks.values())
    # 11 legend entries + 11 grey traces + 11 highlighted lines, not 132 traces
    assert len(plain.data) == 132 and len(fig.data) == 33
