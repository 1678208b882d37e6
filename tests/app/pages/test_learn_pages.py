"""AppTest tests of the Learn pages: a score, an aggregation, a greedy step."""

from __future__ import annotations

import json

import mlfs_core
from mlfs_core import label_scores

from ..conftest import charts, new_app, open_page


def _on_toy(page: str):
    at = new_app()
    at.selectbox(key="dataset").select("toy").run()
    return open_page(at, page)


def test_score_page_shows_table_terms_and_totals(data_dir):
    """Check the 2x2 table, the CS terms summing to CS and BNS, on the toy data."""
    at = _on_toy("learn_score")
    at.selectbox(key="score_feature").set_value(0).run()
    at.selectbox(key="score_label").set_value(0).run()
    assert not at.exception and not at.error
    table = at.table[0].value
    assert table.loc["total", "total"] == 60
    metrics = {m.label: float(m.value) for m in at.metric}
    from mlfs_core.data import load_dataset

    ds = load_dataset(data_dir / "toy")
    cs = label_scores(ds.X, ds.Y, "chi2")[0, 0]
    bns = label_scores(ds.X, ds.Y, "bns")[0, 0]
    assert abs(metrics["CS = sum of the four terms"] - cs) < 1e-3 * max(cs, 1)
    assert abs(metrics["BNS = |F⁻¹(tpr) − F⁻¹(fpr)|"] - bns) < 1e-3 * max(bns, 1)
    assert "t(c, e) = (c − e)² / e" in at.code[0].value  # the formula, readable
    heat = json.loads(charts(at)[0].proto.spec)
    assert heat["data"][0]["type"] == "heatmap"


def test_score_page_on_the_sample_links_the_planted_truth():
    """Check that on the planted sample the page says whether a feature is planted."""
    at = open_page(new_app(), "learn_score")
    assert not at.exception and not at.error
    assert any(m.value.startswith("**Planted truth:**") for m in at.markdown)
    assert at.get("page_link")


def test_aggregation_page_steps_follow_the_ranking(data_dir):
    """Check that RoR's steps table lists rank_features' order, turn by turn."""
    at = _on_toy("learn_aggregation")
    at.selectbox(key="agg_method").set_value("RoR").run()
    at.slider(key="agg_k").set_value(6).run()
    at.slider(key="agg_step").set_value(6).run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    from mlfs_core.data import load_dataset

    ds = load_dataset(data_dir / "toy")
    order = mlfs_core.rank_features(ds.X, ds.Y, "RoRCS", k=6)
    assert table["feature"].tolist() == [f"#{j} {ds.feature_names[j]}" for j in order]
    assert table["label"].tolist() == ["l0", "l1", "l2"] * 2
    assert "It takes its best feature not yet taken" in at.info[0].value
    maxcs, meancs = (d.value["feature"] for d in at.dataframe[1:3])
    top5 = mlfs_core.rank_features(ds.X, ds.Y, "MeanCS", k=5)
    assert list(meancs) == [f"#{j} {ds.feature_names[j]}" for j in top5]
    assert len(maxcs) == 5
    specs = [c.proto.spec for c in charts(at)]
    assert "RoR: labels take turns" in specs[0]
    assert "this turn" in specs[1]
    assert "How many of each label" in specs[2]


def test_aggregation_page_rar_shows_draw_probabilities(data_dir):
    """Check that RaR names the drawn label with its probability, with the seed."""
    at = _on_toy("learn_aggregation")
    at.selectbox(key="agg_method").set_value("RaR").run()
    assert not at.exception
    assert "drawn with probability" in at.info[0].value
    assert "probability" in at.dataframe[0].value.columns


def test_greedy_page_shows_terms_and_path(data_dir):
    """Check PMU's terms chart, the criterion path and the steps table."""
    at = _on_toy("learn_greedy")
    at.slider(key="greedy_k").set_value(4).run()
    at.slider(key="greedy_step").set_value(3).run()
    assert not at.exception and not at.error
    terms, path = (json.loads(c.proto.spec) for c in charts(at))
    names = [t["name"] for t in terms["data"]]
    assert names[0] == "relevance: R(f) = Σᵢ I(f; lᵢ)"
    assert "redundancy: − Σₛ Σᵢ I(f; s; lᵢ)" in names
    assert names[-1] == "J(f | S), the total"
    assert len(at.dataframe[0].value) == 3
    assert "J(f | S) = R(f) − Σᵢ<ⱼ I(f; lᵢ; lⱼ)" in at.code[0].value


