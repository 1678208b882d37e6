"""Tests of the pure figure functions in mlfs_core.plots."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from mlfs_core.plots import (
    average_rank_curves,
    cd_diagram,
    cooccurrence_heatmap,
    feature_score_bar,
    label_frequency_bar,
    metric_vs_budget,
    precision_at_k_curve,
    similarity_heatmap,
)
from mlfs_core.plots.cd import _cliques


def _finite(fig: go.Figure) -> bool:
    """All numbers in the figure's data are finite (NaN in heatmaps allowed as gaps)."""
    for trace in fig.data:
        for attr in ("x", "y"):
            values = getattr(trace, attr, None)
            if values is not None and len(values) and not isinstance(values[0], str):
                if not np.isfinite(np.asarray(values, dtype=float)).all():
                    return False
    return True


@pytest.fixture
def ranks():
    return pd.DataFrame(
        {
            "method": ["MaxCS", "MeanCS"] * 2 + ["MaxBNS", "MeanBNS"] * 2,
            "budget": [10, 10, 20, 20] * 2,
            "mean": [1.2, 1.8, 1.5, 1.5, 1.0, 2.0, 1.4, 1.6],
            "measure": ["CS"] * 4 + ["BNS"] * 4,
        }
    )


def test_average_rank_curves_one_line_per_method_and_panel(ranks):
    """Check that each (panel, method) gets a line; y axis says lower is better."""
    fig = average_rank_curves(ranks, facet="measure")
    assert len(fig.data) == 4
    assert "lower is better" in fig.layout.yaxis.title.text
    assert [a.text for a in fig.layout.annotations] == ["CS", "BNS"]


def test_legend_lists_each_method_once_across_panels(ranks):
    """Check that methods of every panel appear in the legend, each exactly once."""
    fig = average_rank_curves(ranks, facet="measure")
    shown = [t.name for t in fig.data if t.showlegend]
    assert sorted(shown) == ["MaxBNS", "MaxCS", "MeanBNS", "MeanCS"]


def test_average_rank_curves_single_panel_without_facet(ranks):
    """Check that without a facet column all methods share one panel."""
    fig = average_rank_curves(ranks)
    assert len(fig.data) == 4
    assert {t.xaxis for t in fig.data} == {"x"}


def test_metric_vs_budget_draws_band_and_line():
    """Check that every method gets a spread band and a line, panelled by dataset."""
    df = pd.DataFrame(
        {
            "dataset": ["d1"] * 4 + ["d2"] * 4,
            "method": ["A", "A", "B", "B"] * 2,
            "budget": [1, 2] * 4,
            "mean": np.linspace(0.1, 0.8, 8),
        }
    )
    df["lower"], df["upper"] = df["mean"] - 0.05, df["mean"] + 0.05
    fig = metric_vs_budget(df, metric_label="micro_f1", higher_is_better=True)
    fills = [t for t in fig.data if t.fill == "toself"]
    assert len(fig.data) == 8 and len(fills) == 4
    assert fig.layout.yaxis.title.text == "micro_f1 (higher is better)"
    assert fig.layout.xaxis.title.text == "Number of selected features"


def test_metric_vs_budget_many_panels_keep_room_and_title_bottom_axes():
    """Check that 11 panels (paper 001's datasets) get gaps of about 100 px, not
    60 % of the height, and the x title only under each column's bottom panel.
    """
    df = pd.DataFrame(
        {
            "dataset": np.repeat([f"d{i:02d}" for i in range(11)], 2),
            "method": "A",
            "budget": [1, 2] * 11,
            "mean": 0.5,
        }
    )
    fig = metric_vs_budget(df, metric_label="micro_f1")
    layout = fig.layout.to_plotly_json()
    axes = {k: v for k, v in layout.items() if k.startswith("xaxis")}
    titled = sorted(k for k, v in axes.items() if v.get("title", {}).get("text"))
    # 6 rows x 2 columns: panel 11 is the bottom of column 1, panel 10 of column 2
    assert titled == ["xaxis10", "xaxis11"]
    y1, y2 = layout["yaxis"]["domain"], layout["yaxis3"]["domain"]
    gap_px = (y1[0] - y2[1]) * layout["height"]
    assert 60 <= gap_px <= 160
    plot_px = (y1[1] - y1[0]) * layout["height"]
    assert plot_px > 2 * gap_px


