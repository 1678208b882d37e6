"""Every view a link: the sidebar's choices in the URL, a page's choices kept
across page switches, and the link to the current view in the sidebar."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from ui import links

from ..conftest import APP, new_app, open_page


def _url_value(at: AppTest, key: str):
    value = at.query_params.get(key)
    return value[-1] if isinstance(value, list) else value


def test_the_sidebar_dataset_and_seed_are_in_the_url_and_seed_a_new_session():
    """Check: a session opened with ?seed=7 starts with seed 7 (a pasted link);
    the URL keeps it. (AppTest has no frontend, so a widget change does not
    write the URL here; the browser test checks that.)"""
    fresh = AppTest.from_file(APP, default_timeout=60)
    fresh.query_params["seed"] = "7"
    fresh.run()
    assert not fresh.exception
    assert fresh.text_input(key="seed").value == "7"
    assert fresh.session_state["seed"] == "7"
    assert _url_value(fresh, "seed") == "7"


def test_a_pages_choice_comes_back_after_visiting_another_page():
    """Check: Rank features' "Features to show" set to 50, then Data, then Rank
    features again: 50 again (Streamlit drops a page's parameters on a switch)."""
    at = open_page(new_app(), "rank")
    at.slider(key="rank_top").set_value(50).run()
    open_page(at, "data")
    open_page(at, "rank")
    assert at.slider(key="rank_top").value == 50
    assert at.session_state["rank_top"] == 50


def test_the_link_to_this_view_holds_the_workspace_and_the_choices():
    """Check: the sidebar's link ends with the current query string: ws and seed."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["seed"] = "3"
    at.run()
    (code,) = [c.value for c in at.sidebar.code]
    token = at.session_state["session_token"]
    query = code.split("?", 1)[1]
    assert f"ws={token}" in query.split("&")
    assert "seed=3" in query.split("&")


def test_bound_keeps_its_call_signature():
    """Check: bound() returns the key and Streamlit's query-params binding."""
    import streamlit as st  # noqa: F401  (bare mode: a plain dict state)

    assert links.bound.__code__.co_argcount == 1
