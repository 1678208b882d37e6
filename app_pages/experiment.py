"""Experiment: datasets x methods under a protocol preset, with progress and a cache;
and the baselines suite (a method against every baseline family)."""

import warnings

import streamlit as st

from mlfs_core.evaluation import DenseDataWarning, presence_methods
from mlfs_core.views import build_config, run_statement
from ui import cached, presentation, state, widgets
from ui.sections import (
    experiment,
    experiment_baselines,
    experiment_form,
    experiment_grids,
    experiment_run,
    run_figure,
)

st.title("Experiment")
# Presentation mode: the run's chart right under the title, above the fold.
chart_area = st.container() if presentation.is_on() else None
st.caption(
    "Every task is cached on disk: the same settings again are instant, a changed "
    "method recomputes only its own tasks, and a stopped run resumes where it was."
)
catalogue = widgets.dataset_catalogue()
current, _ = widgets.current_dataset()
experiment_form.config_upload()
values = experiment_form.settings(list(catalogue), current)
grid = experiment_grids.settings(values["methods"], values["protocol"])
chosen = list(values["datasets"])

config = widgets.call_showing_warnings(
    "Invalid settings",
    build_config,
    [experiment.dataset_item(n, catalogue[n]) for n in values.pop("datasets")],
    values.pop("methods"),
    seed=widgets.seed(),
    **values,
)
if config is not None:  # an option given as a grid, chosen on an inner split
    config = widgets.call_or_error(
        "Invalid grid", experiment_grids.with_grid, config, grid
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
    # Before the run, not after it: presence-based methods on dense data.
    presence = tuple(presence_methods(config.methods))
    for name in chosen if presence else ():
        message = widgets.call_or_error(
            f"Reading {name}", cached.dense_warning, catalogue[name], presence, name
        )
        if message:
            st.warning(message, icon=":material/warning:")


def _run_without_dense_warnings(config):
    """Run; the dense-data warnings were shown above, before the run."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DenseDataWarning)
        return experiment_run.run_with_progress(config)


if config is not None:
    experiment_form.estimate_panel(config, values["protocol"])
    st.info(run_statement(config), icon=":material/play_circle:")
# An invalid setting (an error above) disables Run: a run never goes on with
# other values than those on the screen, and no summary describes them.
left, right = st.columns([1, 5])
run = left.button("Run", type="primary", key="exp_run", disabled=config is None)
right.button("Stop", key="exp_stop", help="Finished tasks stay cached.")
if not run:  # a new run ends the note on the stopped one
    experiment_run.report_stopped_run(config)

if run and config is not None:
    folder = widgets.call_showing_warnings(
        "The experiment failed", _run_without_dense_warnings, config
    )
    if folder is not None:
        st.session_state[state.EXPERIMENT_RESULTS] = str(folder)
        st.session_state[state.RESULTS_SOURCE] = state.SOURCE_SESSION

experiment_run.show_session_results(config)
results = st.session_state.get(state.EXPERIMENT_RESULTS)
if results:
    with chart_area if chart_area is not None else st.container():
        if chart_area is not None and not experiment.is_run_of(results, config):
            st.caption(
                "**Results of earlier settings**, not of the settings below: "
                "what they were is under Run."
            )
        run_figure.show_run_figure(results)

experiment_baselines.panel(catalogue, current)
