"""Tests of the router (app.py): page layout and the shared sidebar on every page."""

from __future__ import annotations

import pytest

from .conftest import PAGE_PATHS, ROOT, new_app, open_page


def test_pages_folder_holds_no_scripts_directly():
    """Check that pages/ has no *.py directly inside (it would trigger Streamlit's v1
    mode).
    """
    assert list((ROOT / "pages").glob("*.py")) == []
    assert all((ROOT / path).is_file() for path in PAGE_PATHS.values())


@pytest.mark.parametrize("page", sorted(PAGE_PATHS))
def test_every_page_keeps_the_sidebar_after_a_rerun(page):
    """Check that each page renders with the sidebar's dataset and seed, also on a
    rerun.
    """
    at = open_page(new_app(), page)
    at.run()  # a rerun of the current page goes through the router again
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="dataset").value is not None
    assert at.number_input(key="seed").value == 0