def test_every_learn_page_opens_on_the_sample():
    """Check that the three pages open on the default dataset without error."""
    at = new_app()
    for page in ("learn_score", "learn_aggregation", "learn_greedy"):
        open_page(at, page)
        assert not at.error and charts(at)


def test_aggregation_page_median_rule_reaches_the_engine(data_dir):
    """Check that "above its median" ranks with binarize = "median" (MaxCS order)."""
    at = _on_toy("learn_aggregation")
    at.radio(key="agg_rule").set_value("median").run()
    at.slider(key="agg_step").set_value(5).run()
    assert not at.exception and not at.error
    from mlfs_core.data import load_dataset

    ds = load_dataset(data_dir / "toy")
    order = mlfs_core.rank_features(ds.X, ds.Y, "MaxCS", k=5, binarize="median")
    shown = at.dataframe[0].value["feature"].tolist()
    assert shown == [f"#{j} {ds.feature_names[j]}" for j in order]
    presence = mlfs_core.rank_features(ds.X, ds.Y, "MaxCS", k=5)
    assert order.tolist() != presence.tolist()  # the rule changes the ranking here


# ---- issue 27: wording ----------------------------------------------------------


def test_score_page_says_cs_and_one_feature_in_plain_english():
    """Check the sample's Score page: "this feature is (not) one of the ...
    planted informative words", no "1 of this 1 feature are", no "marked ✓"
    (nothing is marked there), and the heatmap titled CS, not CHI2."""
    at = open_page(new_app(), "learn_score")
    (note,) = [m.value for m in at.markdown if m.value.startswith("**Planted truth")]
    assert "this feature is" in note and "one of the" in note
    assert "1 of this 1" not in note and "marked" not in note
    spec = charts(at)[0].proto.spec
    assert "CS of the top 20 features" in spec and "CHI2" not in spec


def test_aggregation_steps_use_ordinals_and_singulars(data_dir):
    """Check "the 1st-highest max score" (not "the 1. highest") and "the first
    pick" (not "the first 1 picks")."""
    at = _on_toy("learn_aggregation")
    at.selectbox(key="agg_method").set_value("Max").run()
    at.slider(key="agg_step").set_value(1).run()
    assert not at.exception
    assert "has the 1st-highest max score" in at.info[0].value
    at.slider(key="agg_step").set_value(2).run()
    assert "has the 2nd-highest max score" in at.info[0].value
    assert not [m.value for m in at.markdown if "1 picks" in m.value]


def test_score_and_aggregation_heatmaps_share_one_colour_scale(data_dir):
    """Check that a measure's scores get the same colours on both Learn pages.

    Both heatmaps use one colour scale from 0 to the measure's largest
    per-label score on the dataset (computed here by label_scores), whatever
    features each page draws.
    """
    from mlfs_core.data import load_dataset

    ds = load_dataset(data_dir / "toy")
    for measure, engine in (("chi2", "chi2"), ("bns", "bns")):
        at = _on_toy("learn_score")
        at.radio(key="score_measure").set_value(measure).run()
        at.slider(key="score_top").set_value(5).run()
        score = json.loads(charts(at)[0].proto.spec)["data"][0]
        at.switch_page("app_pages/aggregation.py").run()
        at.selectbox(key="agg_measure").set_value(measure).run()
        at.slider(key="agg_k").set_value(2).run()
        assert not at.exception and not at.error
        (turns,) = [
            json.loads(c.proto.spec)["data"][0]
            for c in charts(at)
            if "this turn" in c.proto.spec
        ]
        largest = float(label_scores(ds.X, ds.Y, engine).max())
        for heat in (score, turns):
            assert heat["type"] == "heatmap"
            assert heat["zmin"] == 0.0
            assert abs(heat["zmax"] - largest) < 1e-6 * max(largest, 1)
        assert turns["colorscale"] == score["colorscale"]
