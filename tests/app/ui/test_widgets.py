"""Page helpers (ui.widgets): long first opens show a progress indicator, and a
user's code error is shown as the engine words it: an st.error naming the
method, its file and line, never a traceback or "internal error"."""

from __future__ import annotations

import contextlib

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ..conftest import PAGE_PATHS, charts, new_app


@pytest.mark.parametrize("page", ["rank", "learn_score"])
def test_first_open_draws_its_charts_under_a_spinner(page, monkeypatch):
    """Check that every chart of the page's first open is drawn while a spinner
    is up: the parts are each shorter than a spinner's 0.5 s delay, together
    longer than 1.5 s on a loaded machine, so one spinner spans them."""
    depth, seen = [0], []
    real_spinner, real_chart = st.spinner, st.plotly_chart

    @contextlib.contextmanager
    def spinner(*args, **kwargs):
        depth[0] += 1
        try:
            with real_spinner(*args, **kwargs):
                yield
        finally:
            depth[0] -= 1

    def plotly_chart(*args, **kwargs):
        seen.append(depth[0])
        return real_chart(*args, **kwargs)

    at = new_app()
    monkeypatch.setattr(st, "spinner", spinner)
    monkeypatch.setattr(st, "plotly_chart", plotly_chart)
    at.switch_page(PAGE_PATHS[page]).run(timeout=300)
    assert not at.exception, [e.value for e in at.exception]
    assert charts(at) and len(seen) >= len(charts(at))
    assert all(d >= 1 for d in seen), seen


def test_average_ranks_first_open_draws_under_a_progress_bar_shown_at_once(
    monkeypatch,
):
    """Check that Average ranks' first open puts a progress bar up before any
    work (a spinner waits 0.5 s, about the page's whole server time), draws
    every chart while it is up, advances it, and removes it at the end; and
    that a later full run gets a spinner instead, with no bar flashing."""
    up, seen, fractions, spinners = [False], [], [], [0]
    real_progress, real_chart, real_spinner = st.progress, st.plotly_chart, st.spinner

    class Bar:
        def __init__(self, element):
            self.element = element

        def progress(self, value, **kwargs):
            fractions.append(value)
            return self.element.progress(value, **kwargs)

        def empty(self):
            up[0] = False
            return self.element.empty()

    def progress(value, **kwargs):
        assert not seen, "the bar must come before the first chart"
        up[0] = True
        fractions.append(value)
        return Bar(real_progress(value, **kwargs))

    def plotly_chart(*args, **kwargs):
        seen.append(up[0])
        return real_chart(*args, **kwargs)

    @contextlib.contextmanager
    def spinner(*args, **kwargs):
        spinners[0] += 1
        with real_spinner(*args, **kwargs):
            yield

    at = new_app()
    monkeypatch.setattr(st, "progress", progress)
    monkeypatch.setattr(st, "plotly_chart", plotly_chart)
    monkeypatch.setattr(st, "spinner", spinner)
    at.switch_page(PAGE_PATHS["average_ranks"]).run(timeout=300)
    assert not at.exception, [e.value for e in at.exception]
    assert len(seen) >= 3 and all(seen), seen  # rank curves, CD, p-values
    assert fractions[0] == 0.0 and fractions == sorted(fractions)
    assert len(set(fractions)) >= 4, fractions
    assert not up[0] and not at.get("progress"), "the bar must be gone at the end"

    first_spinners, seen[:] = spinners[0], []
    fractions.clear()
    at.run(timeout=300)  # a later full run of the page
    assert not at.exception, [e.value for e in at.exception]
    assert fractions == [] and not at.get("progress")
    assert spinners[0] > first_spinners and seen


def _page():
    import numpy as np

    from mlfs_core.selectors import rank_features, register
    from ui import widgets

    def MLFisher(X, Y, *, k, random_state):
        return np.zeros(X.shape[1]) / 0 + 1 / 0

    from mlfs_core.selectors import unregister

    register(MLFisher, name="AppFisher", version="1")
    try:  # the registry is the process's: the crashing method must not outlive this
        X = np.eye(4, dtype=int)
        widgets.call_or_error("Could not rank", rank_features, X, X, "AppFisher", k=2)
    finally:
        unregister("AppFisher")


def test_call_or_error_names_the_method_file_and_line():
    """Check the st.error carries the method, the file:line and the exception."""
    at = AppTest.from_function(_page).run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    (error,) = at.error
    assert error.value.startswith("Could not rank: method 'AppFisher' (")
    assert "raised ZeroDivisionError: division by zero" in error.value
    assert "internal error" not in error.value
    import mlfs_core

    assert "AppFisher" not in mlfs_core.list_methods()  # other tests never see it