def test_metric_vs_budget_without_spread_columns_draws_lines_only():
    """Check that missing lower/upper columns give no band traces."""
    df = pd.DataFrame({"method": ["A", "A"], "budget": [1, 2], "mean": [0.3, 0.4]})
    fig = metric_vs_budget(df, metric_label="hamming_loss", higher_is_better=False)
    assert len(fig.data) == 1
    assert "lower is better" in fig.layout.yaxis.title.text


def test_similarity_heatmap_is_annotated_and_scaled():
    """Check that the heatmap shows rounded values in the cells and spans [-1, 1]."""
    m = pd.DataFrame(
        [[1.0, 0.256], [0.256, np.nan]], index=["A", "B"], columns=["A", "B"]
    )
    fig = similarity_heatmap(m)
    trace = fig.data[0]
    assert (trace.zmin, trace.zmax) == (-1, 1)
    assert trace.text[0][1] == "0.26" and trace.text[1][1] == ""
    assert trace.text[0][0] == "1.00"  # fixed decimals


def test_similarity_heatmap_shows_no_negative_zero():
    """Check that a tiny negative Kuncheva index (random selection) shows as 0.00."""
    ab = ["A", "B"]
    m = pd.DataFrame([[1.0, -0.001], [-0.001, 1.0]], index=ab, columns=ab)
    text = similarity_heatmap(m).data[0].text
    assert text[0][1] == "0.00" and text[1][0] == "0.00"


def test_cd_diagram_puts_rank_one_on_the_left():
    """Check that the x axis grows to the right and the best method is leftmost."""
    ranks = pd.Series({"C": 3.1, "A": 1.1, "B": 2.0})
    fig = cd_diagram(ranks, cd=1.2)
    lo, hi = fig.layout.xaxis.range
    assert lo < 1 < hi and fig.layout.xaxis.autorange is not True
    markers = [t for t in fig.data if t.mode == "markers"][0]
    assert list(markers.text)[0] == "A" and min(markers.x) == markers.x[0]
    assert "rank 1 = best, on the left" in fig.layout.title.text
    assert any("CD = 1.20" in a.text for a in fig.layout.annotations)


def test_cd_diagram_without_cd_draws_no_groups():
    """Check that cd=None draws only the methods, no clique bars or CD bar."""
    fig = cd_diagram(pd.Series({"A": 1.0, "B": 2.0}), cd=None)
    assert not any(a.text.startswith("CD") for a in fig.layout.annotations)
    assert all(t.line.width != 5 for t in fig.data if t.mode == "lines")


def test_cliques_join_methods_closer_than_cd():
    """Check that methods within CD of each other form one group, others stay apart."""
    spans = _cliques(pd.Series({"A": 1.0, "B": 1.5, "C": 3.5}), cd=1.0)
    assert spans == [(1.0, 1.5)]


def test_label_frequency_and_cooccurrence_axes():
    """Check that the dataset figures carry one trace with category axes."""
    freq = pd.DataFrame({"label": ["l1", "l2"], "count": [5, 2]})
    bar = label_frequency_bar(freq)
    assert len(bar.data) == 1 and bar.layout.yaxis.title.text == "Positive samples"
    co = pd.DataFrame([[5, 1], [1, 2]], index=["l1", "l2"], columns=["l1", "l2"])
    heat = cooccurrence_heatmap(co)
    assert heat.data[0].type == "heatmap" and list(heat.data[0].x) == ["l1", "l2"]


def test_feature_score_bar_keeps_best_on_top():
    """Check that the bar chart draws the first `top` features with the best first."""
    df = pd.DataFrame({"feature": list("abcde"), "score": [5.0, 4, 3, 2, 1]})
    fig = feature_score_bar(df, top=3)
    assert list(fig.data[0].y) == ["a", "b", "c"]
    assert fig.layout.yaxis.autorange == "reversed"


def test_precision_curve_one_line_per_method():
    """Check that precision@k draws a line per method on a [0, 1] axis."""
    df = pd.DataFrame(
        {
            "method": ["A", "A", "B", "B"],
            "k": [1, 2, 1, 2],
            "precision": [1.0, 0.5, 0.0, 0.5],
        }
    )
    fig = precision_at_k_curve(df)
    assert len(fig.data) == 2 and fig.layout.yaxis.range[0] == 0


