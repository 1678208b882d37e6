"""Issue 43, items 5, 6 and 8 in the app: one look per method on every page,
presentation mode, few coloured lines a panel, one default metric, links."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from mlfs_core.plots import method_look
from mlfs_core.plots._style import GREY, INK
from ui.choices import MAX_COLOURED, NO_HIGHLIGHT

from ..conftest import (
    APP,
    PAGE_PATHS,
    ROOT,
    charts,
    new_app,
    open_page,
    text_sizes,
    widget,
)

SAMPLE_A = "Precomputed (sample): protocol a"
PROTOCOL_A = str(ROOT / "sample_data" / "results" / "protocol_a")


def _spec(chart) -> dict:
    return json.loads(chart.proto.spec)


def _line_colours(spec: dict) -> dict[str, str]:
    """Method -> colour of its line (bands, grey traces and empty legend
    entries left out)."""
    return {
        str(t["legendgroup"]): t["line"]["color"]
        for t in spec["data"]
        if t.get("fill") != "toself"
        and t.get("legendgroup")
        and t.get("line", {}).get("color") not in (None, GREY)
    }


def _coloured_per_panel(spec: dict) -> dict[str, int]:
    """Panel (x axis) -> number of methods drawn in colour there."""
    panels: dict[str, set] = {}
    for t in spec["data"]:
        colour = t.get("line", {}).get("color")
        if t.get("fill") == "toself" or colour in (None, GREY) or t.get("x") == [None]:
            continue
        panels.setdefault(t.get("xaxis", "x"), set()).add(t.get("legendgroup"))
    return {axis: len(names) for axis, names in panels.items()}


def _on_sample_a(at: AppTest) -> AppTest:
    at.radio(key="results_source_widget").set_value(SAMPLE_A).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _run_figure(folder: str) -> None:
    from ui.sections.run_figure import show_run_figure

    show_run_figure(folder)


def test_a_method_has_the_same_colour_on_every_page():
    """Check that each method of the sample's protocol A results is drawn in
    its one colour on Experiment's run figure, Average ranks and Metric vs
    budget (MaxCS was green on one page and yellow on another)."""
    run = AppTest.from_function(_run_figure, args=(PROTOCOL_A,), default_timeout=120)
    run.run()
    assert not run.exception, [e.value for e in run.exception]
    seen = {"experiment": _line_colours(_spec(charts(run)[0]))}
    at = _on_sample_a(open_page(new_app(), "average_ranks"))
    at.selectbox(key="ranks_highlight").select(NO_HIGHLIGHT).run()
    seen["average_ranks"] = _line_colours(_spec(charts(at)[0]))
    at = _on_sample_a(open_page(at, "budget"))
    at.selectbox(key="budget_highlight").select(NO_HIGHLIGHT).run()
    seen["budget"] = _line_colours(_spec(charts(at)[0]))
    for page, colours in seen.items():
        assert len(colours) >= 10, page
        for name, colour in colours.items():
            assert colour == method_look(name)["color"], (page, name)
    assert seen["budget"]["MaxCS"] == seen["average_ranks"]["MaxCS"]


def test_the_cd_diagram_marks_each_method_in_its_colour():
    """Check that the CD diagram under Average ranks colours each method's
    marker as its lines are coloured on every chart."""
    at = open_page(new_app(), "average_ranks")
    (cd,) = [c for c in charts(at) if "rank 1 = best" in c.proto.spec]
    (markers,) = [t for t in _spec(cd)["data"] if t.get("mode") == "markers"]
    for name, colour in zip(markers["text"], markers["marker"]["color"], strict=True):
        assert colour == method_look(name)["color"]


def _presenting(page: str, *, by_url: bool) -> AppTest:
    at = new_app(present=by_url, timeout=300)
    if not by_url:
        at.toggle(key="present").set_value(True).run()
    return open_page(at, page)


def test_presentation_mode_from_the_url_makes_large_dark_text():
    """Check that ``?present=true`` turns presentation mode on: on each analysis
    page the main chart's text is 16 px or more, near-black, its legend at
    the top and its height fits under the title at 1280 x 720."""
    for page in ("average_ranks", "similarity", "budget"):
        at = _presenting(page, by_url=True)
        assert at.toggle(key="present").value is True
        spec = _spec(charts(at)[0])
        layout = spec["layout"]
        sizes = text_sizes(layout) + text_sizes({"d": spec["data"]})
        assert sizes and min(sizes) >= 16, page
        assert layout["font"]["color"] == INK
        for axis in ("xaxis", "yaxis"):
            assert layout[axis]["tickfont"] == {"size": 16, "color": INK}, page
        assert layout["legend"]["yanchor"] == "top" and layout["legend"]["y"] > 0.8
        assert layout["height"] <= 470, page


def test_presentation_toggle_in_the_sidebar_and_off_by_default():
    """Check that the sidebar toggle turns presentation mode on (text 16 px and
    more), and that without it the chart's text is 14 px near-black (not
    Streamlit's light grey theme: the chart is drawn with ``theme=None``)."""
    at = _presenting("budget", by_url=False)
    layout = _spec(charts(at)[0])["layout"]
    assert min(text_sizes(layout)) >= 16
    at = open_page(new_app(), "budget")
    chart = charts(at)[0]
    layout = _spec(chart)["layout"]
    assert layout["font"] == {"size": 14, "color": INK}
    assert chart.proto.theme == ""


