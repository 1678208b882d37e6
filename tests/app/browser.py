"""Fixtures and helpers of the real-browser tests (imported by tests/app/conftest.py).

One ``streamlit run`` server and one Chromium per test session, shared by every
browser test module: a second ``sync_playwright`` in the same session fails.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .streamlit_server import (
    CHART_PAGES,
    free_port,
    local_url,
    serving,
    streamlit_command,
)

ROOT = Path(__file__).resolve().parents[2]
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
NETGUARD = Path(__file__).resolve().parent / "netguard"
LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")
PAGES = {
    "Data": "Data",
    **dict(CHART_PAGES),
    "Experiment": "Experiment",
    "About": "About MLFS Explorer",
}
"""Sidebar entry -> the page's heading."""


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def st_server(tmp_path_factory):
    """``streamlit run app.py`` on a free loopback port; yields its URL."""
    port = free_port()
    folder = tmp_path_factory.mktemp("st")
    env = dict(
        guarded_env(folder / "net.log"),
        STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
        STREAMLIT_SERVER_HEADLESS="true",
        MLFS_WORK_DIR=str(folder / "work"),
    )
    env.pop("MLFS_DATA_DIR", None)
    command = streamlit_command(port)
    with serving(command, port, cwd=ROOT, env=env, log=folder / "streamlit.log"):
        yield local_url(port)
        assert outside_connections(folder / "net.log") == []


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium driven by Playwright (skip/fail when missing)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed")
    if not Path(CHROMIUM).exists():
        _missing(f"Chromium not found at {CHROMIUM}")
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)  # the first, cold script run imports the engine
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield b
        b.close()


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


@pytest.fixture
def page(browser, st_server):
    """A :func:`guarded_page` for one test."""
    pg = guarded_page(browser)
    yield pg
    pg.context.close()


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


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> list[Path]:
    """Folders that screenshots are written to."""
    folders = [tmp_path_factory.mktemp("screenshots")]
    if os.environ.get("MLFS_SCREENSHOTS"):
        target = Path(os.environ["MLFS_SCREENSHOTS"])
        folders.append(target if target.is_absolute() else ROOT / target)
    for f in folders:
        f.mkdir(parents=True, exist_ok=True)
    return folders


def wait_idle(page, settle_ms: int = 200) -> None:
    """Wait until the script run triggered by the last action has finished."""
    page.wait_for_timeout(settle_ms)
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]'
        '[data-test-connection-state="CONNECTED"]'
    )


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


def guarded_env(log: Path) -> dict[str, str]:
    """The environment of a server whose outside connections are logged to ``log``.

    ``tests/app/netguard/sitecustomize.py`` (first on PYTHONPATH) installs an
    audit hook that writes each non-loopback name lookup or connection there.
    """
    log.touch()
    path = os.pathsep.join(
        p for p in (str(NETGUARD), os.environ.get("PYTHONPATH", "")) if p
    )
    return dict(os.environ, PYTHONPATH=path, MLFS_NET_LOG=str(log))


def outside_connections(log: Path) -> list[str]:
    """The lines of a ``guarded_env`` log: the server's outside connections."""
    return log.read_text().splitlines()


def assert_clean(page) -> None:
    """No Python exception shown, no console error, no request off the machine."""
    assert page.get_by_test_id("stException").count() == 0
    assert page.external_requests == [], page.external_requests
    assert page.console_errors == [], page.console_errors
