"""The real-browser tests' fixtures (the tests in this folder).

One ``streamlit run`` server and one Chromium per test session, shared by every
browser test module: a second ``sync_playwright`` in the same session fails.
Serving and driving the app are :mod:`uitest.server` and :mod:`uitest.browser`
(shared with ``bench/``); here only what needs pytest.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from uitest.browser import CHROMIUM, guarded_page, launch
from uitest.server import (
    free_port,
    guarded_env,
    local_url,
    outside_connections,
    serving,
    streamlit_command,
)

ROOT = Path(__file__).resolve().parents[3]


def missing(reason: str) -> None:
    """Fail in CI (``CI`` set), else skip: the browser or its data is missing."""
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
        missing("playwright is not installed")
    if not Path(CHROMIUM).exists():
        missing(f"Chromium not found at {CHROMIUM}")
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)  # the first, cold script run imports the engine
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture
def page(browser, st_server):
    """A :func:`uitest.browser.guarded_page` for one test."""
    pg = guarded_page(browser)
    yield pg
    pg.context.close()


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