def test_presentation_puts_the_chart_before_the_choices():
    """Check that in presentation mode the page's choices are in an expander
    under the chart, and Metric vs budget opens on one row of two datasets."""
    at = _presenting("budget", by_url=True)
    assert [e.label for e in at.expander][:2] == [
        "Chart choices",
        "Results, metric, methods and notes",
    ]
    titles = [a["text"] for a in _spec(charts(at)[0])["layout"]["annotations"]]
    assert len(titles) == 2


def test_many_methods_open_on_one_highlight_and_say_how_to_see_all():
    """Check that no panel opens with more than 6 coloured lines: Metric vs
    budget on the Paper 001 study (12 methods) and Average ranks in one panel
    (10 methods) open on one method highlighted, with a caption saying how to
    see them all; choosing no highlight colours them all."""
    at = open_page(new_app(), "budget")
    spec = _spec(charts(at)[0])
    counts = _coloured_per_panel(spec)
    assert counts and max(counts.values()) <= MAX_COLOURED
    assert at.selectbox(key="budget_highlight").value == "PPT-MI"
    assert any(NO_HIGHLIGHT in c.value for c in at.caption)
    at.selectbox(key="budget_highlight").select(NO_HIGHLIGHT).run()
    assert max(_coloured_per_panel(_spec(charts(at)[0])).values()) == 12

    at = open_page(new_app(), "average_ranks")
    counts = _coloured_per_panel(_spec(charts(at)[0]))  # a panel per measure: 6
    assert at.selectbox(key="ranks_highlight").value == NO_HIGHLIGHT
    assert max(counts.values()) == 6
    at.toggle(key="ranks_by_measure").set_value(False).run()
    counts = _coloured_per_panel(_spec(charts(at)[0]))
    assert max(counts.values()) <= MAX_COLOURED
    assert at.selectbox(key="ranks_highlight").value == "MaxCS"


def test_every_analysis_page_opens_on_one_metric_and_carries_the_choice():
    """Check that Average ranks (Paper 000 study) and Metric vs budget (Paper
    001 study) both open on micro_f1, and a metric chosen on one page is the
    one the other opens on."""
    at = open_page(new_app(), "average_ranks")
    assert widget(at, "selectbox", "ranks_metric").value == "micro_f1"
    at = open_page(new_app(), "budget")
    assert widget(at, "selectbox", "budget_metric").value == "micro_f1"
    at.selectbox(key="budget_metric").select("example_f1").run()
    open_page(at, "average_ranks")
    assert at.selectbox(key="ranks_metric").value == "example_f1"
    open_page(at, "budget")
    assert at.selectbox(key="budget_metric").value == "example_f1"


def _opened_with(page: str, query: dict[str, str]) -> AppTest:
    """A session opened on ``page`` by a link carrying ``query`` (a pasted URL)."""
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params.update(query)
    at.switch_page(PAGE_PATHS[page]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_link_opens_the_same_view():
    """Check that the analysis pages' choices come back from the URL: metric,
    highlight, budget and presentation mode of a pasted link (values as the
    widgets write them: the metric with its direction, the budget in %)."""
    at = _opened_with(
        "budget",
        {
            "budget_metric": "hamming_loss (lower is better)",
            "budget_highlight": "PMU",
            "present": "true",
        },
    )
    assert at.selectbox(key="budget_metric").value == "hamming_loss"
    assert at.selectbox(key="budget_highlight").value == "PMU"
    assert _line_colours(_spec(charts(at)[0])) == {"PMU": method_look("PMU")["color"]}
    assert min(text_sizes(_spec(charts(at)[0])["layout"])) >= 16
    at = _opened_with(
        "average_ranks",
        {"ranks_metric": "hamming_loss (lower is better)", "ranks_budget": "30 %"},
    )
    assert at.selectbox(key="ranks_metric").value == "hamming_loss"
    assert widget(at, "select_slider", "ranks_budget").value == 30.0
    at = _opened_with("similarity", {"sim_budget": "10 %"})
    assert widget(at, "select_slider", "sim_budget").value == 10.0
    assert "Kuncheva similarity at 10 %" in charts(at)[0].proto.spec
