"""AppTest: presentation mode on Data, Rank features, the Learn pages and Experiment.

Issue 43, item 5: at 1280 x 720 a projector shows each page's main chart
whole, under the page title, with text of 16 px and more in near-black and
the legend on top. With ``?present=true`` each page draws its main chart
before its choices (those move into an expander under it; the aggregation
and greedy pages' step slider and Play right above the chart, both above the
fold), and a large heatmap draws at most :data:`ui.presentation.MAX_ROWS`
label rows with a caption saying so.
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from mlfs_core.plots._style import INK
from ui.presentation import MAIN_CHART_PX, MAX_ROWS, ROWS_UNDER_STEPS

from ..conftest import ROOT, charts, link_shared, new_app, open_page, text_sizes

PROTOCOL_A = str(ROOT / "sample_data" / "results" / "protocol_a")

MAIN = {
    "data": ("Label frequency", "upload_files"),
    "rank": ("top 20", "rank_top"),
    "learn_score": ("per label", "score_measure"),
    "learn_aggregation": ("Whose turn", "agg_method"),
    "learn_greedy": ("Candidates at this step", "greedy_method"),
    "learn_relief": ("nearest neighbours among", "relief_k"),
}
"""Page -> (a word of its main chart's spec, the key (prefix) of a choice that
presentation mode moves under the chart)."""

PLAY = {
    # Score's Play steps the labels of the 2x2 table, under the heatmap and
    # its one-line expander; the other two step the chart itself and are
    # right above it
    "learn_score": "score_label_play",
    "learn_aggregation": "agg_step_play",
    "learn_greedy": "greedy_step_play",
    "learn_relief": "relief_reference_play",
}


def _in_order(node):
    """Every element under ``node`` in page order."""
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _in_order(child)


def _open(page: str, *, present: bool, **state) -> AppTest:
    at = open_page(new_app(present=present, timeout=300, **state), page)
    assert not at.error, [e.value for e in at.error]
    return at


def _positions(at: AppTest, word: str, *keys: str) -> list[int]:
    """Page-order positions of the chart whose spec holds ``word`` and of the
    first widget whose key starts with each of ``keys``."""
    elements = list(_in_order(at.main))
    chart = next(
        i
        for i, e in enumerate(elements)
        if getattr(e, "type", "") == "plotly_chart" and word in e.proto.spec
    )
    found = [chart]
    for key in keys:
        found.append(
            next(
                i
                for i, e in enumerate(elements)
                if str(getattr(e, "key", None) or "").startswith(key)
            )
        )
    return found


def _main_chart(at: AppTest, word: str) -> dict:
    (chart,) = [c for c in charts(at) if word in c.proto.spec]
    return json.loads(chart.proto.spec)


def _assert_projector(spec: dict, page: str) -> None:
    layout = spec["layout"]
    sizes = text_sizes(layout) + text_sizes({"d": spec["data"]})
    assert sizes and min(sizes) >= 16, (page, sorted(sizes)[:3])
    assert layout["font"]["color"] == INK, page
    for axis in ("xaxis", "yaxis"):
        assert layout[axis]["tickfont"] == {"size": 16, "color": INK}, page
    assert layout["height"] <= MAIN_CHART_PX, (page, layout["height"])
    if layout.get("showlegend", True) and len(spec["data"]) > 1:
        assert layout["legend"]["yanchor"] == "top", page


@pytest.mark.parametrize("page", list(MAIN))
def test_presentation_draws_the_main_chart_first_large_and_dark(page):
    """Check on each page with ``?present=true``: the main chart comes before
    the page's choices (which come first without it), its text is 16 px or
    more in near-black, and its height fits under the title at 1280 x 720."""
    word, key = MAIN[page]
    at = _open(page, present=True)
    chart, choice = _positions(at, word, key)
    assert chart < choice, page
    _assert_projector(_main_chart(at, word), page)
    if page in PLAY:
        chart, play, choice = _positions(at, word, PLAY[page], key)
        if page == "learn_score":  # under the heatmap's one-line expander
            assert choice < play and chart < play, page
        else:  # right above the chart it steps, both above the fold
            assert play < chart < choice, page
    plain = _open(page, present=False)
    chart, choice = _positions(plain, word, key)
    assert choice < chart, page
    assert _main_chart(plain, word)["layout"]["font"]["size"] < 16


def test_the_learn_pages_play_in_presentation_mode(monkeypatch):
    """Check that Play in presentation mode steps the aggregation to its last
    pick, and the chart right under the title circles that turn."""
    from ui.sections import learn

    monkeypatch.setattr(learn, "PLAY_PAUSE", 0.0)
    at = _open("learn_aggregation", present=True, agg_step=1, agg_k=4)
    at.button(key="agg_step_play").click()
    at.run()
    assert not at.exception
    assert at.slider(key="agg_step").value == 4
    (turn,) = [
        t for t in _main_chart(at, "Whose turn")["data"] if t.get("name") == "this turn"
    ]
    assert [str(v) for v in turn["text"]] == ["4"]
    chart, play, choice = _positions(at, "Whose turn", "agg_step_play", "agg_k")
    assert play < chart < choice


@pytest.fixture
def medical(shared_datasets, tmp_path, monkeypatch):
    """A data folder with a link to the shared medical (45 labels)."""
    return link_shared(shared_datasets, tmp_path / "real", monkeypatch, "medical")


def _on_medical(page: str, *, present: bool, **state) -> AppTest:
    at = new_app(present=present, timeout=300, **state)
    at.selectbox(key="dataset").select("medical").run()
    return open_page(at, page)


def test_presentation_limits_a_large_heatmap_and_says_so(medical):
    """Check on medical (45 labels): in presentation mode the Score and the
    aggregation heatmaps draw at most MAX_ROWS label rows (ROWS_UNDER_STEPS
    under the aggregation's step row), distinct, with a
    caption saying how many of the 45 are shown; the aggregation keeps the
    rows of the labels whose turn it was and circles the current turn; the
    CSV keeps every label. Without presentation mode more rows are drawn."""
    for page, word in (
        ("learn_score", "per label"),
        ("learn_aggregation", "Whose turn"),
    ):
        at = _on_medical(page, present=True, agg_method="RoR", agg_k=4, agg_step=3)
        spec = _main_chart(at, word)
        heat = next(t for t in spec["data"] if t["type"] == "heatmap")
        limit = ROWS_UNDER_STEPS if page == "learn_aggregation" else MAX_ROWS
        assert 2 <= len(heat["y"]) <= limit, page
        assert len(set(heat["y"])) == len(heat["y"])
        (note,) = [c.value for c in at.caption if "Presentation mode draws" in c.value]
        assert f"{len(heat['y'])} of the 45 labels" in note
        _assert_projector(spec, page)
        if page == "learn_aggregation":
            turn = next(t for t in spec["data"] if t.get("name") == "this turn")
            assert len(turn["y"]) == 1 and turn["y"][0] in heat["y"]
            earlier = next(t for t in spec["data"] if t.get("name") == "taken earlier")
            assert len(earlier["y"]) == 2
        plain = _on_medical(page, present=False, agg_method="RoR", agg_k=4)
        rows = next(
            t for t in _main_chart(plain, word)["data"] if t["type"] == "heatmap"
        )["y"]
        assert len(rows) > MAX_ROWS, page


def _run_figure(folder: str) -> None:
    from ui.sections.run_figure import show_run_figure

    show_run_figure(folder)


def test_the_experiment_run_figure_is_sized_for_the_projector():
    """Check the Experiment page's run figure in presentation mode: 16 px and
    more, near-black, at most MAIN_CHART_PX high; without it, 14 px."""
    run = AppTest.from_function(_run_figure, args=(PROTOCOL_A,), default_timeout=120)
    run.session_state["present"] = True
    run.run()
    assert not run.exception
    _assert_projector(_main_chart(run, "This run"), "experiment")
    run.session_state["present"] = False
    run.run()
    assert _main_chart(run, "This run")["layout"]["font"]["size"] < 16


def test_rank_features_without_a_chart_says_why_in_its_place():
    """Check Rank features in presentation mode with an order-only method
    (RoR): no bar chart, and the note saying why stands where the chart would
    be, above the choices' expander, not hidden in it."""
    at = _open("rank", present=True)
    at.selectbox(key="rank_a_agg").select("RoR").run()
    assert not at.exception and not at.error
    assert not [c for c in charts(at) if "top 20" in c.proto.spec]
    elements = list(_in_order(at.main))
    note = next(
        i
        for i, e in enumerate(elements)
        if getattr(e, "type", "") == "info" and "order alone" in str(e.value)
    )
    choice = next(
        i for i, e in enumerate(elements) if getattr(e, "key", None) == "rank_top"
    )
    assert note < choice
