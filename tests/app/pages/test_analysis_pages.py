"""AppTest tests of the analysis pages: Average ranks, Similarity, Metric vs budget."""

from __future__ import annotations

import json

import pytest

from tests.conftest import shared_datasets_dir
from ui.choices import NO_HIGHLIGHT

from ..conftest import (
    PAGE_PATHS,
    charts,
    figure_data,
    link_shared,
    new_app,
    open_page,
    results_csv,
    upload_results,
    widget,
)


def _similarity_page():
    """The Similarity page, first opened on the Paper 000 study at 50 %.

    Its first open compares 4,680 pairs of subsets of thousands of features
    (a few seconds on an idle machine): a longer timeout than the default
    60 s keeps the test meaningful on a loaded shared machine.
    """
    at = new_app()
    at.switch_page(PAGE_PATHS["similarity"]).run(timeout=300)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_average_ranks_opens_on_the_paper000_study():
    """Check that the page opens on the multi-dataset Paper 000 study, not the sample.

    The sample is one dataset: its "average" ranks have std 0 and no Friedman
    test. With panels per measure, Random and AF are references in the CS and BNS
    panels; no third panel ranks AF against Random alone.
    """
    at = open_page(new_app(), "average_ranks")
    assert at.radio(key="results_source_widget").value == "Paper 000 study"
    spec = json.loads(charts(at)[0].proto.spec)
    assert "lower is better" in json.dumps(spec["layout"])
    titles = [a["text"] for a in spec["layout"].get("annotations", [])]
    assert titles == ["CS", "BNS"]
    # the rank tables' panel headings (the post-hoc section has bold headings too)
    heads = [m.value for m in at.markdown if m.value.startswith("**")]
    assert heads[:2] == ["**CS**", "**BNS**"] and "**other**" not in heads
    assert at.table and not at.error
    assert at.metric and not at.info  # the Friedman test runs: several datasets


def test_one_dataset_results_say_average_ranks_need_two():
    """Check that results on one dataset explain why the ranks are degenerate."""
    at = open_page(new_app(), "average_ranks")
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", results_csv(n_datasets=1), "text/csv")
    ).run()
    assert not at.exception
    assert "at least 2 datasets" in at.info[0].value


def test_methods_chips_follow_the_source_and_hidden_methods_are_named():
    """Check that another source shows all its methods and a subset says what hides.

    Switching from the Paper 000 study (10 methods) to the Paper 001 study (12)
    must show the 12 (the widget keeps one key, its URL parameter, and its
    value is reset when the options change), even after a subset of methods
    both sources have was chosen; a chosen subset names the hidden methods.
    """
    at = open_page(new_app(), "average_ranks")
    first = widget(at, "multiselect", "ranks_methods")
    assert len(first.value) == 10 and "MaxCS" in first.value
    first.set_value(["MaxCS", "Random", "AF"]).run()
    first = widget(at, "multiselect", "ranks_methods")
    at.radio(key="results_source_widget").set_value("Paper 001 study").run()
    second = widget(at, "multiselect", "ranks_methods")
    assert second.key == "ranks_methods"  # its URL parameter
    assert second.value == second.options and "ATR" in second.value
    assert len(second.value) == 12
    second.set_value(second.options[:4]).run()
    assert not at.exception
    assert any(c.value.startswith("Showing 4 of 12 methods") for c in at.caption)


def test_average_ranks_friedman_and_cd_diagram_on_uploaded_results():
    """Check that uploaded results on 3 datasets give a p-value and a CD diagram."""
    at = upload_results(open_page(new_app(), "average_ranks"))
    labels = {m.label: m.value for m in at.metric}
    assert labels["Datasets x methods"] == "3 x 3"
    assert float(labels["p-value"]) < 0.1
    # Iman-Davenport's F, shown beside the chi-squared form (issue 10)
    assert float(labels["Iman-Davenport F"]) > float(labels["Friedman chi-squared"])
    assert 0.0 <= float(labels["p-value (F)"]) <= float(labels["p-value"])
    specs = [c.proto.spec for c in charts(at)]  # the post-hoc heatmap follows it
    assert any("rank 1 = best, on the left" in spec for spec in specs)
    table = at.table[0].value
    assert list(table.columns) == ["A", "B", "C"]
    assert table.iloc[0]["A"].startswith("1.00")


