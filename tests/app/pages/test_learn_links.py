"""AppTest: Rank features and the Learn pages keep their choices in the URL.

Issue 43, item 3: Rank features set to BNS + Mean came back as CS + Max after
a visit to another page; the Score page's label and rule, the aggregation
page's method and step, the same. Every widget is now bound to a query
parameter (``ui.links.bound``): a page switch, a reload and a pasted link
open the same view.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from ..conftest import APP, PAGE_PATHS, new_app, open_page


def _away_and_back(at: AppTest, page: str) -> AppTest:
    open_page(at, "data")
    return open_page(at, page)


def test_rank_features_keeps_bns_mean_across_a_page_switch():
    """Check BNS + Mean (and the shown count) survive a visit to Data, and the
    URL's query string carries them."""
    at = open_page(new_app(), "rank")
    at.selectbox(key="rank_a_measure").select("BNS").run()
    at.selectbox(key="rank_a_agg").select("Mean").run()
    at.slider(key="rank_top").set_value(30).run()
    _away_and_back(at, "rank")
    assert not at.exception and not at.error
    assert at.selectbox(key="rank_a_measure").value == "BNS"
    assert at.selectbox(key="rank_a_agg").value == "Mean"
    assert at.slider(key="rank_top").value == 30
    assert at.subheader[0].value.endswith("by MeanBNS")
    params = at.query_params
    assert (params["rank_a_measure"], params["rank_a_agg"]) == ("BNS", "Mean")
    assert params["rank_top"] == "30"


def test_rank_options_and_comparison_are_kept():
    """Check a method option (binarize) and the comparison's k come back."""
    at = open_page(new_app(), "rank")
    at.selectbox(key="rank_a_binarize").select("median").run()
    at.number_input(key="rank_k").set_value(7).run()
    _away_and_back(at, "rank")
    assert at.selectbox(key="rank_a_binarize").value == "median"
    assert at.number_input(key="rank_k").value == 7
    assert at.query_params["rank_k"] == "7"


def test_score_page_keeps_label_rule_and_measure():
    """Check the Score page's label, "present when" rule and measure come back."""
    at = open_page(new_app(), "learn_score")
    last = len(at.selectbox(key="score_label").options) - 1
    at.selectbox(key="score_label").set_value(last).run()
    at.radio(key="score_rule").set_value("median").run()
    at.radio(key="score_measure").set_value("bns").run()
    _away_and_back(at, "learn_score")
    assert at.selectbox(key="score_label").value == last
    assert at.radio(key="score_rule").value == "median"
    assert at.radio(key="score_measure").value == "bns"
    label = at.selectbox(key="score_label").options[last]
    assert at.query_params["score_label"] == label  # the label's name, readable


def test_aggregation_page_keeps_method_and_step():
    """Check the aggregation's method, k and step come back after a page switch."""
    at = open_page(new_app(), "learn_aggregation")
    at.selectbox(key="agg_method").set_value("RoR").run()
    at.slider(key="agg_k").set_value(8).run()
    at.slider(key="agg_step").set_value(5).run()
    _away_and_back(at, "learn_aggregation")
    assert at.selectbox(key="agg_method").value == "RoR"
    assert at.slider(key="agg_k").value == 8
    assert at.slider(key="agg_step").value == 5
    assert at.info[0].value.startswith("Step 5:")
    assert at.query_params["agg_method"] == "RoR"


def test_greedy_page_keeps_method_steps_and_step():
    """Check the greedy method, its option, the steps and the step come back."""
    at = open_page(new_app(), "learn_greedy")
    at.selectbox(key="greedy_method").set_value("D2F").run()
    at.number_input(key="greedy_bins").set_value(4).run()
    at.slider(key="greedy_k").set_value(5).run()
    at.slider(key="greedy_step").set_value(4).run()
    _away_and_back(at, "learn_greedy")
    assert at.selectbox(key="greedy_method").value == "D2F"
    assert at.number_input(key="greedy_bins").value == 4
    assert (at.slider(key="greedy_k").value, at.slider(key="greedy_step").value) == (
        5,
        4,
    )
    assert at.query_params["greedy_method"] == "D2F"


def test_a_pasted_link_opens_the_same_view():
    """Check a fresh session opened with the query string shows that view."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(agg_method="Mean", agg_measure="BNS", agg_step="3")
    at.switch_page(PAGE_PATHS["learn_aggregation"]).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="agg_method").value == "Mean"
    assert at.slider(key="agg_step").value == 3
    assert "mean score" in at.info[0].value and at.info[0].value.startswith("Step 3")


def test_a_step_beyond_the_steps_is_brought_back():
    """Check a kept step larger than the new number of steps shows the last one."""
    at = open_page(new_app(), "learn_greedy")
    at.slider(key="greedy_k").set_value(6).run()
    at.slider(key="greedy_step").set_value(6).run()
    at.slider(key="greedy_k").set_value(3).run()
    assert not at.exception and not at.error
    assert at.slider(key="greedy_step").value == 3


def test_a_link_comparing_more_than_shown_ranks_enough():
    """Check a link with a greedy method, 5 shown and k = 30 compared: the
    comparison lists 30 rows of each method (PMU ranks only what is asked)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(
        rank_a_family="Information-theoretic greedy filters",
        rank_a_method="PMU",
        rank_top="5",
        rank_k="30",
    )
    at.switch_page(PAGE_PATHS["rank"]).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="rank_a_method").value == "PMU"
    assert at.number_input(key="rank_k").value == 30
    side = at.dataframe[1].value
    assert len(side) == 30 and side.iloc[:, 1].notna().all()
    assert at.metric[0].label == "Features in both top-30 lists"
