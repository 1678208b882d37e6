"""AppTest tests of the Experiment page's presets (from the registry) and the
baselines suite panel."""

from __future__ import annotations

import pandas as pd

from ..conftest import new_app, open_page


def test_the_protocol_choices_are_the_registrys_presets():
    """Check the radio offers every registered preset (the papers' first, they
    have teaching sets), and the field's preset shows its split and unit."""
    at = open_page(new_app(), "experiment")
    radio = at.radio(key="exp_protocol")
    assert radio.options[:2] == ["A", "B"] and "field" in radio.options
    radio.set_value("field").run()
    assert not at.exception
    split = at.selectbox(key="exp_split_field")
    assert split.options[0] == "repeated_holdout" and split.value == "repeated_holdout"
    assert (
        at.text_input(key="exp_budgets_field").label == "Budgets (number of features)"
    )
    statement = [i.value for i in at.info if i.value.startswith("Run computes")]
    assert statement and "protocol field" in statement[0]
    assert "5 random 70/30 splits" in statement[0]


def test_a_run_under_the_fields_preset_writes_its_protocol(data_dir):
    """Check a small run under "field" finishes and its results say so."""
    at = open_page(new_app(), "experiment")
    at.radio(key="exp_protocol").set_value("field").run()
    at.multiselect(key="exp_methods_field").set_value(["MaxCS"]).run()
    at.text_input(key="exp_budgets_field").set_value("2, 4").run()
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert set(table["budget"]) == {2, 4}


def test_the_baselines_panel_runs_the_suite_and_shows_its_tables(data_dir):
    """Check the panel runs the suite on two datasets with the quick plan and
    shows the summary, the average ranks and the control test."""
    at = open_page(new_app(), "experiment")
    assert at.button(key="exp_bl_run").disabled  # one dataset chosen
    at.multiselect(key="exp_bl_datasets").set_value(["sample (planted)", "toy"]).run()
    at.selectbox(key="exp_bl_method").set_value("MaxBNS").run()
    at.button(key="exp_bl_run").click().run(timeout=600)
    assert not at.exception and not at.error
    texts = " ".join(m.value for m in at.markdown)
    assert at.selectbox(key="exp_bl_preset").value == "field"
    assert "MaxBNS against" in texts and "Bonferroni-Dunn with MaxBNS" in texts
    frames = [d.value for d in at.dataframe]
    ranks = next(f for f in frames if "macro_f1" in f.columns)
    assert "MaxBNS" in ranks.index and "MaxBNS" not in ranks.index[:-1]
    control = next(f for f in frames if "pvalue_adjusted" in f.columns)
    assert isinstance(control, pd.DataFrame) and set(control["control"]) == {"MaxBNS"}
    assert any(
        b.label.startswith("Download the tables") for b in at.get("download_button")
    )
