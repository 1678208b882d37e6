"""AppTest tests of the Rank features page."""

from __future__ import annotations

import numpy as np

import mlfs_core

from ..conftest import charts, new_app, open_page, spy_rankings

GREEDY = "Information-theoretic greedy filters"
"""The family title of the greedy filters in the method picker."""


def _rank_page(data_dir=None):
    at = new_app()
    if data_dir is not None:
        at.selectbox(key="dataset").select("toy").run()
    return open_page(at, "rank")


def test_rank_page_shows_top_features_table_and_bar_chart(data_dir):
    """Check that the default method ranks every feature and draws the bar chart."""
    at = _rank_page(data_dir)
    table = at.dataframe[0].value
    # no feature index in the view: the score column stays visible at 1024 px
    assert list(table.columns) == ["position", "feature", "score"]
    assert table["feature"].iloc[0] == "w0"  # the planted informative word
    assert '"bar"' in charts(at)[0].proto.spec


def test_changing_aggregation_changes_method_and_keeps_all_features(data_dir):
    """Check that choosing Mean + BNS ranks with MeanBNS."""
    at = _rank_page(data_dir)
    at.selectbox(key="rank_a_measure").select("BNS").run()
    at.selectbox(key="rank_a_agg").select("Mean").run()
    assert not at.exception
    assert at.subheader[0].value == "Top 12 features of toy by MeanBNS"


def test_compare_two_methods_reports_overlap(data_dir):
    """Check that the comparison table lists both top-k lists and an overlap count."""
    at = _rank_page(data_dir)
    at.number_input(key="rank_k").set_value(5).run()
    side = at.dataframe[1].value
    assert len(side) == 5 and side.columns[1] == "MaxCS"
    assert at.metric[0].label == "Features in both top-5 lists"
    assert at.metric[0].value.endswith("of 5")


def test_heading_and_chart_agree_when_asking_for_more_than_m(data_dir):
    """Check that "Features to show" = 100 on M = 12 says top 12 in heading, chart."""
    at = _rank_page(data_dir)
    at.slider(key="rank_top").set_value(100).run()
    assert at.subheader[0].value.startswith("Top 12 features")
    spec = charts(at)[0].proto.spec
    assert "top 12" in spec and "top 100" not in spec


def _greedy_page(data_dir, method="D2F"):
    at = _rank_page(data_dir)
    at.radio(key="rank_a_family").set_value(GREEDY).run()
    at.selectbox(key="rank_a_method").select(method).run()
    at.slider(key="rank_top").set_value(5).run()
    at.number_input(key="rank_k").set_value(5).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_greedy_method_ranks_only_the_shown_features(data_dir, monkeypatch):
    """Check that a greedy method is asked for the top 5 shown, not all 12."""
    calls = spy_rankings(monkeypatch)
    at = _greedy_page(data_dir)
    calls.clear()
    at.slider(key="rank_top").set_value(6).run()
    assert calls == [("D2F", 6)]  # not k=None or k=12: all M ranked
    assert len(at.dataframe[0].value) == 6
    assert at.button(key="rank_full").label == "Rank all 12 features"


def test_greedy_scores_are_the_criterion_path(data_dir):
    """Check that the score column holds J(f | S), not 12, 11, 10, ..."""
    import mlfs_core

    at = _greedy_page(data_dir)
    ds = mlfs_core.load_dataset(data_dir / "toy")
    expected = mlfs_core.compute_ranking(ds.X, ds.Y, "D2F", k=5).criterion_path
    scores = at.dataframe[0].value["score"].to_numpy()
    np.testing.assert_allclose(scores, expected)
    assert not set(scores.tolist()) & {12.0, 11.0, 10.0}


