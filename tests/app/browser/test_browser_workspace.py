"""Real-browser test of the workspace and the view links (issue 43, items 3-4).

At 1280x720: upload a dataset, reload, the upload is still in the sidebar and
selected; a page's choice survives a page switch and Back; the link opened in
a new browser context (another user holding the link) opens the same view;
a context without the link sees nothing of it. Skipped when Playwright or
Chromium is missing, unless ``CI`` is set (then it fails).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from uitest.browser import PAGES, go_to, guarded_page, wait_idle

from ..conftest import TOY_XML, toy_arff

pytestmark = pytest.mark.browser

SUBPAGE_404 = re.compile(r"status of 404")
"""A reload of a sub-page: Streamlit's frontend first asks <page>/_stcore/health
and <page>/_stcore/host-config (docs/user-guide/app.md, "Reloading a page")."""


def _query(page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def _projector_page(browser):
    page = guarded_page(browser)
    page.set_viewport_size({"width": 1280, "height": 720})
    return page


def test_upload_reload_page_switch_back_and_a_pasted_link(browser, st_server, tmp_path):
    """Check: the workspace token in the URL, the upload selected after F5, the
    Rank page's "Features to show" kept over a page switch and Back, the same
    view in a new context with the link, and none of it without the link."""
    from playwright.sync_api import expect

    arff, xml = tmp_path / "mine.arff", tmp_path / "mine.xml"
    arff.write_text(toy_arff())
    xml.write_text(TOY_XML)
    page = _projector_page(browser)
    try:
        page.goto(st_server + "/")
        expect(page.get_by_role("heading", name=PAGES["Data"])).to_be_visible()
        wait_idle(page)
        (token,) = _query(page)["ws"]
        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", token)
        page.get_by_text("Load your own dataset").click()
        uploader = (
            page.get_by_test_id("stMainBlockContainer")
            .get_by_test_id("stFileUploader")
            .locator('input[type="file"]')
        )
        uploader.set_input_files([str(arff), str(xml)])
        expect(page.get_by_test_id("stFileChip")).to_have_count(2)
        wait_idle(page)
        page.get_by_role("button", name="Load uploaded files").click()
        expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
            "Loaded mine (upload)"
        )
        dataset = page.get_by_role("combobox", name="Dataset")
        expect(dataset).to_have_value("mine (upload)")
        wait_idle(page)
        assert _query(page)["dataset"] == ["mine (upload)"]

        page.reload()  # F5: a new session, the same workspace
        expect(page.get_by_role("heading", name=PAGES["Data"])).to_be_visible()
        wait_idle(page)
        expect(dataset).to_have_value("mine (upload)")
        assert _query(page)["ws"] == [token]
        expect(page.get_by_text("Statistics of mine (upload)")).to_be_visible()

        go_to(page, "Rank features")
        assert _query(page)["ws"] == [token]  # kept over the page switch
        slider = page.get_by_test_id("stMain").get_by_role("slider").first
        slider.focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        wait_idle(page)
        expect(slider).to_have_value("23")
        wait_idle(page)
        assert _query(page)["rank_top"] == ["23"]

        go_to(page, "Data")
        go_to(page, "Rank features")  # Streamlit alone: back to 20
        expect(slider).to_have_value("23")
        wait_idle(page)
        assert _query(page)["rank_top"] == ["23"]

        go_to(page, "Data")
        page.go_back()  # the Back button: Rank features again, as it was
        expect(page.get_by_role("heading", name=PAGES["Rank features"])).to_be_visible()
        wait_idle(page, 600)
        expect(slider).to_have_value("23")
        expect(dataset).to_have_value("mine (upload)")
        wait_idle(page)
        link = page.url
        code = page.get_by_test_id("stSidebar").get_by_test_id("stCode")
        page.get_by_text("Link to this view", exact=True).click()
        expect(code).to_contain_text(f"ws={token}")
        expect(code).to_contain_text("rank_top=23")
        assert [e for e in page.console_errors if not SUBPAGE_404.search(e)] == []
        assert page.external_requests == []
    finally:
        page.context.close()

    other = _projector_page(browser)  # the link pasted in another browser
    try:
        other.goto(link)
        expect(
            other.get_by_role("heading", name=PAGES["Rank features"])
        ).to_be_visible()
        wait_idle(other)
        expect(other.get_by_role("combobox", name="Dataset")).to_have_value(
            "mine (upload)"
        )
        slider = other.get_by_test_id("stMain").get_by_role("slider").first
        expect(slider).to_have_value("23")
        assert other.get_by_test_id("stException").count() == 0
    finally:
        other.context.close()

    stranger = _projector_page(browser)  # no link: a workspace of their own
    try:
        stranger.goto(st_server + "/?dataset=mine+%28upload%29")
        expect(stranger.get_by_role("heading", name=PAGES["Data"])).to_be_visible()
        wait_idle(stranger)
        assert _query(stranger)["ws"] != [token]
        box = stranger.get_by_role("combobox", name="Dataset")
        expect(box).to_have_value("sample (planted)")
        box.click()
        expect(stranger.get_by_role("option", name="mine (upload)")).to_have_count(0)
    finally:
        stranger.context.close()


def test_a_reload_of_a_sub_page_works_despite_two_404s(browser, st_server):
    """Check: F5 on /experiment renders the page; the only console errors are
    the frontend's two probes of /experiment/_stcore/{health,host-config}."""
    from playwright.sync_api import expect

    page = _projector_page(browser)
    failed = []
    page.on("response", lambda r: r.status >= 400 and failed.append(r.url))
    try:
        page.goto(st_server + "/")
        wait_idle(page)
        go_to(page, "Experiment")
        page.reload()
        expect(page.get_by_role("heading", name=PAGES["Experiment"])).to_be_visible()
        wait_idle(page)
        paths = sorted(urlparse(u).path for u in failed)
        assert set(paths) <= {
            "/experiment/_stcore/health",
            "/experiment/_stcore/host-config",
        }
        assert page.get_by_test_id("stException").count() == 0
        assert all(SUBPAGE_404.search(e) for e in page.console_errors)
    finally:
        page.context.close()
