"""The Experiment page's option grid in Chromium: typed, run, the choices shown.

One screenshot at 1280 x 720 (a projector's screen) of the values chosen on the
inner splits, in the ``shots`` folders (``MLFS_SCREENSHOTS``).
"""

from __future__ import annotations

import pytest

from uitest.browser import SCREEN_720, assert_clean, go_to, wait_idle

pytestmark = pytest.mark.browser


def _type_into(page, label: str, text: str) -> None:
    box = page.get_by_role("textbox", name=label, exact=True)
    box.fill(text)
    box.press("Enter")
    wait_idle(page)


def _choose(page, label: str, option: str) -> None:
    page.get_by_role("combobox", name=label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_idle(page)


def test_a_grid_typed_on_the_experiment_page_runs_and_shows_its_choices(
    page, st_server, shots
):
    """Check a user adds MDDM-spc, gives its epsilon as "0.001, 0.1, 10",
    runs, and sees the values chosen per fold under the results."""
    from playwright.sync_api import expect

    page.set_viewport_size(SCREEN_720)
    page.goto(st_server + "/")
    heading = page.get_by_role("heading", name="Data", exact=True)
    expect(heading).to_be_visible(timeout=180_000)  # the first, cold run
    go_to(page, "Experiment")
    methods = page.get_by_role("combobox", name="Methods")
    methods.click()
    methods.type("MDDM-spc")
    page.get_by_role("option", name="MDDM-spc · spectral").click()
    page.keyboard.press("Escape")
    wait_idle(page)
    _type_into(page, "Folds (CV)", "2")
    page.get_by_text("Tune an option on an inner split (a grid)").click()
    wait_idle(page)
    _choose(page, "Method", "MDDM-spc")
    _choose(page, "Option", "epsilon")
    _type_into(page, "Values (comma-separated)", "0.001, 0.1, 10")
    page.get_by_role("button", name="Run", exact=True).click()
    expect(
        page.get_by_role("heading", name="Results of this session's experiment")
    ).to_be_visible(timeout=300_000)
    wait_idle(page)
    chosen = page.get_by_text("Values chosen on the inner splits")
    expect(chosen).to_be_visible()
    caption = page.get_by_text("Chosen per dataset and fold: MDDM-spc epsilon")
    expect(caption).to_be_visible()
    chosen.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 0)")
    page.wait_for_timeout(800)  # the data grid draws its cells
    for folder in shots:
        page.screenshot(path=str(folder / "experiment_grid_choices.png"))
    assert_clean(page)