def test_full_ranking_on_request_with_progress(data_dir, monkeypatch):
    """Check that "Rank all" ranks every feature (k=None), once, and keeps it."""
    calls = spy_rankings(monkeypatch)
    at = _greedy_page(data_dir)
    assert ("D2F", None) not in calls
    at.button(key="rank_full").click().run()
    assert not at.exception
    assert calls.count(("D2F", None)) == 1
    assert len(at.session_state["rank_full_table"][1]) == 12
    at.slider(key="rank_top").set_value(6).run()  # a rerun does not recompute
    assert calls.count(("D2F", None)) == 1


def test_stop_abandons_a_full_ranking(data_dir, monkeypatch):
    """Check that Stop after an interrupted full ranking clears the request."""
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException

    from ui.sections import full_ranking

    at = _greedy_page(data_dir)

    def interrupted(*args):  # what a click on Stop does to the running script
        raise StopException()

    monkeypatch.setattr(full_ranking, "_rank_all", interrupted)
    at.button(key="rank_full").click().run()
    assert "rank_full_request" in at.session_state
    at.button(key="rank_stop").click().run()
    assert not at.exception
    assert "rank_full_request" not in at.session_state
    assert at.info[0].value == "Full ranking stopped."
    assert "rank_full_table" not in at.session_state


def test_method_options_render_from_the_registry(data_dir):
    """Check that text options are choice boxes and numbers keep their ranges.

    ``discretize`` and ``variant`` used to render as free text, and ``bins`` /
    ``tau`` accepted 0; now each widget follows the method's registry Option.
    """
    at = _rank_page(data_dir)
    at.radio(key="rank_a_family").set_value(GREEDY).run()
    at.selectbox(key="rank_a_method").select("PMU").run()
    assert not at.exception
    spec = mlfs_core.get_method("PMU")
    discretize = at.selectbox(key="rank_a_discretize")
    assert list(discretize.options) == list(spec.option("discretize").choices)
    variant = at.selectbox(key="rank_a_variant")
    assert list(variant.options) == ["definition", "reference-code"]
    assert at.number_input(key="rank_a_bins").min == 2
    assert "uniform-sklearn-1.0" in discretize.options  # the papers' strategy
    variant.select("reference-code").run()
    assert not at.exception and not at.error
    at.selectbox(key="rank_a_method").select("ATR").run()
    assert at.number_input(key="rank_a_tau").min == 1
    # every text option of every method is a choice box, never free text
    assert not [t for t in at.text_input if t.key and t.key.startswith("rank_a_")]


def test_rar_weighting_is_a_choice_box(data_dir):
    """Check that RaR's weighting offers exactly the engine's weightings."""
    at = _rank_page(data_dir)
    at.selectbox(key="rank_a_agg").select("RaR").run()
    weighting = at.selectbox(key="rank_a_weighting")
    assert list(weighting.options) == ["inverse", "proportional", "uniform"]
    weighting.select("uniform").run()
    assert not at.exception and not at.error


def test_sample_page_never_ranks_every_feature(monkeypatch):
    """Check that on the sample (M = 2000) no ranking asks for all features."""
    calls = spy_rankings(monkeypatch)
    at = _rank_page()
    at.radio(key="rank_a_family").set_value(GREEDY).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(m == "PPT-MI" for m, _ in calls)
    assert all(k is not None and k <= 50 for m, k in calls if m != "MaxCS"), calls
    assert at.button(key="rank_full").label == "Rank all 2000 features"


def test_rank_only_scores_are_explained_not_drawn_as_a_flat_wall(data_dir):
    """Check that RoR's "score" (12, 11, 10 ...: the position turned around) is
    named an order score and explained, with no "higher is better" bar chart."""
    at = _rank_page(data_dir)
    at.selectbox(key="rank_a_agg").select("RoR").run()
    assert not at.exception
    assert at.subheader[0].value.endswith("by RoRCS")
    table = at.dataframe[0].value
    assert list(table.columns) == ["position", "feature", "order score"]
    assert table["order score"].tolist()[:3] == [12.0, 11.0, 10.0]
    assert any("no score of strength" in i.value for i in at.info)
    assert not [c for c in charts(at) if '"bar"' in c.proto.spec]
