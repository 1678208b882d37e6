"""AppTest tests of the Experiment page's option grid (tuned on an inner split)."""

from __future__ import annotations

from mlfs_core.evaluation.config import config_from_toml
from ui import state

from ..conftest import new_app, open_page

SMALL = {"exp_folds_A": "2", "exp_budgets_A": "10, 50"}


def _with_grid(values: str):
    at = open_page(new_app(), "experiment")
    at.multiselect(key="exp_methods_A").set_value(["MaxCS", "MDDM-spc"]).run()
    for key, value in SMALL.items():
        at.text_input(key=key).set_value(value).run()
    at.selectbox(key="exp_grid_method").select("MDDM-spc").run()
    at.selectbox(key="exp_grid_option").select("epsilon").run()
    at.text_input(key="exp_grid_values").set_value(values).run()
    at.text_input(key="exp_grid_test_size").set_value("0.4").run()
    return at


def test_a_grid_reaches_the_config_and_the_results_show_the_values_chosen():
    """Check the grid typed for MDDM-spc's epsilon is in the config the run used (a
    list in the method's params, the inner split in [tuning]), and the results
    show one chosen value per fold, each one of the grid's."""
    at = _with_grid("0.001, 0.1, 10")
    assert not at.exception and not at.error
    at.button(key="exp_run").click().run()
    assert not at.exception and not at.error
    config = config_from_toml(at.session_state[state.EXPERIMENT_CONFIG])
    mddm = next(m for m in config.methods if getattr(m, "name", m) == "MDDM-spc")
    assert mddm.params["epsilon"] == [0.001, 0.1, 10.0]
    assert config.tuning.test_size == 0.4
    assert config.tuning.metric == config.protocol.metrics[0]
    maxcs = next(m for m in config.methods if getattr(m, "name", m) == "MaxCS")
    assert not any(isinstance(v, list) for v in getattr(maxcs, "params", {}).values())
    (table,) = [d.value for d in at.dataframe if "option" in d.value.columns]
    assert list(table.columns) == [
        "dataset",
        "method",
        "fold",
        "option",
        "value",
        "score",
    ]
    assert sorted(table["fold"]) == [0, 1] and set(table["option"]) == {"epsilon"}
    assert set(table["value"].astype(float)) <= {0.001, 0.1, 10.0}
    caption = " ".join(c.value for c in at.caption)
    assert "Chosen per dataset and fold: MDDM-spc epsilon " in caption


def test_a_value_the_option_refuses_is_an_error_and_disables_run():
    """Check an unreadable grid value names the option and disables Run."""
    at = _with_grid("0.1, ten")
    assert not at.exception
    assert any("epsilon must be a number" in e.value for e in at.error)
    assert at.button(key="exp_run").disabled


def test_a_loaded_config_with_a_grid_fills_the_grid_box():
    """Check an uploaded TOML config whose method has a grid sets the box: the
    method, the option, the values, the inner split and the metric."""
    from mlfs_core.evaluation import ExperimentConfig, protocol_preset
    from mlfs_core.evaluation.config import MethodConfig, TuningConfig, config_to_toml

    config = ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS", MethodConfig("MDDM-spc", {"epsilon": [0.001, 0.5]})),
        protocol=protocol_preset("A", n_folds=2, budgets=(10, 50)),
        tuning=TuningConfig(test_size=0.25, metric="macro_f1"),
    )
    text = config_to_toml(config).encode("utf-8")
    at = open_page(new_app(), "experiment")
    upload = at.file_uploader(key="exp_config_upload")
    upload.set_value(("grid.toml", text, "application/toml")).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="exp_grid_method").value == "MDDM-spc"
    assert at.selectbox(key="exp_grid_option").value == "epsilon"
    assert at.text_input(key="exp_grid_values").value == "0.001, 0.5"
    assert at.text_input(key="exp_grid_test_size").value == "0.25"
    assert at.selectbox(key="exp_grid_metric").value == "macro_f1"
