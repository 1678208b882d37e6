"""Browser tests (Chromium, 1280 px): Rank features and the Learn pages as links.

What AppTest cannot show: the real URL in the address bar after a click in the
navigation, the Back and Forward buttons, a reload, and Play stepping a page
in front of the user. Skipped without Chromium unless ``CI`` is set.
"""

from __future__ import annotations

import re

import pytest

from uitest.browser import go_to, screenshot, wait_idle

pytestmark = pytest.mark.browser


def expect(*args, **kwargs):
    """Playwright's ``expect``, imported on use: the minimum-versions job collects
    this module without Playwright (it runs ``-m "not browser"``)."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(*args, **kwargs)


def _choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the main area's selectbox ``label`` (typed, then Enter)."""
    wait_idle(page, 400)
    box = page.get_by_test_id("stMain").get_by_role("combobox", name=label)
    box.click()
    page.keyboard.type(option)
    expect(page.get_by_role("option", name=option, exact=True)).to_be_visible()
    page.keyboard.press("Enter")
    expect(box).to_have_value(option)
    wait_idle(page, 400)


def _heading(page, text: str):
    return page.get_by_role("heading", name=text, exact=True)


def test_rank_choice_survives_navigation_back_forward_and_reload(
    page, st_server, shots
):
    """Check BNS + Mean on Rank features: in the URL, kept after a visit to Data
    through the navigation, after Back and Forward, and after a reload."""
    page.goto(st_server + "/rank")
    expect(_heading(page, "Rank features")).to_be_visible()
    wait_idle(page)
    _choose(page, "Measure", "BNS")
    _choose(page, "Aggregation", "Mean")
    shown = _heading(page, "Top 20 features of sample (planted) by MeanBNS")
    expect(shown).to_be_visible(timeout=60_000)  # the ranking, on a busy machine
    assert "rank_a_measure=BNS" in page.url and "rank_a_agg=Mean" in page.url
    go_to(page, "Data")
    go_to(page, "Rank features")  # through the navigation: as it was
    expect(shown).to_be_visible()
    wait_idle(page, 600)
    go_to(page, "Data")
    page.go_back()  # the Back button: Rank features again, as it was
    expect(shown).to_be_visible(timeout=60_000)
    wait_idle(page, 600)
    page.go_forward()
    expect(_heading(page, "Data")).to_be_visible(timeout=60_000)
    wait_idle(page, 600)
    page.go_back()
    expect(shown).to_be_visible(timeout=60_000)
    wait_idle(page, 600)
    page.reload()
    expect(shown).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert re.search(r"rank_a_measure=BNS", page.url)
    assert page.get_by_test_id("stException").count() == 0
    screenshot(page, shots, "learn_rank_meanbns_after_reload")


def test_play_steps_the_aggregation_to_its_last_pick(page, st_server, shots):
    """Check Play on a pasted link's view (RoR, 4 picks) reaches step 4, the URL
    then carries the step, and the button reads Play again."""
    page.goto(st_server + "/aggregation?agg_method=RoR&agg_k=4")
    expect(_heading(page, "An aggregation, step by step")).to_be_visible()
    wait_idle(page)
    info = page.get_by_test_id("stAlertContentInfo").first
    expect(info).to_contain_text("Step 1:")
    page.get_by_test_id("stMain").get_by_role("button", name="Play").click()
    expect(info).to_contain_text("Step 4:", timeout=60_000)
    wait_idle(page)
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    assert "agg_step=4" in page.url and "agg_method=RoR" in page.url
    assert page.get_by_test_id("stException").count() == 0
    screenshot(page, shots, "learn_aggregation_after_play")