@pytest.mark.parametrize(
    ("metric", "label"),
    [
        ("weighted_f1", "weighted_f1 (higher is better)"),
        ("my_score", "my_score (unknown metric: ranked as higher is better)"),
    ],
)
def test_reference_code_and_unknown_metrics_rank_and_test_alike(metric, label):
    """Check a reference-code metric (weighted_f1) and an unknown one get the
    same direction in the rank curves and the Friedman test (A, the best
    method, ranks first in both), and the selector says which direction.
    """
    at = upload_results(open_page(new_app(), "average_ranks"), metric=metric)
    assert not at.exception and not at.error
    selector = widget(at, "selectbox", "ranks_metric")
    assert label in selector.options
    labels = {m.label: m.value for m in at.metric}
    assert labels["Datasets x methods"] == "3 x 3"
    assert at.table[0].value.iloc[0]["A"].startswith("1.00")


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
    at = upload_results(_similarity_page())
    widget(at, "select_slider", "sim_budget").set_value(10.0).run()
    trace = figure_data(charts(at)[0])[0]
    z = dict(zip(trace["y"], trace["z"], strict=True))
    assert z["A"][1] == 1.0 and z["A"][2] < 0
    assert "Kuncheva similarity at 10 %" in charts(at)[0].proto.spec


def test_similarity_default_renders_on_precomputed_results():
    """Check that the Similarity page draws a heatmap on first load."""
    at = _similarity_page()
    assert '"heatmap"' in charts(at)[0].proto.spec


def test_similarity_has_no_metric_selector():
    """Check that Similarity offers methods only: a metric would change nothing."""
    at = _similarity_page()
    assert not [s for s in at.selectbox if "metric" in str(s.key)]
    assert widget(at, "multiselect", "sim_methods").value


def test_metric_vs_budget_draws_band_per_method_and_means_table():
    """Check that each method gets a line and a band, and the means table one row."""
    at = upload_results(open_page(new_app(), "budget"))
    widget(at, "selectbox", "budget_metric").select("micro_f1").run()
    data = figure_data(charts(at)[0])
    assert sum(t.get("fill") == "toself" for t in data) == 9  # 3 datasets x 3 methods
    means = at.table[0].value
    assert list(means.index) == ["d0", "d1", "d2"]


def test_spread_bands_default_off_for_many_curves_and_toggle_back_on():
    """Check that the Paper 001 study's chart opens on its first four datasets
    without bands (4 x 12 curves: the bands would double the traces to draw),
    the toggle draws them, and one dataset gets them again by default."""
    at = open_page(new_app(), "budget")
    assert at.toggle(key="budget_bands_many").value is False
    assert not [t for t in figure_data(charts(at)[0]) if t.get("fill") == "toself"]
    at.toggle(key="budget_bands_many").set_value(True).run()
    # 12 methods open on one highlighted: only its bands are drawn
    bands = [t for t in figure_data(charts(at)[0]) if t.get("fill") == "toself"]
    assert len(bands) == 4
    at.selectbox(key="budget_highlight").select(NO_HIGHLIGHT).run()
    bands = [t for t in figure_data(charts(at)[0]) if t.get("fill") == "toself"]
    assert len(bands) == 4 * 12
    panels = widget(at, "multiselect", "budget_panels")
    panels.set_value(panels.options[1:2]).run()
    assert at.toggle(key="budget_bands_few").value is True
    bands = [t for t in figure_data(charts(at)[0]) if t.get("fill") == "toself"]
    assert len(bands) == 12


def test_many_datasets_open_on_the_first_four_and_show_all_on_request():
    """Check that 11 datasets open as 4 panels, "Show all 11 datasets" draws 11,
    and removing every dataset says so instead of drawing or failing."""
    at = open_page(new_app(), "budget")
    panels = widget(at, "multiselect", "budget_panels")
    assert len(panels.options) == 11 and panels.value == panels.options[:4]

    def titles(at):
        spec = json.loads(charts(at)[0].proto.spec)
        return [a["text"] for a in spec["layout"]["annotations"]]

    assert titles(at) == panels.options[:4]
    (show_all,) = [b for b in at.button if str(b.key).startswith("budget_panels")]
    assert show_all.label == "Show all 11 datasets"
    show_all.click().run()
    assert titles(at) == widget(at, "multiselect", "budget_panels").options
    assert not [b for b in at.button if str(b.key).startswith("budget_panels")]
    widget(at, "multiselect", "budget_panels").set_value([]).run()
    assert not charts(at) and not at.exception and not at.error
    assert "Pick at least one dataset" in " ".join(i.value for i in at.info)


