"""Tests of the router (app.py): page layout and the shared sidebar on every page."""

from __future__ import annotations

import pytest

from ..conftest import PAGE_PATHS, ROOT, new_app, open_page


def test_no_pages_folder_for_streamlits_legacy_scan():
    """Check there is no pages/ beside app.py (Streamlit's legacy v1 multipage scan)
    and that every page script is in app_pages/.
    """
    assert not (ROOT / "pages").exists()
    assert all((ROOT / path).is_file() for path in PAGE_PATHS.values())
    assert {p.name for p in (ROOT / "app_pages").glob("*.py")} == {
        path.split("/")[-1] for path in PAGE_PATHS.values()
    }


@pytest.mark.parametrize("page", sorted(PAGE_PATHS))
def test_every_page_keeps_the_sidebar_after_a_rerun(page):
    """Check that each page renders with the sidebar's dataset and seed, also on a
    rerun.
    """
    at = open_page(new_app(), page)
    at.run()  # a rerun of the current page goes through the router again
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="dataset").value is not None
    assert at.text_input(key="seed").value == "0"


def test_the_page_icon_is_the_shipped_png_as_a_data_url():
    """Check that the icon is sent as a data: URL of ui/favicon.png (no file for
    PIL to open on the first run, nothing fetched from a font server) and that
    the router runs with it; the browser tests check that no request leaves
    the machine."""
    import base64

    from ui import warmup

    url = warmup.favicon()
    head, data = url.split(",", 1)
    assert head == "data:image/png;base64"
    assert base64.b64decode(data) == warmup.FAVICON.read_bytes()
    assert base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n"
    at = new_app()
    assert not at.exception
