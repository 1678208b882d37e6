"""The first change of a bound control is in the URL (issue 54, item 3).

Measured in a real browser: a page is opened, one control is changed once,
and the address bar's query string must then hold the new value (a copied
link opens the same view); a fresh browser given that link shows it. The
controls whose page default :func:`ui.choices.settle` gives (metric, budget
slider, highlight) lost their first change: the changed value was fed back
as the widget's default, and Streamlit keeps a value equal to the default
out of the URL. The budget slider, in a fragment, also lost every move after
the page's first full rerun: the first run's progress bar took a slot the
later runs did not, the elements after it moved, and the browser's remounted
slider was no longer bound to the URL.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from uitest.browser import assert_clean, go_to_chart, guarded_page, wait_idle

pytestmark = pytest.mark.browser


def _query(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def _settled(page) -> None:
    for _ in range(2):  # a change may be followed by a second run
        wait_idle(page, settle_ms=400)


def _choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label``."""
    page.get_by_role("combobox", name=label).click()
    page.get_by_role("option", name=option, exact=False).first.click()
    _settled(page)


def _metric_in_url(page, key: str) -> str:
    """The metric a page's URL names (its label: "hamming_loss (lower is better)")."""
    values = _query(page).get(key) or [""]
    assert len(values) == 1, page.url
    return values[0].split(" (")[0]


def _current(page, label: str) -> str:
    return page.get_by_role("combobox", name=label).input_value()


def _fresh_browser_shows(browser, url: str, label: str, expected: str, nav_heading):
    from playwright.sync_api import expect

    other = guarded_page(browser)
    try:
        other.goto(url)
        heading = other.get_by_role("heading", name=nav_heading, exact=True)
        expect(heading).to_be_visible()
        _settled(other)
        assert expected in _current(other, label), (url, _current(other, label))
    finally:
        other.context.close()


def test_first_metric_and_budget_change_on_average_ranks(page, st_server, browser):
    """The first Metric change, then the first budget move, each reach the URL."""
    page.goto(st_server + "/")
    wait_idle(page)
    go_to_chart(page, "Average ranks")
    assert "ranks_metric" not in _query(page)
    opened = _current(page, "Metric")
    target = "hamming_loss" if "hamming" not in opened else "micro_f1"
    _choose(page, "Metric", target)
    assert target in _current(page, "Metric")
    assert _metric_in_url(page, "ranks_metric") == target, page.url
    _fresh_browser_shows(browser, page.url, "Metric", target, "Average ranks")

    box = page.get_by_test_id("stSlider").filter(has_text="Budget")
    thumb = box.get_by_test_id("stSliderThumbValue")
    before = thumb.inner_text()
    box.get_by_role("slider").focus()
    box.get_by_role("slider").press("ArrowRight")
    _settled(page)
    after = thumb.inner_text()
    assert after != before
    budget = _query(page).get("ranks_budget")
    assert budget == [after], (page.url, after)
    assert _metric_in_url(page, "ranks_metric") == target, page.url  # still there
    assert_clean(page)


def test_first_changes_on_metric_vs_budget(page, st_server, browser):
    """Another page: the first Metric change and the first highlight reach the URL."""
    heading = "Metric vs number of selected features"
    page.goto(st_server + "/")
    wait_idle(page)
    go_to_chart(page, "Metric vs budget")
    opened = _current(page, "Metric")
    target = "hamming_loss" if "hamming" not in opened else "micro_f1"
    _choose(page, "Metric", target)
    assert _metric_in_url(page, "budget_metric") == target, page.url
    _fresh_browser_shows(browser, page.url, "Metric", target, heading)

    label = "Highlight a method (the others turn grey)"
    _choose(page, label, "RF")
    picked = _current(page, label)
    assert _query(page).get("budget_highlight") == [picked], page.url
    assert_clean(page)
