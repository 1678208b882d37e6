"""Waits: long first opens show a progress indicator."""

from __future__ import annotations

import contextlib

import pytest
import streamlit as st

from .conftest import PAGE_PATHS, charts, new_app


@pytest.mark.parametrize("page", ["rank", "average_ranks", "learn_score"])
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
