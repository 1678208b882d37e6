"""Presentation mode in a real browser at 1280 x 720 on Data, Rank features and
the Learn pages (issue 43, item 5).

A teacher's link (``?present=true``) opens the app; each page, opened from
the sidebar's navigation, draws its main chart whole above the fold (its
bottom at most 720 px down), with 16 px chart text; on the aggregation and
greedy pages the step slider and Play are right above the chart, also above
the fold. Screenshots of each view go to the
test's screenshot folders (``MLFS_SCREENSHOTS`` too) and to
``/tmp/shots_present2`` when that folder exists. Skipped without
Playwright/Chromium unless ``CI`` is set (then it fails).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from uitest.browser import SCREEN_720, assert_clean, go_to_chart, wait_idle

pytestmark = pytest.mark.browser

PAGES = {
    "data": "Data",
    "rank": "Rank features",
    "score": "A score, step by step",
    "aggregation": "An aggregation, step by step",
    "greedy": "A greedy step",
}
"""Page -> its entry in the sidebar's navigation (and its heading)."""
PLAY = {"aggregation", "greedy", "score"}
EXTRA = Path("/tmp/shots_present2")

SMALLEST_TEXT = """
() => {
  const chart = document.querySelector('[data-testid="stPlotlyChart"]');
  const sizes = [...chart.querySelectorAll('.main-svg text')]
    .filter((e) => (e.textContent || '').trim() && e.getBoundingClientRect().width > 0)
    .map((e) => parseFloat(getComputedStyle(e).fontSize));
  return {n: sizes.length, smallest: Math.min(...sizes)};
}
"""


def test_presentation_pages_fit_1280_by_720(page, st_server, shots):
    """Check Data, Rank features and the three Learn pages in presentation
        mode at 1280 x 720: the main chart ends above the fold, its text is 16 px
        or more, and on the aggregation and greedy pages the Play button is right
    above the chart, also above the fold."""
    page.set_viewport_size(SCREEN_720)
    page.set_default_timeout(240_000)  # first opens compute on a loaded machine
    folders = [*shots, *([EXTRA] if EXTRA.is_dir() else [])]
    page.goto(st_server + "/?present=true")  # a teacher's link
    wait_idle(page)
    bottoms, texts, plays = {}, {}, {}
    for name, nav in PAGES.items():
        go_to_chart(page, nav)  # the URL's flags kept
        assert "present=true" in page.url, page.url
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        box = page.locator('[data-testid="stPlotlyChart"]').first.bounding_box()
        bottoms[name] = box["y"] + box["height"]
        texts[name] = page.evaluate(SMALLEST_TEXT)
        if name in PLAY:
            play = page.get_by_role("button", name="Play").first.bounding_box()
            plays[name] = (box["y"], play["y"], play["y"] + play["height"])
        for folder in folders:
            page.screenshot(path=str(folder / f"present_{name}.png"))
    assert all(b <= SCREEN_720["height"] for b in bottoms.values()), bottoms
    assert all(t["n"] > 5 and t["smallest"] >= 16 for t in texts.values()), texts
    # Play above the chart it steps, both above the fold (Score's Play steps
    # the 2x2 table's labels, under the heatmap and its one-line expander)
    for name in ("aggregation", "greedy"):
        top, play, play_bottom = plays[name]
        assert play < top and play_bottom <= SCREEN_720["height"], plays
    assert plays["score"][1] > bottoms["score"], plays
    assert_clean(page)
