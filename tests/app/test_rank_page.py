"""AppTest tests of the Rank features page."""

from __future__ import annotations

from .conftest import charts, new_app, open_page


def _rank_page(data_dir=None):
    at = new_app()
    if data_dir is not None:
        at.selectbox(key="dataset").select("toy").run()
    return open_page(at, "rank")


def test_rank_page_shows_top_features_table_and_bar_chart(data_dir):
    """Check that the default method ranks every feature and draws the bar chart."""
    at = _rank_page(data_dir)
    table = at.dataframe[0].value
    assert list(table.columns) == ["position", "feature_index", "feature", "score"]
    assert table["feature"].iloc[0] == "w0"  # the planted informative word
    assert '"bar"' in charts(at)[0].proto.spec


def test_changing_aggregation_changes_method_and_keeps_all_features(data_dir):
    """Check that choosing Mean + BNS ranks with MeanBNS."""
    at = _rank_page(data_dir)
    at.selectbox(key="rank_a_measure").select("BNS").run()
    at.selectbox(key="rank_a_aggregation").select("Mean").run()
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
