"""Driving the app in Chromium (Playwright) for browser tests and the bench scripts.

Constants (the browser, its flags, the app's pages and idle state) and
helpers of the synchronous Playwright API: a guarded page that records
console errors and blocks requests off the machine, waiting for a script run
to finish, going to a page, screenshots. No pytest here, and Playwright is
imported only inside the helpers: importing this module needs neither.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = (
    os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
SCREEN_720 = {"width": 1280, "height": 720}
"""A projector's screen, presentation mode's target."""
LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")
"""URL prefixes a page may request: everything else is off the machine."""
IDLE = (
    '[data-testid="stApp"][data-test-script-state="notRunning"]'
    '[data-test-connection-state="CONNECTED"]'
)
"""The app's root once a script run has finished and the session is connected."""
CHART_PAGES = (
    ("Rank features", "Rank features"),
    ("Average ranks", "Average ranks"),
    ("Similarity", "Similarity of selected subsets"),
    ("Metric vs budget", "Metric vs number of selected features"),
    ("A score, step by step", "A score, step by step"),
    ("An aggregation, step by step", "An aggregation, step by step"),
    ("A greedy step", "A greedy step"),
    (
        "Sparse regression, iteration by iteration",
        "Sparse regression, iteration by iteration",
    ),
)
"""(sidebar entry, page heading) of each page after Data that draws a chart."""
PAGES = {
    "Data": "Data",
    **dict(CHART_PAGES),
    "Experiment": "Experiment",
    "About": "About MLFS Explorer",
}
"""Sidebar entry -> the page's heading."""


def launch(playwright):
    """Chromium (:data:`CHROMIUM`, headless, :data:`CHROMIUM_ARGS`) of a
    synchronous ``sync_playwright()`` instance."""
    return playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
    )


def guarded_page(browser, viewport: dict | None = None):
    """A new page in a fresh context: records console errors, blocks off-machine.

    Console errors go to ``page.console_errors`` and the requests it aborted
    (anything not on loopback) to ``page.external_requests``; close it with
    ``page.context.close()``. ``viewport``: its size (default 1280 x 900).
    """
    ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    pg.console_errors, pg.external_requests = [], []
    pg.on("console", lambda m: m.type == "error" and pg.console_errors.append(m.text))
    pg.on("pageerror", lambda e: pg.console_errors.append(f"pageerror: {e}"))

    def guard(route):
        if route.request.url.startswith(LOCAL):
            route.continue_()
        else:
            pg.external_requests.append(route.request.url)
            route.abort()

    pg.route("**/*", guard)
    return pg


def check_first_page(page, url: str) -> None:
    """Open ``url`` and check the first page renders: title, sidebar, navigation.

    The Data page of the bundled sample, with the router's sidebar (dataset
    and seed) and every section of the navigation, and nothing amiss
    (:func:`assert_clean`).
    """
    from playwright.sync_api import expect

    page.goto(url + "/")
    expect(page.get_by_role("heading", name=PAGES["Data"], exact=True)).to_be_visible()
    wait_idle(page)
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_text("Seed", exact=True)).to_be_visible()
    expect(page.get_by_test_id("stSidebarNav")).to_contain_text("About")
    expect(
        page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot')
    ).not_to_have_count(0)
    assert_clean(page)


def wait_idle(page, settle_ms: int = 200) -> None:
    """Wait until the script run triggered by the last action has finished."""
    page.wait_for_timeout(settle_ms)
    page.wait_for_selector(IDLE)


def go_to(page, nav: str) -> None:
    """Click a page in the sidebar navigation and wait for its title."""
    from playwright.sync_api import expect

    page.get_by_test_id("stSidebarNav").get_by_text(nav, exact=True).click()
    expect(page.get_by_role("heading", name=PAGES[nav], exact=True)).to_be_visible()
    wait_idle(page)


def go_to_chart(page, nav: str) -> None:
    """:func:`go_to`, then wait until the page's first chart is drawn and laid out."""
    from playwright.sync_api import expect

    go_to(page, nav)
    expect(page.locator(".js-plotly-plot").first).to_be_visible()
    wait_idle(page)
    page.wait_for_timeout(800)  # plotly finishes its layout


def screenshot(page, shots: list[Path], name: str, height: int = 1800) -> None:
    """A tall screenshot of the current page into every screenshot folder."""
    page.set_viewport_size({"width": 1280, "height": height})
    wait_idle(page)
    page.wait_for_timeout(700)  # plotly and the data grid redraw after a resize
    for folder in shots:
        page.screenshot(path=str(folder / f"{name}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def assert_clean(page) -> None:
    """No Python exception shown, no console error, no request off the machine."""
    assert page.get_by_test_id("stException").count() == 0
    assert page.external_requests == [], page.external_requests
    assert page.console_errors == [], page.console_errors