def test_metric_vs_budget_default_renders():
    """Check that the page opens with a figure on the precomputed results."""
    at = open_page(new_app(), "budget")
    assert charts(at) and not at.error


def test_about_page_lists_every_method():
    """Check that the About page names each registered method and, under
    Sources, each method's citation once with the methods citing it."""
    import mlfs_core

    at = open_page(new_app(), "about")
    from mlfs_core.evaluation.metrics import METRICS

    names, metrics = set(), set()
    for frame in at.table:  # a table wraps long descriptions; a data grid cut them
        if "What it measures" in frame.value.columns:
            metrics |= set(frame.value.index)
            coverage = frame.value.loc["coverage_error", "What it measures"]
            assert "coverage + 1" in coverage
            continue
        names |= set(frame.value.index)
        assert "What it does" in frame.value.columns
    assert names == set(mlfs_core.list_methods()) and metrics == set(METRICS)
    assert any("Iman-Davenport" in m.value for m in at.markdown)
    assert not at.dataframe
    (sources,) = [m.value for m in at.markdown if "A stability index" in m.value]
    cited = {mlfs_core.get_method(n).citation for n in mlfs_core.list_methods()}
    for citation in cited - {""}:
        assert sources.count(f"- {citation}: ") == 1, citation
    assert "- Lee and Kim (2013), Feature selection for multi-label " in sources
    assert "LSMFS, MLSMFS." in sources


def test_study_results_open_without_recomputing():
    """Check that Metric vs budget opens on the paper-001 study, and that a source
    chosen on one page (Paper 001 on Average ranks) is kept on the others.
    """
    at = open_page(new_app(), "budget")
    assert at.radio(key="results_source_widget").value == "Paper 001 study"
    assert not at.exception and not at.error
    spec = charts(at)[0].proto.spec
    assert "ATR" in spec and "MLSMFS" in spec
    at = open_page(at, "average_ranks")
    assert at.radio(key="results_source_widget").value == "Paper 000 study"
    at.radio(key="results_source_widget").set_value("Paper 001 study").run()
    at = open_page(at, "similarity")
    assert at.radio(key="results_source_widget").value == "Paper 001 study"
    assert charts(at) and not at.exception


def test_study_similarity_at_its_stored_budget():
    """Check that the paper-000 study's Similarity page draws the Table 6 heatmap at 50
    %.
    """
    at = _similarity_page()
    at.radio(key="results_source_widget").set_value("Paper 000 study").run()
    widget(at, "select_slider", "sim_budget").set_value(50.0).run()
    assert not at.exception
    spec = charts(at)[0].proto.spec
    assert '"heatmap"' in spec and "MeanBNS" in spec
    # AF is chosen but has no 50 % subset: the page says so instead of dropping it
    assert "AF" in widget(at, "multiselect", "sim_methods").value
    assert '"AF"' not in spec
    notes = [c.value for c in at.caption if c.value.startswith("Not in the heatmap")]
    why = "Not in the heatmap: AF: no subset of 50 % (AF keeps every feature)."
    assert notes == [why]


def test_authors_evaluation_source_ranks_its_own_metrics():
    """Check the paper-001 study under the ATR authors' evaluation is a source of
    its own: weighted F1 is offered (higher is better) and ranks all twelve
    methods over the eleven datasets, with a Friedman test.
    """
    at = open_page(new_app(), "average_ranks")
    at.radio(key="results_source_widget").set_value(
        "Paper 001 study, authors' evaluation"
    ).run()
    assert not at.exception and not at.error
    selector = widget(at, "selectbox", "ranks_metric")
    assert "weighted_f1 (higher is better)" in selector.options
    assert "micro_f1 (higher is better)" not in selector.options
    selector.select("weighted_f1").run()
    assert not at.exception and not at.error
    labels = {m.label: m.value for m in at.metric}
    assert labels["Datasets x methods"].startswith("11 x ")
    for page in ("similarity", "budget"):
        at = open_page(at, page)
        source = at.radio(key="results_source_widget").value
        assert source == "Paper 001 study, authors' evaluation"
        assert charts(at) and not at.exception and not at.error


