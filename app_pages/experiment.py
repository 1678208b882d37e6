"""Experiment: datasets x methods under protocol A or B, with progress and a cache."""

import streamlit as st

from ui import state, widgets
from ui.sections import experiment, experiment_form, run_figure

st.title("Experiment")
st.caption(
    "Every task is cached on disk: the same settings again are instant, a changed "
    "method recomputes only its own tasks, and a stopped run resumes where it was."
)
catalogue = widgets.dataset_catalogue()
current, _ = widgets.current_dataset()
experiment_form.config_upload()
values = experiment_form.settings(list(catalogue), current)

config = widgets.call_showing_warnings(
    "Invalid settings",
    experiment.build_config,
    [experiment.dataset_item(n, catalogue[n]) for n in values.pop("datasets")],
    values.pop("methods"),
    seed=widgets.seed(),
    **values,
)
if config is not None:
    toml = experiment.config_toml(config)
    if toml is not None:
        st.download_button(
            "Save this config (TOML)",
            toml,
            file_name="experiment.toml",
            mime="application/toml",
            key="exp_save",
            on_click="ignore",
        )

if config is not None:
    experiment_form.estimate_panel(config, st.session_state["exp_protocol"])
    st.info(experiment.run_statement(config), icon=":material/play_circle:")
left, right = st.columns([1, 5])
run = left.button("Run", type="primary", key="exp_run", disabled=config is None)
right.button("Stop", key="exp_stop", help="Finished tasks stay cached.")
experiment_form.report_stopped_run()

if run and config is not None:
    folder = widgets.call_showing_warnings(
        "The experiment failed", experiment_form.run_with_progress, config
    )
    if folder is not None:
        st.session_state[state.EXPERIMENT_RESULTS] = str(folder)
        st.session_state[state.RESULTS_SOURCE] = state.SOURCE_SESSION

experiment_form.show_session_results()
if st.session_state.get(state.EXPERIMENT_RESULTS):
    run_figure.show_run_figure(st.session_state[state.EXPERIMENT_RESULTS])
