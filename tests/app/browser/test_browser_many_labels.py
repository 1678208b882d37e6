"""Medical's 45 labels on the Data page, measured in a real browser (issue 54, item 5).

On screen and in presentation mode at 1280 x 720: the label-frequency chart
names every bar (plotly's automatic ticks named every other one), and no two
tick labels of it or of the co-occurrence heatmap overlap (their bounding
boxes, as the browser laid them out). Presenting, 45 upright 16-pixel names
do not fit side by side in the main column (20 px each, 16 px a bar): the
bars are drawn across, one row per label; the heatmap draws the 24 most
frequent labels (40 on screen), as its title says.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import shared_datasets_dir
from uitest.browser import SCREEN_720, assert_clean, guarded_page, wait_idle
from uitest.server import free_port, local_url, serving, streamlit_command

from .conftest import missing

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def medical_server(tmp_path_factory):
    """``streamlit run app.py`` with medical as MLFS_DATA_DIR."""
    source = shared_datasets_dir()
    if not (source / "medical").is_dir():
        missing(f"the shared datasets are not at {source}")
    folder = tmp_path_factory.mktemp("many_labels")
    data = folder / "data"
    data.mkdir()
    (data / "medical").symlink_to(source / "medical")
    env = dict(
        os.environ,
        MLFS_DATA_DIR=str(data),
        MLFS_WORK_DIR=str(folder / "work"),
        STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
    )
    port = free_port()
    with serving(streamlit_command(port), port, cwd=ROOT, env=env, log=folder / "log"):
        yield local_url(port)


TICKS = """(chart) => {
  const boxes = (sel) => [...chart.querySelectorAll(sel)]
    .filter((t) => t.textContent.trim() !== "")
    .map((t) => {
      const r = t.getBoundingClientRect();
      return {text: t.textContent, l: r.left, r: r.right, t: r.top, b: r.bottom};
    });
  return {x: boxes("g.xtick text"), y: boxes("g.ytick text")};
}"""


def _overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of tick labels whose boxes intersect (1 px tolerance)."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (
                min(a["r"], b["r"]) - max(a["l"], b["l"]) > 1
                and min(a["b"], b["b"]) - max(a["t"], b["t"]) > 1
            ):
                found.append((a["text"], b["text"]))
    return found


@pytest.mark.parametrize("present", [False, True])
def test_every_label_named_and_apart(browser, medical_server, present):
    """All 45 bars named; the heatmap's 40 rows and columns named; none overlap."""
    from playwright.sync_api import expect

    page = guarded_page(browser, SCREEN_720)
    try:
        query = "?dataset=medical" + ("&present=true" if present else "")
        page.goto(medical_server + "/" + query)
        expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
        charts = page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot')
        expect(charts).to_have_count(2)
        wait_idle(page, settle_ms=400)
        page.wait_for_timeout(1000)  # plotly finishes its layout
        bars = charts.nth(0).evaluate(TICKS)
        # on screen upright under the bars; presenting, bars across, a row each
        ticks = bars["y"] if present else bars["x"]
        names = [b["text"] for b in ticks]
        assert len(names) == 45, names
        assert len(set(names)) == 45, names
        assert all(n.startswith("Class-") for n in names), names
        assert _overlaps(ticks) == [], _overlaps(ticks)
        assert _overlaps(bars["x"] + bars["y"]) == []
        heat = charts.nth(1).evaluate(TICKS)
        shown = 24 if present else 40  # the most frequent ones, as the title says
        assert len(heat["x"]) == shown and len(heat["y"]) == shown, heat
        title = charts.nth(1).locator(".gtitle").text_content()
        assert f"the {shown} most frequent of 45 labels" in title, title
        assert _overlaps(heat["x"]) == [], _overlaps(heat["x"])
        assert _overlaps(heat["y"]) == [], _overlaps(heat["y"])
        # the column ticks stay clear of the row ticks
        assert _overlaps(heat["x"] + heat["y"]) == []
        assert_clean(page)
    finally:
        page.context.close()
