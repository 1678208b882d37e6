"""The Experiment page's run: its progress, a stopped run's note, its results."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from mlfs_core.views import (
    config_digest,
    run_statement,
    settings_text,
)

from .. import cached, progress, state
from ..results import RESULTS_FILE, SELECTIONS_FILE, results_ref
from . import experiment_grids
from .experiment import (
    config_toml,
    is_run_of,
    run,
    solver_summary,
    statement_of,
)

RUNNING = "exp_running"
"""Session-state key: ``(done, total, config digest, settings text)`` while a run
is in progress, else None. A run that Stop interrupted leaves it set: the next
run of the page says what was stopped (:func:`report_stopped_run`)."""


def run_with_progress(config) -> Path | None:
    """Run ``config`` with a progress bar and remaining-time estimate.

    The bar's first text says what runs (:func:`run_statement`), so a run
    never starts on datasets or a protocol the user did not see.
    """
    starting = f"Starting: {run_statement(config)}"
    which = (config_digest(config), settings_text(config))
    # noted before anything is drawn: Stop takes effect at the script's next
    # element, which can be the bar itself (a Stop during "Starting" then
    # left no note, and no message)
    st.session_state[RUNNING] = (0, 0, *which)
    bar = st.progress(0, text=starting)
    eta, last = progress.TimeLeft(), [""]

    def draw() -> None:  # also every second while one task runs (ticking)
        if eta.total:
            text = f"{eta.done}/{eta.total} tasks{eta.text()} · {last[0]}"
            bar.progress(eta.done / eta.total, text=text)
        elif eta.elapsed() >= 2:  # before the first task ends
            so_far = progress.duration_text(eta.elapsed())
            bar.progress(0, text=f"{starting} · {so_far} so far")

    def report(done: int, total: int, _eta: str, message: str) -> None:
        st.session_state[RUNNING] = (done, total, *which)
        eta.update(done, total)
        last[0] = message
        redraw()

    try:
        with progress.ticking(draw) as redraw:
            folder = run(config, report)
    except ValueError as exc:
        said = state.redact(str(exc))
        st.error(f"The experiment could not run: {said} {kept_text(eta.done)}")
        folder = None
    st.session_state[RUNNING] = None
    if folder is not None:
        bar.progress(1.0, text="Done")
        st.session_state[state.EXPERIMENT_CONFIG] = config_toml(config)
    return folder


def kept_text(done: int) -> str:
    """What a failed run kept: its ``done`` finished tasks, and how to resume.

    Examples
    --------
    >>> kept_text(0)
    'No task had finished.'
    >>> kept_text(12)[:55]
    'Kept: the 12 finished tasks, in the cache: Run resumes '
    """
    if not done:
        return "No task had finished."
    tasks = f"{done} finished task{'s' if done != 1 else ''}"
    return (
        f"Kept: the {tasks}, in the cache: Run resumes from them once the cause "
        "is fixed."
    )


def report_stopped_run(config) -> None:
    """Say what Stop interrupted, and what of it was kept, while the form holds
    the stopped run's settings (``config``; None when they do not make one).

    Changed settings or a new run end the note: it is about those settings.
    """
    running = st.session_state.get(RUNNING)
    if not running:
        return
    done, total, digest, settings = running
    if config is None or config_digest(config) != digest:
        st.session_state[RUNNING] = None
        return
    kept = (
        f"the {done} finished task{'s' if done != 1 else ''}, in the cache: Run "
        "resumes from there without computing them again"
        if done
        else "nothing, no task had finished"
    )
    when = f"after {done} of {total} tasks" if total else "while starting"
    st.warning(
        f"**Stopped {when}: no results of the settings "
        f"above yet.** Kept: {kept}. The stopped run: {settings}",
        icon=":material/stop_circle:",
    )


def fitting_columns(table) -> tuple[list[str], list[str]]:
    """The results columns to show, and those left out as constant.

    A column holding one value in every row (the protocol, one dataset, one
    repeat) says nothing per row; leaving it out lets every other column show
    at projector width (1024 px). The method, metric and value always stay.
    """
    keep = {"method", "metric", "value"}
    constant = [
        c
        for c in table.columns
        if c not in keep and table[c].nunique(dropna=False) <= 1
    ]
    return [c for c in table.columns if c not in constant], constant


def show_session_results(config=None) -> None:
    """This session's last results: a table and CSV downloads.

    When they are not the results of ``config`` (the form's settings: changed
    since, or a run of them stopped), a heading and a notice fence them:
    "results of earlier settings", with those settings spelled out.
    """
    folder = st.session_state.get(state.EXPERIMENT_RESULTS)
    if not folder or not (Path(folder) / RESULTS_FILE).is_file():
        return
    if is_run_of(folder, config):
        st.subheader("Results of this session's experiment")
    else:
        earlier = statement_of(folder) or "settings this page no longer knows."
        st.subheader("Results of earlier settings, not of the settings above")
        st.warning(
            f"**These results are of an earlier run:** {earlier} Press Run to "
            "compute the settings above; these stay until a run finishes.",
            icon=":material/history:",
        )
    st.caption(
        f'The analysis pages now show these results (source: "{state.SOURCE_SESSION}").'
    )
    solver = solver_summary(Path(folder))
    if solver:
        st.caption(solver.capitalize() + ".")
    table = cached.results(results_ref(folder))
    shown, constant = fitting_columns(table)
    if constant:
        st.caption(
            "Shown without the columns of one value throughout ("
            + ", ".join(f"{c} = {table[c].iloc[0]}" for c in constant)
            + "); the CSV below has every column."
        )
    st.dataframe(table[shown], hide_index=True, height=300)
    experiment_grids.show_choices(folder)
    for column, file in zip(
        st.columns(2), (RESULTS_FILE, SELECTIONS_FILE), strict=True
    ):
        path = Path(folder) / file
        if path.is_file():
            column.download_button(
                f"Download {file}",
                path.read_bytes(),
                file_name=file,
                mime="text/csv",
                key=f"exp_{path.stem}_csv",
                on_click="ignore",
            )
