"""Projector mode: every analysis and Learn page at 1024 x 768, nothing clipped.

A real browser (Playwright + Debian's Chromium) opens each page at a projector's
1024 x 768 and checks, in the rendered page, that no table scrolls sideways or
runs past the main column (a hidden score column, a cut "quantile"), that the
Rank tables are tall enough for their rows (20, not 11), that no select box
cuts its value, that no chart is wider than the column, and that no two tick
labels of a chart overlap. Screenshots
of each page go to the test's screenshot folders (``MLFS_SCREENSHOTS`` too).
Skipped without Playwright/Chromium unless ``CI`` is set (then it fails).
"""

from __future__ import annotations

import json

import pytest

from uitest.browser import CHART_PAGES, assert_clean, wait_idle

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1024, "height": 768}

CLIPPED = """
() => {
  const main = document.querySelector('[data-testid="stMain"]')
    || document.querySelector('section.main');
  const right = main.getBoundingClientRect().right + 1;
  const problems = [];
  const text = (e) => (e.innerText || '').replace(/\\s+/g, ' ').slice(0, 50);
  for (const t of document.querySelectorAll('[data-testid="stTable"]')) {
    for (const e of [t, ...t.querySelectorAll('*')]) {
      const ox = getComputedStyle(e).overflowX;
      if (ox !== 'visible' && e.scrollWidth > e.clientWidth + 1) {
        problems.push('table scrolls sideways: ' + text(t)); break;
      }
    }
    if (t.getBoundingClientRect().right > right)
      problems.push('table past the column: ' + text(t));
  }
  for (const d of document.querySelectorAll('[data-testid="stDataFrame"]')) {
    const s = d.querySelector('.dvn-scroller');
    if (s && s.scrollWidth > s.clientWidth + 1)
      problems.push('data grid hides columns: ' + d.getAttribute('class'));
    if (d.getBoundingClientRect().right > right)
      problems.push('data grid past the column');
  }
  for (const c of main.querySelectorAll('[role="combobox"]')) {
    if (c.scrollWidth > c.clientWidth + 1)
      problems.push('select box cuts its value: ' + c.value);
  }
  for (const p of document.querySelectorAll('.js-plotly-plot')) {
    const title = (p.querySelector('.gtitle') || {}).textContent || '?';
    if (p.getBoundingClientRect().right > right)
      problems.push('chart past the column: ' + title);
    for (const axis of ['xtick', 'ytick']) {
      const boxes = [...p.querySelectorAll('.' + axis + ' text')]
        .map((e) => e.getBoundingClientRect())
        .filter((r) => r.width > 0);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 2 && h > 2) {
            problems.push(axis + ' labels overlap in: ' + title);
            i = boxes.length;
            break;
          }
        }
      }
    }
  }
  return problems;
}
"""

ROWS_HIDDEN = """
() => [...document.querySelectorAll('[data-testid="stDataFrame"] .dvn-scroller')]
  .map((d) => d.scrollHeight - d.clientHeight)
"""


def _open(page, nav: str, heading: str) -> None:
    from playwright.sync_api import expect

    page.get_by_test_id("stSidebarNav").get_by_text(nav, exact=True).click()
    slow = 240_000  # a loaded shared machine: study pages compute on first open
    heading = page.get_by_role("heading", name=heading, exact=True)
    expect(heading).to_be_visible(timeout=slow)
    wait_idle(page)
    expect(page.locator(".js-plotly-plot").first).to_be_visible(timeout=slow)
    page.wait_for_timeout(800)  # plotly and the data grid finish their layout


def _shoot(page, shots, name: str) -> None:
    page.set_viewport_size({"width": PROJECTOR["width"], "height": 2400})
    wait_idle(page)
    page.wait_for_timeout(700)
    for folder in shots:
        page.screenshot(path=str(folder / f"projector_{name}.png"))
    page.set_viewport_size(PROJECTOR)


def test_every_page_fits_a_projector(page, st_server, shots):
    """Check each analysis and Learn page at 1024 x 768: no clipped table or label."""
    from playwright.sync_api import expect

    page.set_viewport_size(PROJECTOR)
    # first opens of the study pages compute on a shared, loaded 2-core machine
    page.set_default_timeout(240_000)
    page.goto(st_server + "/")
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
    wait_idle(page)
    found = {}
    for nav, heading in CHART_PAGES:
        _open(page, nav, heading)
        found[nav] = page.evaluate(CLIPPED)
        if nav == "Rank features":  # the top-20 tables show their 20 rows
            hidden = page.evaluate(ROWS_HIDDEN)
            assert hidden and max(hidden) <= 1, hidden
        _shoot(page, shots, nav.lower().replace(" ", "_").replace(",", ""))
    clipped = {nav: p for nav, p in found.items() if p}
    assert clipped == {}, json.dumps(clipped, indent=1)
    assert_clean(page)