# ---- issue 27: references, many methods, first views ----------------------------


def _results_with_af(n_datasets: int = 2) -> bytes:
    """results_csv plus AF, run once at 100 % as the pipeline records it."""
    rows = results_csv(n_datasets=n_datasets).decode().strip().splitlines()
    for d in range(n_datasets):
        for fold in (0, 1):
            rows.append(f"d{d},A,AF,100,100.0,{fold},0,micro_f1,{0.7 + 0.001 * fold}")
    return ("\n".join(rows) + "\n").encode()


def _upload(at, content: bytes):
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", content, "text/csv")
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_af_is_a_reference_line_over_the_budgets_run():
    """Check that AF (one point at 100 %) is a flat line over 10-50 %, not a point,
    and that no trace stretches the x axis to 100 %."""
    at = _upload(open_page(new_app(), "budget"), _results_with_af())
    widget(at, "selectbox", "budget_metric").select("micro_f1").run()
    lines = [t for t in figure_data(charts(at)[0]) if t.get("fill") != "toself"]
    af = [t for t in lines if t["legendgroup"] == "AF"]
    assert len(af) == 2  # one per dataset panel
    for trace in af:
        assert trace["x"] == [10.0, 50.0] and trace["y"][0] == trace["y"][1]
        assert trace["name"] == "AF (reference)"
    assert max(max(t["x"]) for t in figure_data(charts(at)[0])) == 50.0


def test_rfs_becomes_a_reference_line_on_request():
    """Check that the Random toggle turns its curve into a flat reference line."""
    rows = _results_with_af(1).decode().replace(",C,", ",Random,").encode()
    at = _upload(open_page(new_app(), "budget"), rows)
    widget(at, "selectbox", "budget_metric").select("micro_f1").run()
    rfs = [t for t in figure_data(charts(at)[0]) if t.get("legendgroup") == "Random"]
    assert [t["name"] for t in rfs if t.get("fill") != "toself"] == ["Random"]
    at.toggle(key="budget_rfs_reference").set_value(True).run()
    rfs = [t for t in figure_data(charts(at)[0]) if t.get("legendgroup") == "Random"]
    (line,) = [t for t in rfs if t.get("fill") != "toself"]
    assert line["name"] == "Random (reference)" and line["y"][0] == line["y"][1]


def test_highlight_greys_the_other_methods_and_one_dataset_panel():
    """Check that highlighting B greys A and C, and the picker shows one dataset."""
    at = upload_results(open_page(new_app(), "budget"))
    widget(at, "selectbox", "budget_metric").select("micro_f1").run()
    widget(at, "selectbox", "budget_highlight").select("B").run()
    lines = [t for t in figure_data(charts(at)[0]) if t.get("fill") != "toself"]
    colours = {t["name"]: t["line"]["color"] for t in lines}
    assert colours["A"] == colours["C"] != colours["B"]
    # the others are one grey trace, and the highlighted method is drawn after
    # it (on top); A and C keep grey legend entries
    names = [t["name"] for t in lines]
    assert names.index("B") > names.index("other methods")
    assert colours["other methods"] == colours["A"]
    widget(at, "multiselect", "budget_panels").set_value(["d1"]).run()
    spec = json.loads(charts(at)[0].proto.spec)
    assert [a["text"] for a in spec["layout"]["annotations"]] == ["d1"]


def test_many_methods_get_distinct_styles_and_one_legend_at_the_top():
    """Check that the Paper 001 study's 12 methods get 12 distinct (colour, dash)
    pairs and the one legend sits at the top of the figure, not 2,500 px down."""
    at = open_page(new_app(), "budget")
    assert at.radio(key="results_source_widget").value == "Paper 001 study"
    at.selectbox(key="budget_highlight").select(NO_HIGHLIGHT).run()
    spec = json.loads(charts(at)[0].proto.spec)
    lines = [t for t in spec["data"] if t.get("fill") != "toself"]
    styles = {t["name"]: (t["line"]["color"], t["line"]["dash"]) for t in lines}
    assert len(styles) == 12 and len(set(styles.values())) == 12
    legend = spec["layout"]["legend"]
    assert legend["yanchor"] == "top" and legend["yref"] == "container"
    # right under the title: 44 px from the figure's top, however tall it is
    assert round((1 - legend["y"]) * spec["layout"]["height"]) == 44
    # the per-dataset means of 12 methods: two tables of 6, each fits 1024 px
    means = [t.value for t in at.table]
    assert [len(t.columns) for t in means] == [6, 6]
    assert sorted(c for t in means for c in t.columns) == sorted(styles)