@pytest.mark.parametrize(
    "build",
    [
        lambda: average_rank_curves(pd.DataFrame(columns=["method", "budget", "mean"])),
        lambda: metric_vs_budget(pd.DataFrame(columns=["method", "budget", "mean"])),
        lambda: similarity_heatmap(pd.DataFrame()),
        lambda: cd_diagram(pd.Series(dtype=float), cd=1.0),
        lambda: cd_diagram(pd.Series({"only": 1.0}), cd=float("nan")),
        lambda: label_frequency_bar(pd.DataFrame(columns=["label", "count"])),
        lambda: feature_score_bar(pd.DataFrame(columns=["feature", "score"])),
        lambda: precision_at_k_curve(
            pd.DataFrame(columns=["method", "k", "precision"])
        ),
    ],
)
def test_degenerate_input_gives_a_finite_serialisable_figure(build):
    """Check that empty or one-method input gives a finite figure that serialises."""
    fig = build()
    assert isinstance(fig, go.Figure) and _finite(fig)
    assert json.loads(fig.to_json())["layout"]["title"]["text"]


def test_tied_ranks_stay_finite():
    """Check that all-tied average ranks (one dataset) still draw finite values."""
    df = pd.DataFrame({"method": ["A", "B"], "budget": [10, 10], "mean": [1.5, 1.5]})
    assert _finite(average_rank_curves(df))
    assert _finite(cd_diagram(pd.Series({"A": 1.5, "B": 1.5}), cd=0.0))


def test_legend_is_horizontal_without_group_gaps():
    """Check that 12 methods get a horizontal legend under the plot (no scrollbar)."""
    methods = [f"M{i}" for i in range(12)]
    df = pd.DataFrame(
        {"method": methods * 2, "budget": [1] * 12 + [2] * 12, "mean": range(24)}
    )
    legend = average_rank_curves(df).layout.legend
    assert legend.orientation == "h" and legend.tracegroupgap == 0
    assert legend.yref == "container"


def test_cooccurrence_heatmap_keeps_the_most_frequent_labels():
    """Check that 100 labels are cut to the 40 most frequent, in label order."""
    names = [f"l{i:03d}" for i in range(100)]
    counts = np.arange(100)[::-1] % 37  # label frequencies on the diagonal
    matrix = pd.DataFrame(np.diag(counts), index=names, columns=names)
    fig = cooccurrence_heatmap(matrix)
    shown = list(fig.data[0].y)
    expected = [names[i] for i in sorted(np.argsort(-counts, kind="stable")[:40])]
    assert shown == expected and list(fig.data[0].x) == expected
    assert fig.layout.height <= 1100
    assert "40 most frequent of 100 labels" in fig.layout.title.text


def test_long_feature_names_are_cut_on_the_axis_only():
    """Check that CAL500-like 80-character names are cut on the ticks, not the data."""
    long = [
        "Emotion-Angry_/_Aggressive_and_some_more_text_" + str(i) * 30 for i in range(3)
    ]
    df = pd.DataFrame({"feature": long, "score": [3.0, 2.0, 1.0]})
    fig = feature_score_bar(df)
    assert list(fig.data[0].y) == long
    assert max(len(t) for t in fig.layout.yaxis.ticktext) <= 32
    assert all(t.endswith("…") for t in fig.layout.yaxis.ticktext)


def test_label_frequency_bar_names_every_bar_upright_or_across():
    """45 labels (medical): a tick for every bar, upright and small above 15;
    across, one row per label, the first at the top, 22 px a row."""
    names = [f"Class-{i}-{100 + i}_{i % 7}" for i in range(45)]
    freq = pd.DataFrame({"label": names, "count": range(45)})
    up = label_frequency_bar(freq)
    assert list(up.layout.xaxis.tickvals) == names
    assert up.layout.xaxis.tickmode == "array" and up.layout.xaxis.tickangle == -90
    assert up.layout.xaxis.tickfont.size == 10
    across = label_frequency_bar(freq, horizontal=True)
    assert across.data[0].orientation == "h"
    assert list(across.layout.yaxis.tickvals) == names
    assert across.layout.yaxis.autorange == "reversed"
    assert across.layout.height == 22 * 45 + 170
    few = label_frequency_bar(freq.head(6))
    assert few.layout.xaxis.tickangle is None and len(few.layout.xaxis.tickvals) == 6
