"""Real-browser tests: streamlit run + Playwright driving Debian's Chromium.

Skipped when Playwright or Chromium is missing, unless ``CI`` is set (then
they fail). Screenshots go to a temporary folder, and also to the folder named
by ``MLFS_SCREENSHOTS`` (e.g. ``docs/screenshots``) when that is set.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import ROOT, TOY_XML, toy_arff
from .streamlit_server import streamlit_command

pytestmark = pytest.mark.browser

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
NETGUARD = Path(__file__).resolve().parent / "netguard"
LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")
PAGES = {
    "Data": "Data",
    "Rank features": "Rank features",
    "Experiment": "Experiment",
    "Average ranks": "Average ranks",
    "Similarity": "Similarity of selected subsets",
    "Metric vs budget": "Metric vs number of selected features",
    "About": "About MLFS Explorer",
}


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(proc: subprocess.Popen, url: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"streamlit not healthy after 60 s:\n{log.read_text()}")
        time.sleep(0.1)


@pytest.fixture(scope="session")
def st_server(tmp_path_factory):
    """``streamlit run app.py`` on a free loopback port; yields its URL."""
    port = _free_port()
    folder = tmp_path_factory.mktemp("st")
    log_path = folder / "streamlit.log"
    env = dict(
        guarded_env(folder / "net.log"),
        STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
        STREAMLIT_SERVER_HEADLESS="true",
        MLFS_WORK_DIR=str(folder / "work"),
    )
    env.pop("MLFS_DATA_DIR", None)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            streamlit_command(port),
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(proc, url, log_path)
        yield url
        assert outside_connections(folder / "net.log") == []
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


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


@pytest.fixture
def page(browser, st_server):
    """A fresh page that records console errors and blocks non-loopback requests."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
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
    yield pg
    ctx.close()


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
    folds = page.get_by_role("spinbutton", name="Folds (CV)")
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
    uploader = page.get_by_test_id("stFileUploader").locator('input[type="file"]')
    uploader.set_input_files([str(bad)])
    wait_idle(page)
    page.get_by_role("button", name="Load uploaded files").click()
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text(
        "Could not read the upload"
    )
    expect(page.get_by_role("combobox", name="Dataset")).to_have_value(
        "sample (planted)"
    )
    page.goto(st_server + "/")  # a new session starts with an empty uploader
    wait_idle(page)
    page.get_by_text("Load your own dataset").click()
    uploader.set_input_files([str(arff), str(xml)])
    wait_idle(page)
    page.get_by_role("button", name="Load uploaded files").click()
    expect(page.get_by_test_id("stAlertContentSuccess")).to_contain_text(
        "Loaded mine (upload)"
    )
    expect(page.get_by_role("combobox", name="Dataset")).to_have_value("mine (upload)")
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    screenshot(page, shots, "upload")
    assert_clean(page)
