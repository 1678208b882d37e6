"""The Average ranks page's post-hoc section: p-value heatmap and control table."""

from __future__ import annotations

import json

from ..conftest import charts, new_app, open_page, upload_results


def _heatmaps(at):
    specs = [json.loads(c.proto.spec) for c in charts(at)]
    return [s for s in specs if s["data"] and s["data"][0].get("type") == "heatmap"]


def test_posthoc_heatmap_and_control_table_on_the_paper000_study():
    """Check the heatmap beside the CD diagram (Wilcoxon-Holm by default, Random the
    default control) and the switch to Nemenyi, with no error."""
    at = open_page(new_app(), "average_ranks")
    assert not at.error and not at.exception
    heat = _heatmaps(at)
    assert len(heat) == 1
    assert "Wilcoxon" in heat[0]["layout"]["title"]["text"]
    methods = heat[0]["data"][0]["y"]
    assert len(methods) >= 5 and heat[0]["data"][0]["x"] == methods
    control = at.selectbox(key="posthoc_control")
    assert control.value == "Random"
    table = at.dataframe[-1].value
    assert "Random" not in set(table["method"]) and len(table) == len(methods) - 1
    assert table["pvalue_adjusted"].between(0, 1).all()
    at.radio(key="posthoc_test").set_value("Nemenyi (from the average ranks)").run()
    assert not at.error and not at.exception
    heat = _heatmaps(at)
    assert "Nemenyi" in heat[0]["layout"]["title"]["text"]
    assert "Bonferroni-Dunn" in " ".join(m.value for m in at.markdown)


def test_posthoc_on_uploaded_results_with_an_unknown_metric():
    """Check that uploaded results of a metric the registry does not know still
    get the post-hoc section (taken as higher-is-better, like the page)."""
    at = upload_results(open_page(new_app(), "average_ranks"), metric="my_score")
    assert not at.exception
    assert not [e for e in at.error if "post-hoc" in e.value]
    assert len(_heatmaps(at)) == 1
