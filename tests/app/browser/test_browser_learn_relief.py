"""Browser test of the RF-ML Learn page on emotions, at a projector's 1280 x 720."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.conftest import shared_datasets_dir
from uitest.browser import SCREEN_720, assert_clean, guarded_page, wait_idle
from uitest.server import (
    free_port,
    guarded_env,
    local_url,
    outside_connections,
    serving,
    streamlit_command,
)

from ..conftest import ROOT
from .conftest import missing

pytestmark = pytest.mark.browser


@pytest.fixture
def emotions_server(tmp_path):
    """``streamlit run app.py`` whose data folder holds a link to emotions."""
    source = shared_datasets_dir() / "emotions"
    if not (source / "emotions.arff").is_file():
        missing(f"the shared dataset {source} is missing")
    data = tmp_path / "data"
    data.mkdir()
    (data / "emotions").symlink_to(source, target_is_directory=True)
    port = free_port()
    env = dict(
        guarded_env(tmp_path / "net.log"),
        STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
        STREAMLIT_SERVER_HEADLESS="true",
        MLFS_WORK_DIR=str(tmp_path / "work"),
        MLFS_DATA_DIR=str(data),
    )
    command = streamlit_command(port)
    with serving(command, port, cwd=ROOT, env=env, log=tmp_path / "st.log"):
        yield local_url(port)
        assert outside_connections(tmp_path / "net.log") == []


def test_relief_page_on_emotions_fits_a_projector(browser, emotions_server, shots):
    """Check on emotions with presentation mode at 1280 x 720: the title, the
    reference slider with Play and the neighbour chart (10 neighbours among
    592 instances) are on screen, and nothing amiss; a screenshot to look at."""
    from playwright.sync_api import expect

    page = guarded_page(browser)
    try:
        page.set_viewport_size(SCREEN_720)
        failed = []
        page.on("response", lambda r: r.status >= 400 and failed.append(r.url))
        query = "dataset=emotions&present=true&relief_reference=12"
        page.goto(f"{emotions_server}/learn_relief?{query}")
        heading = page.get_by_role("heading", name="Neighbours and weights (RF-ML)")
        expect(heading).to_be_visible(timeout=120_000)
        wait_idle(page)
        charts = page.locator(".js-plotly-plot")
        expect(charts).to_have_count(2, timeout=120_000)
        expect(page.get_by_test_id("stAlertContentInfo")).to_contain_text(
            "Instance 12: its 10 nearest neighbours"
        )
        first = charts.nth(0).bounding_box()
        assert first["y"] + first["height"] <= SCREEN_720["height"]
        page.wait_for_timeout(1000)  # plotly draws after the script run
        for folder in shots:
            page.screenshot(path=str(Path(folder) / "learn_relief_emotions.png"))
        # a deep link makes the frontend probe /learn_relief/_stcore/health and
        # host-config, which 404 (the classroom guide documents it)
        probes = ("/learn_relief/_stcore/health", "/learn_relief/_stcore/host-config")
        assert all(urlsplit(u).path.endswith(probes) for u in failed), failed
        noise = "the server responded with a status of 404 (Not Found)"
        page.console_errors[:] = [e for e in page.console_errors if noise not in e]
        assert_clean(page)
    finally:
        page.context.close()
