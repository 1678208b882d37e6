"""Issue 43, items 5 and 6: one look per method, and figures a projector can show."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pandas as pd
import plotly.graph_objects as go
import pytest

from mlfs_core.plots import (
    average_rank_curves,
    cd_diagram,
    for_projector,
    method_look,
    metric_vs_budget,
    pvalue_heatmap,
    similarity_heatmap,
)
from mlfs_core.plots._look import COLOURS, built_in_looks, method_looks
from mlfs_core.plots._present import PRESENT_GAP_PX, PRESENT_TICK_PX
from mlfs_core.plots._style import (
    INK,
    TITLE_PX,
    legend_rows,
    method_styles,
)
from mlfs_core.selectors import METHODS, list_methods, register, unregister

PAPER000 = list_methods("score-aggregation") + list_methods("baseline")
PAPER001 = list_methods("information-theoretic") + list_methods("baseline")


def _curves(methods, panels=("d0",), budgets=(10, 20, 30)) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"dataset": p, "method": m, "budget": b, "mean": 0.1 * i + 0.001 * b}
            for p in panels
            for i, m in enumerate(methods)
            for b in budgets
        ]
    )


def _line_colours(fig: go.Figure) -> dict[str, str]:
    return {
        t.name: t.line.color
        for t in fig.data
        if t.fill != "toself" and t.line.color is not None
    }


def test_every_built_in_method_has_a_look_of_its_own():
    """Check that no two built-in methods share colour, dash and marker, and
    that every colour is one of Okabe-Ito's."""
    looks = built_in_looks()
    assert list(looks) == list_methods()[: len(looks)]
    assert len(looks) == 32 and set(looks) <= set(METHODS)
    triples = [(s["color"], s["dash"], s["symbol"]) for s in looks.values()]
    assert len(set(triples)) == len(triples)
    assert {s["color"] for s in looks.values()} <= set(COLOURS)


def test_the_methods_of_one_study_have_distinct_colour_and_dash():
    """Check that paper 000's 10 and paper 001's 12 methods are apart by
    (colour, dash) and AF no longer shares MeanBNS's blue (issue 43)."""
    for methods in (PAPER000, PAPER001):
        pairs = {(s["color"], s["dash"]) for s in method_styles(methods).values()}
        assert len(pairs) == len(methods)
    assert method_look("AF")["color"] != method_look("MeanBNS")["color"]
    # a per-measure panel (4 aggregations + 2 baselines): 6 colours
    panel = ["MaxCS", "MeanCS", "RoRCS", "RaRCS", "Random", "AF"]
    assert len({method_look(m)["color"] for m in panel}) == 6


def test_a_method_keeps_its_look_whatever_the_company_and_order():
    """Check that MaxCS looks the same among any methods in any order (it was
    green in one list and yellow in another when looks followed positions)."""
    wanted = method_look("MaxCS")
    others = ["AF", "Random", "MeanBNS", "PMU", "RaRCS"]
    for k in range(len(others) + 1):
        for company in itertools.permutations(others, k):
            for at in range(len(company) + 1):
                names = [*company[:at], "MaxCS", *company[at:]]
                assert method_styles(names)["MaxCS"] == wanted


def test_figures_of_every_kind_draw_a_method_in_its_own_colour():
    """Check that the rank curves, metric-vs-budget curves and the CD diagram
    draw MaxCS in its one colour, whatever the other methods and their order."""
    colour = method_look("MaxCS")["color"]
    ranks = _curves(["RaRBNS", "MaxCS", "AF"]).rename(columns={"budget": "budget"})
    fig = average_rank_curves(ranks)
    assert _line_colours(fig)["MaxCS"] == colour
    fig = metric_vs_budget(_curves(["PMU", "AF", "MaxCS"]), references=[])
    assert _line_colours(fig)["MaxCS"] == colour
    fig = cd_diagram(pd.Series({"AF": 1.5, "MaxCS": 2.0, "Random": 3.0}), cd=1.0)
    (markers,) = [t for t in fig.data if t.mode == "markers"]
    drawn = dict(zip(markers.text, markers.marker.color, strict=True))
    assert drawn["MaxCS"] == colour and drawn["AF"] == method_look("AF")["color"]


_IN_A_FRESH_PROCESS = (
    "from mlfs_core.plots import method_look;"
    "print(sorted(method_look('my_plugin_method').items()))"
)


def test_a_plug_in_gets_a_stable_look():
    """Check that a name outside the registry gets the same look in another
    process (a digest of its name, not Python's salted hash) and once
    registered as a plug-in, and that several such names stay apart."""
    here = sorted(method_look("my_plugin_method").items())
    out = subprocess.run(
        [sys.executable, "-c", _IN_A_FRESH_PROCESS],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": ""},
    )
    assert out.stdout.strip() == str(here)

    def my_plugin_method(X, Y, *, k, random_state):
        return list(range(X.shape[1]))

    register(my_plugin_method, version="1")
    try:
        assert sorted(method_look("my_plugin_method").items()) == here
        assert method_look("MaxCS") == built_in_looks()["MaxCS"]
    finally:
        unregister("my_plugin_method")
    uploaded = method_looks(["A", "B", "C", "D", "E", "F", "G"])
    assert len({s["color"] for s in uploaded.values()}) == 7
    # the looks depend on the set of names, not on their order
    reordered = method_looks(["C", "A", "B"])
    assert all(reordered[n] == s for n, s in method_looks(["A", "B", "C"]).items())


