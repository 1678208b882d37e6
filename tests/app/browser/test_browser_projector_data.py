"""Projector mode (1024 x 768) of the Data and Experiment pages, in Chromium.

Nothing may be clipped: no table wider than its frame (a hidden column), no
widget label or alert cut off, no page wider than the window. Screenshots go
to the ``shots`` folders (``MLFS_SCREENSHOTS``).
"""

from __future__ import annotations

import pytest

from uitest.browser import assert_clean, go_to, wait_idle

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1024, "height": 768}

CLIPPED_JS = """() => {
  const out = [];
  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth + 1) {
    out.push(`page ${page.scrollWidth} px wide in a ${window.innerWidth} px window`);
  }
  for (const grid of document.querySelectorAll('[data-testid="stDataFrame"]')) {
    const scroller = grid.querySelector('.dvn-scroller');
    if (scroller && scroller.scrollWidth > scroller.clientWidth + 1) {
      out.push(`table ${scroller.scrollWidth} px, frame ${scroller.clientWidth} px`);
    }
  }
  const texts = '[data-testid="stWidgetLabel"] p, [data-testid="stAlertContainer"] p,'
    + ' [data-testid="stCaptionContainer"], h1, h2, h3, input[role="combobox"]';
  for (const el of document.querySelectorAll(texts)) {
    if (el.scrollWidth > el.clientWidth + 1) {
      out.push(`text cut: ${(el.value || el.innerText).slice(0, 60)}`);
    }
  }
  return out;
}"""


def clipped(page) -> list[str]:
    """What the current page clips at its viewport (empty when nothing)."""
    wait_idle(page)
    page.wait_for_timeout(500)  # the data grid measures its columns after a draw
    return page.evaluate(CLIPPED_JS)


def _shot(page, shots, name: str) -> None:
    for folder in shots:
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_data_and_experiment_pages_fit_a_projector(page, st_server, shots):
    """Check the Data page (sample), and the Experiment page before and after a
    run of the teaching defaults, at 1024 x 768: no clipped table, label or alert."""
    from playwright.sync_api import expect

    page.set_viewport_size(PROJECTOR)
    page.goto(st_server + "/")
    heading = page.get_by_role("heading", name="Data", exact=True)
    expect(heading).to_be_visible(timeout=180_000)  # the first, cold run
    expect(page.locator(".js-plotly-plot").first).to_be_visible(timeout=120_000)
    page.get_by_text("Load your own dataset").click()
    assert clipped(page) == []
    _shot(page, shots, "projector_data")
    go_to(page, "Experiment")
    assert clipped(page) == []
    page.get_by_role("button", name="Run", exact=True).click()
    expect(
        page.get_by_role("heading", name="Results of this session's experiment")
    ).to_be_visible(timeout=180_000)
    assert clipped(page) == []
    _shot(page, shots, "projector_experiment")
    assert_clean(page)
