"""In Chromium at 1280 x 720: the upload form fills in where the labels are."""

from __future__ import annotations

import pytest

from uitest.browser import SCREEN_720, assert_clean, guarded_page, wait_idle

from .conftest import missing

pytestmark = pytest.mark.browser


def test_emotions_and_its_xml_fill_in_the_label_fields(
    browser, st_server, shots, shared_datasets
):
    """Check what a teacher sees after choosing emotions.arff + emotions.xml:
    the sentence naming the XML and where its labels are, "Label count" 6
    and "last attributes" chosen (not "first"), all on a projector's screen;
    Load then takes the XML's six labels. Screenshot: upload_labels_720.png."""
    folder = shared_datasets / "emotions"
    if not (folder / "emotions.xml").is_file():
        missing(f"the shared dataset {folder} is missing")
    from playwright.sync_api import expect

    page = guarded_page(browser, SCREEN_720)
    try:
        page.goto(st_server + "/")
        expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
        wait_idle(page)
        page.get_by_text("Load your own dataset").click()
        page.get_by_test_id("stMainBlockContainer").get_by_test_id(
            "stFileUploader"
        ).locator('input[type="file"]').set_input_files(
            [str(folder / "emotions.arff"), str(folder / "emotions.xml")]
        )
        wait_idle(page)
        note = page.get_by_test_id("stAlertContentInfo").filter(
            has_text="Labels from emotions.xml"
        )
        expect(note).to_contain_text(
            "Labels from emotions.xml: 6 labels, the last 6 attributes of "
            "emotions.arff."
        )
        count = page.get_by_label("Label count (0 = from the file)")
        expect(count).to_have_value("6")
        expect(page.get_by_role("radio", name="last attributes")).to_be_checked()
        expect(page.get_by_role("radio", name="first attributes")).not_to_be_checked()
        page.get_by_role(
            "button", name="Load uploaded files"
        ).scroll_into_view_if_needed()
        note.scroll_into_view_if_needed()
        wait_idle(page)
        box = note.bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= 720  # on screen
        for target in shots:
            page.screenshot(path=str(target / "upload_labels_720.png"))
        page.get_by_role("button", name="Load uploaded files").click()
        expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
            "Loaded emotions (upload). Labels (q = 6): amazed-suprised"
        )
        expect(count).to_have_value("0")  # at rest for the next upload
        assert_clean(page)
    finally:
        page.context.close()
