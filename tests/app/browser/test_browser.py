"""Real-browser tests: streamlit run + Playwright driving Debian's Chromium.

Skipped when Playwright or Chromium is missing, unless ``CI`` is set (then
they fail). Screenshots go to a temporary folder, and also to the folder named
by ``MLFS_SCREENSHOTS`` (e.g. ``docs/screenshots``) when that is set.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from uitest.browser import assert_clean, go_to, screenshot, wait_idle

from ..conftest import TOY_XML, toy_arff

pytestmark = pytest.mark.browser


def test_deep_link_as_first_request_keeps_the_router(page, st_server):
    """Check that a deep link as the fresh server's first request shows the sidebar.

    This is the first test of the module, so ``/rank`` is the server's first
    script run: with page scripts directly in ``pages/`` Streamlit would run
    the page alone there (legacy v1 mode), without the router's sidebar. The
    only console errors allowed are Streamlit's own for any deep link (its
    frontend probes ``/rank/_stcore/health`` and ``host-config``, which 404)
    and its note that the legacy navigation did not know the page.
    """
    from playwright.sync_api import expect

    page.goto(st_server + "/rank")
    expect(
        page.get_by_role("heading", name="Rank features", exact=True)
    ).to_be_visible()
    wait_idle(page)
    expect(
        page.get_by_test_id("stSidebar").get_by_text("Seed", exact=True)
    ).to_be_visible()
    nav = page.get_by_test_id("stSidebarNav")
    expect(nav.get_by_text("Metric vs budget", exact=True)).to_be_visible()
    assert page.get_by_test_id("stException").count() == 0
    assert page.external_requests == []
    streamlit_deep_link_noise = {
        "Failed to load resource: the server responded with a status of 404 "
        "(Not Found)",
        "The page that you have requested does not seem to exist. "
        "Running the app's main page.",
    }
    assert set(page.console_errors) <= streamlit_deep_link_noise, page.console_errors


def test_every_page_renders_with_a_figure(page, st_server, shots):
    """Check that each page opens from the sidebar, draws, and stays offline."""
    from playwright.sync_api import expect

    page.goto(st_server + "/")
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
    wait_idle(page)
    expect(page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot')).to_have_count(
        2
    )
    screenshot(page, shots, "data")
    with page.expect_download(timeout=60_000) as download:
        page.get_by_role("button", name="Download PNG").first.click()
    assert Path(download.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for nav, shot in [
        ("Rank features", "rank"),
        ("Average ranks", "average_ranks"),
        ("Similarity", "similarity"),
        ("Metric vs budget", "budget"),
        ("About", "about"),
    ]:
        go_to(page, nav)
        if nav != "About":
            expect(page.locator(".js-plotly-plot").first).to_be_visible()
        screenshot(page, shots, shot, height=2400 if nav == "Rank features" else 1800)
    assert_clean(page)


def test_small_experiment_end_to_end(page, st_server, shots):
    """Check that a small experiment runs to Done in the browser and shows results."""
    from playwright.sync_api import expect

    page.goto(st_server + "/")
    wait_idle(page)
    go_to(page, "Experiment")
    folds = page.get_by_role("textbox", name="Folds (CV)")
    folds.fill("2")
    folds.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.get_by_test_id("stProgress")).to_contain_text("Done", timeout=120_000)
    expect(page.get_by_text("Results of this session's experiment")).to_be_visible()
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    screenshot(page, shots, "experiment")
    go_to(page, "Average ranks")
    expect(page.get_by_role("radiogroup").get_by_text("This session's experiment"))
    expect(page.locator(".js-plotly-plot").first).to_be_visible()
    assert_clean(page)


def test_upload_through_the_real_file_input(page, st_server, tmp_path, shots):
    """Check that ARFF + XML uploaded via <input type=file> becomes the dataset."""
    from playwright.sync_api import expect

    arff, xml = tmp_path / "mine.arff", tmp_path / "mine.xml"
    arff.write_text(toy_arff())
    xml.write_text(TOY_XML)
    bad = tmp_path / "bad.arff"
    bad.write_text("@relation x\n@attribute a numeric\n")
    page.goto(st_server + "/")
    wait_idle(page)
    page.get_by_text("Load your own dataset").click()
    uploader = (
        page.get_by_test_id("stMainBlockContainer")
        .get_by_test_id("stFileUploader")
        .locator('input[type="file"]')
    )
    uploader.set_input_files([str(bad)])
    wait_idle(page)
    page.get_by_role("button", name="Load uploaded files").click()
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text(
        "Could not read the upload"
    )
    expect(page.get_by_role("combobox", name="Dataset")).to_have_value(
        "sample (planted)"
    )
    # the failed file stays in the uploader for a retry; removing it there
    # keeps the next upload from being mixed with it ("several dataset files")
    wait_idle(page)
    expect(
        page.get_by_test_id("stMainBlockContainer").get_by_test_id("stFileUploader")
    ).to_have_count(1)
    expect(page.get_by_test_id("stFileChip")).to_have_count(1)
    expect(page.get_by_test_id("stFileChipName")).to_have_text("bad.arff")
    page.get_by_test_id("stFileChipDeleteBtn").click()
    wait_idle(page)
    expect(page.get_by_test_id("stFileChip")).to_have_count(0)
    uploader.set_input_files([str(arff), str(xml)])
    wait_idle(page)
    page.get_by_role("button", name="Load uploaded files").click()
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
        "Loaded mine (upload). Labels (q = 3): l0, l1, l2"
    )
    expect(page.get_by_test_id("stFileChip")).to_have_count(0)  # emptied
    expect(page.get_by_role("combobox", name="Dataset")).to_have_value("mine (upload)")
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    screenshot(page, shots, "upload")
    assert_clean(page)