def _font_sizes(spec: dict) -> list[float]:
    """Every font size a figure's dict sets, in its layout and its traces."""
    sizes = []

    def walk(node, key=""):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "size" and "font" in key and isinstance(v, int | float):
                    sizes.append(v)
                walk(v, k if "font" in k else key)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)

    walk(spec)
    return sizes


@pytest.mark.parametrize(
    "figure",
    [
        lambda: metric_vs_budget(_curves(PAPER001, panels=("a", "b", "c", "d"))),
        lambda: average_rank_curves(_curves(PAPER000).drop(columns="dataset")),
        lambda: cd_diagram(pd.Series({m: i + 1.0 for i, m in enumerate(PAPER000)}), 2),
        lambda: similarity_heatmap(
            pd.DataFrame([[1.0, 0.2], [0.2, 1.0]], index=["A", "B"], columns=["A", "B"])
        ),
        lambda: pvalue_heatmap(
            pd.DataFrame([[1, 0.01], [0.01, 1]], index=["A", "B"], columns=["A", "B"])
        ),
    ],
)
def test_presentation_text_is_large_and_dark(figure):
    """Check that in presentation mode every font size of the figure is at least
    16 px, the text colour is near-black and the legend stays at the top."""
    fig = for_projector(figure())
    spec = fig.to_plotly_json()
    sizes = _font_sizes(spec["layout"]) + _font_sizes({"data": spec["data"]})
    assert sizes and min(sizes) >= PRESENT_TICK_PX
    assert spec["layout"]["font"]["color"] == INK
    assert spec["layout"]["xaxis"]["tickfont"]["color"] == INK
    for note in spec["layout"].get("annotations", []):
        assert note["font"]["size"] >= PRESENT_TICK_PX and note["font"]["color"] == INK
    legend = spec["layout"]["legend"]
    assert legend["yanchor"] == "top" and legend["yref"] == "container"
    assert legend["orientation"] == "h"


def test_rows_of_panels_leave_room_for_axis_and_panel_titles():
    """Check that two rows of panels are at least PRESENT_GAP_PX apart in
    presentation mode (an x-axis title sat on the next panel's title), and
    that the panel titles move with their row."""
    fig = for_projector(metric_vs_budget(_curves(PAPER001, panels=("a", "b", "c"))))
    layout = fig.layout
    plot_px = layout.height - layout.margin.t - layout.margin.b
    upper, lower = layout.yaxis.domain, layout.yaxis3.domain
    assert (upper[0] - lower[1]) * plot_px >= PRESENT_GAP_PX - 1
    tops = {a.text: a.y for a in layout.annotations}
    assert tops["a"] == pytest.approx(upper[1]) and tops["c"] == pytest.approx(lower[1])


def test_the_top_margin_holds_every_legend_row_and_the_panel_titles():
    """Check that a legend wrapping to two rows does not sit on the panel
    titles: the top margin grows with the rows (on screen and presented)."""
    fig = metric_vs_budget(_curves(PAPER001, panels=("a", "b")))
    assert legend_rows(fig, 14) >= 2
    assert fig.layout.margin.t >= TITLE_PX + 2 * 24 + 14
    for_projector(fig)
    assert fig.layout.margin.t >= TITLE_PX + legend_rows(fig, 18) * 28 + 18


def test_one_row_figures_take_the_height_asked_for():
    """Check that presentation mode sizes a one-row figure to fit the screen
    and leaves a figure of several rows its height."""
    fig = for_projector(
        similarity_heatmap(pd.DataFrame(0.5, PAPER000, PAPER000)), height=470
    )
    assert fig.layout.height == 470
    tall = metric_vs_budget(_curves(["MaxCS"], panels=("a", "b", "c")))
    assert for_projector(tall, height=470).layout.height == tall.layout.height


def test_an_aggregation_alone_takes_its_methods_colour():
    """Check that paper 000's Figure 1 (one line per aggregation: "Max",
    "RaR" ...) draws each aggregation in the colour of its methods."""
    looks = method_looks(["Max", "Mean", "RoR", "RaR", "Random", "AF"])
    for aggregation in ("Max", "Mean", "RoR", "RaR"):
        assert looks[aggregation]["color"] == method_look(f"{aggregation}CS")["color"]
    assert len({s["color"] for s in looks.values()}) == 6


def test_presented_cd_diagram_keeps_room_for_its_larger_labels():
    """Check that the CD diagram's side margins grow with its labels' font in
    presentation mode (the labels were cut at the figure's edges)."""
    ranks = pd.Series({m: i + 1.0 for i, m in enumerate(PAPER000)})
    screen = cd_diagram(ranks, 2.0)
    presented = for_projector(cd_diagram(ranks, 2.0))
    longest = max(len(f"{m} ({r:.2f})") for m, r in ranks.items())
    assert presented.layout.margin.l >= 0.55 * 18 * longest
    assert presented.layout.margin.l > screen.layout.margin.l
    assert presented.layout.margin.r > screen.layout.margin.r