def test_first_views_open_where_methods_differ_and_budgets_read_as_numbers():
    """Check that Average ranks (paper 000) opens its Friedman test at 50 %, shown
    as "50 %" not "50.0", and Similarity on protocol B at k = 10 features."""
    at = open_page(new_app(), "average_ranks")
    slider = widget(at, "select_slider", "ranks_budget")
    assert slider.value == 50.0
    assert "50 %" in slider.options and not any(".0" in o for o in slider.options)
    at = _similarity_page()
    at.radio(key="results_source_widget").set_value(
        "Precomputed (sample): protocol b"
    ).run()
    slider = widget(at, "select_slider", "sim_budget")
    assert slider.value == 10.0 and "10 features" in slider.options
    assert "Kuncheva similarity at 10 features" in charts(at)[0].proto.spec


def test_information_theoretic_panel_is_not_titled_other():
    """Check that the paper-001 methods' rank panel says what it holds."""
    at = open_page(new_app(), "average_ranks")
    at.radio(key="results_source_widget").set_value("Paper 001 study").run()
    spec = json.loads(charts(at)[0].proto.spec)
    titles = [a["text"] for a in spec["layout"].get("annotations", [])]
    assert titles == ["Information-theoretic methods"]


def test_the_friedman_part_is_a_fragment_of_its_own():
    """Check that Average ranks registers two fragments, the chart and the
    Friedman test / CD diagram / post-hoc part, so moving the budget slider
    reruns only the latter in a browser (AppTest reruns whole pages, so the
    registration is what it can see), and that the test follows the budget."""
    at = open_page(new_app(), "average_ranks")
    assert len(at._fragment_storage._fragments) == 2
    before = at.metric[0].value
    slider = widget(at, "select_slider", "ranks_budget")
    assert slider.options[0] == "10 %"
    slider.set_value(10.0).run()
    assert not at.exception
    assert widget(at, "select_slider", "ranks_budget").value == 10.0
    assert at.metric[0].value != before
    assert len(at._fragment_storage._fragments) == 2


def test_metric_vs_budget_opens_on_the_sidebars_dataset(tmp_path, monkeypatch):
    """Check that the chart opens on the sidebar's dataset (issue 54, item 6),
    not on the first four alphabetically: with the study's 11 datasets and
    the sidebar on the last of them, that one and the first three."""
    shared = shared_datasets_dir()
    last = open_page(new_app(), "budget")
    options = widget(last, "multiselect", "budget_panels").options
    name = options[-1]
    assert (shared / name).is_dir(), f"the shared dataset {name} is not at {shared}"
    link_shared(shared, tmp_path / "data", monkeypatch, name)
    at = open_page(new_app(params={"dataset": name}), "budget")
    assert at.session_state["dataset"] == name
    panels = widget(at, "multiselect", "budget_panels")
    assert panels.value == [*options[:3], name]
    spec = json.loads(charts(at)[0].proto.spec)
    assert [a["text"] for a in spec["layout"]["annotations"]] == panels.value


@pytest.mark.parametrize("page", ["average_ranks", "budget", "similarity"])
def test_analysis_pages_name_the_results_they_show(page):
    """Check that the line under the title names the results shown: the
    source's label, then an uploaded file by its own name."""
    at = new_app()
    at.session_state["results_source"] = "Uploaded results CSV"
    at = open_page(at, page)
    at.file_uploader(key="results_upload").set_value(
        ("my_class_run.csv", results_csv(), "text/csv")
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.caption[0].value == "Results shown: uploaded file my_class_run.csv"
    label = next(
        o for o in at.radio(key="results_source_widget").options if "sample" in o
    )
    at.radio(key="results_source_widget").set_value(label).run()
    assert at.caption[0].value == f"Results shown: {label}"
