"""AppTest tests of the analysis pages: Average ranks, Similarity, Metric vs budget."""

from __future__ import annotations

import json

from .conftest import charts, figure_data, new_app, open_page, upload_results


def test_average_ranks_default_shows_precomputed_curves_and_table():
    """Check that the page opens on the precomputed sample results with a figure."""
    at = open_page(new_app(), "average_ranks")
    assert at.radio(key="results_source_widget").value.startswith("Precomputed")
    spec = json.loads(charts(at)[0].proto.spec)
    assert "lower is better" in json.dumps(spec["layout"])
    assert at.table and not at.error


def test_average_ranks_friedman_and_cd_diagram_on_uploaded_results():
    """Check that uploaded results on 3 datasets give a p-value and a CD diagram."""
    at = upload_results(open_page(new_app(), "average_ranks"))
    labels = {m.label: m.value for m in at.metric}
    assert labels["Datasets x methods"] == "3 x 3"
    assert float(labels["p-value"]) < 0.1
    cd = charts(at)[-1].proto.spec
    assert "rank 1 = best, on the left" in cd
    table = at.table[0].value
    assert list(table.columns) == ["A", "B", "C"]
    assert table.iloc[0]["A"].startswith("1.00")


def test_bad_results_upload_shows_an_error():
    """Check that a CSV without the result columns gives st.error, not an exception."""
    at = open_page(new_app(), "average_ranks")
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", b"a,b\n1,2\n", "text/csv")
    ).run()
    assert not at.exception
    assert "lacks the column(s) dataset, method, metric, value" in at.error[0].value


def test_similarity_heatmap_on_uploaded_selections():
    """Check that the Kuncheva heatmap shows A and B similar and C apart."""
    at = upload_results(open_page(new_app(), "similarity"))
    at.select_slider(key="sim_budget").set_value(10.0).run()
    trace = figure_data(charts(at)[0])[0]
    z = dict(zip(trace["y"], trace["z"], strict=True))
    assert z["A"][1] == 1.0 and z["A"][2] < 0
    assert "Kuncheva similarity at 10%" in charts(at)[0].proto.spec


def test_similarity_default_renders_on_precomputed_results():
    """Check that the Similarity page draws a heatmap on first load."""
    at = open_page(new_app(), "similarity")
    assert '"heatmap"' in charts(at)[0].proto.spec


def test_metric_vs_budget_draws_band_per_method_and_means_table():
    """Check that each method gets a line and a band, and the means table one row."""
    at = upload_results(open_page(new_app(), "budget"))
    at.selectbox(key="budget_metric").select("micro_f1").run()
    data = figure_data(charts(at)[0])
    assert sum(t.get("fill") == "toself" for t in data) == 9  # 3 datasets x 3 methods
    means = at.table[0].value
    assert list(means.index) == ["d0", "d1", "d2"]


def test_metric_vs_budget_default_renders():
    """Check that the page opens with a figure on the precomputed results."""
    at = open_page(new_app(), "budget")
    assert charts(at) and not at.error


def test_about_page_lists_every_method():
    """Check that the About page names each registered method and both papers."""
    import mlfs_core

    at = open_page(new_app(), "about")
    names = set()
    for frame in at.dataframe:
        names |= set(frame.value["Method"])
    assert names == set(mlfs_core.list_methods())
    assert any("[001]" in m.value for m in at.markdown)


def test_study_results_open_without_recomputing():
    """Check that the committed paper-001 study opens on Metric vs budget and Average
    ranks.
    """
    at = open_page(new_app(), "budget")
    assert "Paper 001 study" in at.radio(key="results_source_widget").options
    at.radio(key="results_source_widget").set_value("Paper 001 study").run()
    assert not at.exception and not at.error
    spec = charts(at)[0].proto.spec
    assert "ATR" in spec and "MLSMFS" in spec
    at = open_page(at, "average_ranks")
    assert at.radio(key="results_source_widget").value == "Paper 001 study"
    assert charts(at) and not at.exception


def test_study_similarity_at_its_stored_budget():
    """Check that the paper-000 study's Similarity page draws the Table 6 heatmap at 50
    %.
    """
    at = open_page(new_app(), "similarity")
    at.radio(key="results_source_widget").set_value("Paper 000 study").run()
    at.select_slider(key="sim_budget").set_value(50.0).run()
    assert not at.exception
    spec = charts(at)[0].proto.spec
    assert '"heatmap"' in spec and "MeanBNS" in spec
