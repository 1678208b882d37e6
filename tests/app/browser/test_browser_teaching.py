"""Browser tests of issue 13's defects (and, later, the Learn pages).

Same fixtures as ``test_browser.py`` (imported): a guarded ``streamlit run``
whose outside connections are logged, and a Chromium page that blocks and
records every request leaving the machine.
"""

from __future__ import annotations

import sys
import time

import pytest

from uitest.browser import assert_clean, go_to, screenshot, wait_idle
from uitest.server import free_port, guarded_env, outside_connections, serving

from ..conftest import ROOT

pytestmark = pytest.mark.browser


def test_plain_streamlit_run_makes_no_outside_connection(tmp_path):
    """Check that ``streamlit run app.py`` as a user types it contacts nothing outside.

    Without ``--server.address`` Streamlit prints the network URLs at start and,
    headless, looks up the external IP at checkip.amazonaws.com unless the
    shipped config sets ``browser.serverAddress``. The server runs under the
    audit hook of ``uitest/netguard``; its log must stay empty.
    """
    port = free_port()
    log = tmp_path / "net.log"
    out = tmp_path / "streamlit.log"
    env = dict(guarded_env(log), MLFS_WORK_DIR=str(tmp_path / "work"))
    command = [sys.executable, "-m", "streamlit", "run", "app.py"]
    command += ["--server.port", str(port)]
    with serving(command, port, cwd=ROOT, env=env, log=out):
        time.sleep(1.0)  # the start-up message (and its IP lookups) follows health
        assert "localhost" in out.read_text()
    assert outside_connections(log) == []


def test_methods_chips_follow_the_results_source(page, st_server):
    """Check that the chips show the new source's 12 methods after a source switch.

    Paper 000 study (10 methods) -> Paper 001 study (12): before the fix the
    browser kept the 10 old chips while the legend showed the 12 new methods.
    """
    from playwright.sync_api import expect

    page.goto(st_server + "/")
    wait_idle(page)
    go_to(page, "Average ranks")
    methods = page.get_by_test_id("stMultiSelect").filter(has_text="Methods")
    tags = methods.locator("[data-tag]")  # not the panels picker's
    expect(tags).to_have_count(10)
    assert any("MaxCS" in t for t in tags.all_inner_texts())
    page.get_by_role("radiogroup").get_by_text("Paper 001 study", exact=True).click()
    wait_idle(page)
    expect(tags).to_have_count(12)
    texts = " ".join(tags.all_inner_texts())
    assert "ATR" in texts and "MaxCS" not in texts
    assert_clean(page)


def test_metric_label_and_legend_fit(page, st_server):
    """Check that the metric dropdown shows its whole label and the legend all methods.

    The label "micro_f1 (higher is better)" used to be cut; the legend showed
    8 of 10-12 methods behind a scrollbar.
    """
    from playwright.sync_api import expect

    page.goto(st_server + "/")
    wait_idle(page)
    go_to(page, "Average ranks")
    metric = page.get_by_role("combobox", name="Metric")
    expect(metric).to_have_value("micro_f1 (higher is better)")
    overflow = metric.evaluate("e => e.scrollWidth - e.clientWidth")
    assert overflow <= 1, overflow
    page.get_by_role("radiogroup").get_by_text("Paper 001 study", exact=True).click()
    wait_idle(page)
    legend = page.locator(".js-plotly-plot .legend").first
    expect(legend.locator(".traces")).to_have_count(12)
    scrollbar = legend.locator("rect.scrollbar")
    heights = [
        float(h or 0)
        for h in scrollbar.evaluate_all("els => els.map(e => e.getAttribute('height'))")
    ]
    assert all(h == 0 for h in heights), heights
    assert_clean(page)


LEARN = ["A score, step by step", "An aggregation, step by step", "A greedy step"]


def test_learn_pages_render_offline(page, st_server, shots):
    """Check that each Learn page opens from the sidebar, draws its figures, and
    stays offline (screenshots for the README).
    """
    from playwright.sync_api import expect

    page.goto(st_server + "/")
    wait_idle(page)
    for title, shot, figures in zip(
        LEARN,
        ["learn_score", "learn_aggregation", "learn_greedy"],
        [1, 2, 2],
        strict=True,
    ):
        page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
        expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible()
        wait_idle(page)
        expect(page.locator(".js-plotly-plot")).to_have_count(figures)
        if shot == "learn_aggregation":  # RaR adds the chart of its draw
            page.get_by_role("combobox", name="Aggregation").click()
            page.get_by_role("option", name="RaR", exact=True).click()
            wait_idle(page)
            expect(page.locator(".js-plotly-plot")).to_have_count(3)
        if shot != "learn_score":
            _step_to(page, 4)
        screenshot(page, shots, shot, height=2400)
    assert_clean(page)


def _step_to(page, step: int) -> None:
    """Move the page's "Step" slider from 1 to ``step`` with the keyboard."""
    from playwright.sync_api import expect

    slider = page.locator('input[type="range"][aria-label="Step"]')
    slider.focus()
    for _ in range(step - 1):
        slider.press("ArrowRight")
    wait_idle(page)
    expect(page.get_by_test_id("stAlertContentInfo")).to_contain_text(f"Step {step}")
