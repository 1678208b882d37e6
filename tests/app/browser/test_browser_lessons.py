"""Lessons in a real browser at 1280 x 720: a student follows the teacher's link.

A server of its own, with medical, enron and emotions in ``MLFS_DATA_DIR``
(the shared datasets): a student opens the teacher's link to step 2 in a
fresh browser, sees the note, the question and the step's view, presses
Next and Back; the history grows by one entry per step. Also measured: the
message a student sees for a lesson whose dataset the server lacks (on the
session's server, which has no data folder), the Learn heatmaps on emotions
in presentation mode (plot-area height, row labels apart, feature names
inside the chart), and a lesson recorded in the browser and downloaded.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from mlfs_core.lessons import parse_lesson
from tests.conftest import shared_datasets_dir
from uitest.browser import SCREEN_720, assert_clean, guarded_page, wait_idle
from uitest.server import free_port, local_url, serving, streamlit_command

from .conftest import missing

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
SHOTS = Path("/tmp/shots_lessons")
PANEL = ".st-key-lesson_panel"


@pytest.fixture(scope="module")
def data_server(tmp_path_factory):
    """``streamlit run app.py`` with medical, enron and emotions as MLFS_DATA_DIR."""
    source = shared_datasets_dir()
    if not (source / "emotions").is_dir():
        missing(f"the shared datasets are not at {source}")
    folder = tmp_path_factory.mktemp("lessons_server")
    data = folder / "data"
    data.mkdir()
    for name in ("medical", "enron", "emotions"):
        (data / name).symlink_to(source / name)
    env = dict(
        os.environ,
        MLFS_DATA_DIR=str(data),
        MLFS_WORK_DIR=str(folder / "work"),
        STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
    )
    port = free_port()
    with serving(streamlit_command(port), port, cwd=ROOT, env=env, log=folder / "log"):
        yield local_url(port)


@pytest.fixture
def student(browser):
    """A fresh browser (no session, no workspace) at 1280 x 720."""
    pg = guarded_page(browser, SCREEN_720)
    pg.set_default_timeout(180_000)
    pg.not_found = []
    pg.on("response", lambda r: r.status == 404 and pg.not_found.append(r.url))
    yield pg
    pg.context.close()


def _settled(page) -> None:
    for _ in range(3):  # the step's page opens with a second run
        wait_idle(page, settle_ms=400)


STREAMLIT_PROBES = re.compile(r"/[a-z_]+/_stcore/(health|host-config)$")
"""What Streamlit's browser side asks first when it reconnects on a page's
own path (after a download, or Back to another page): 404s it then resolves
by asking the root; not the app's."""


def _clean(page) -> None:
    """:func:`assert_clean`, but for the 404s of Streamlit's reconnect probes."""
    assert all(STREAMLIT_PROBES.search(u) for u in page.not_found), page.not_found
    page.console_errors[:] = [
        e for e in page.console_errors if "status of 404 (Not Found)" not in e
    ]
    assert_clean(page)


def _open(page, nav: str) -> None:
    """Open the page ``nav`` from the sidebar and wait until it has run."""
    from playwright.sync_api import expect

    page.get_by_test_id("stSidebarNav").get_by_text(nav, exact=True).click()
    expect(page.get_by_role("heading", name=nav, exact=True)).to_be_visible()
    _settled(page)


def _slide(page, label: str, start: int, to: int):
    """Move the slider ``label`` from ``start`` to ``to`` with the arrow keys."""
    from playwright.sync_api import expect

    box = page.get_by_test_id("stSlider").filter(has_text=label)
    thumb = box.get_by_role("slider")
    expect(thumb).to_have_value(str(start))
    thumb.focus()
    for _ in range(to - start):
        page.keyboard.press("ArrowRight")
    _settled(page)
    expect(thumb).to_have_value(str(to))
    return box


def _panel(page) -> str:
    return page.locator(PANEL).inner_text()


def test_a_student_follows_the_teachers_link(data_server, student):
    """Check the link to step 2 opens the greedy page on emotions with PMU,
    the note and the question; Next writes step 3 and its view into the URL
    with one more history entry; Back returns to step 2."""
    from playwright.sync_api import expect

    page = student
    page.goto(data_server + "/?lesson=greedy_versus_ranking&step=2")
    expect(page.locator(PANEL)).to_contain_text("step 2 of 5")
    _settled(page)
    text = _panel(page)
    assert "Greedy versus ranking" in text and "PMU (pairwise multivariate" in text
    assert "Question: Is PMU's first feature the same as MaxCS's first?" in text
    expect(
        page.get_by_role("heading", name="A greedy step", exact=True)
    ).to_be_visible()
    url = page.url
    assert "/greedy?" in url and "dataset=emotions" in url and "step=2" in url
    assert "ws=" in url  # the student's own workspace, made now
    expect(page.locator(".js-plotly-plot").first).to_be_visible()
    history = page.evaluate("history.length")
    page.get_by_role("button", name="Next").click()
    expect(page.locator(PANEL)).to_contain_text("step 3 of 5")
    _settled(page)
    assert "step=3" in page.url and "greedy_step=4" in page.url
    assert page.evaluate("history.length") == history + 1
    page.screenshot(path=str(SHOTS / "student_step3.png"))
    page.go_back()
    expect(page.locator(PANEL)).to_contain_text("step 2 of 5")
    _settled(page)
    assert "step=2" in page.url
    _clean(page)


def test_a_lesson_without_its_dataset_says_so(st_server, student):
    """Check the session server (no data folder) names the missing dataset
    and what to do, and draws no page and no sample in its place."""
    from playwright.sync_api import expect

    page = student
    page.goto(st_server + "/?lesson=what_a_filter_score_sees&step=2")
    alert = page.get_by_test_id("stAlertContentError")
    expect(alert).to_contain_text("uses the dataset(s) medical")
    wait_idle(page)
    assert "MLFS_DATA_DIR" in alert.inner_text()
    assert page.locator('[data-testid="stMain"] h1').count() == 0
    assert page.locator('[data-testid="stMain"] .js-plotly-plot .trace').count() == 0
    page.screenshot(path=str(SHOTS / "missing_dataset.png"))


HEATMAP = """
(chart) => {
  const plot = chart.querySelector('.js-plotly-plot');
  const area = plot.querySelector('.nsewdrag').getBoundingClientRect();
  const box = plot.getBoundingClientRect();
  const ys = [...plot.querySelectorAll('.yaxislayer-above .ytick text')]
    .map(t => t.getBoundingClientRect()).sort((a, b) => a.top - b.top);
  const xs = [...plot.querySelectorAll('.xaxislayer-above .xtick text')]
    .map(t => t.getBoundingClientRect());
  let overlaps = 0;
  for (let i = 1; i < ys.length; i++)
    if (ys[i].top < ys[i - 1].bottom - 1) overlaps++;
  return {plot: area.height, rows: ys.length, overlaps,
          cut: xs.filter(r => r.bottom > box.bottom + 1).length,
          ticks: xs.length};
}
"""


@pytest.mark.parametrize(
    ("page_name", "nav", "key"),
    [
        ("score", "A score, step by step", "learn_heat"),
        ("aggregation", "An aggregation, step by step", "learn_agg"),
    ],
)
def test_presentation_heatmaps_keep_their_rows_on_emotions(
    data_server, student, page_name, nav, key
):
    """Check the Learn heatmaps on emotions in presentation mode at 1280 x 720:
    a plot area of at least 26 px per label row, the 6 label names apart,
    every feature name inside the chart (issue 54, item 1: 64 px, overlapping)."""
    from playwright.sync_api import expect

    page = student
    page.goto(f"{data_server}/?dataset=emotions&present=true")
    _open(page, nav)
    chart = page.locator(f".st-key-{key}_chart")
    expect(chart.locator(".js-plotly-plot")).to_be_visible()
    _settled(page)
    page.wait_for_timeout(800)
    measured = chart.evaluate(HEATMAP)
    page.screenshot(path=str(SHOTS / f"present_{page_name}_emotions.png"))
    assert measured["rows"] == 6 and measured["overlaps"] == 0, measured
    assert measured["plot"] >= 26 * 6, measured
    assert measured["ticks"] >= 5 and measured["cut"] == 0, measured


def test_recording_a_lesson_in_the_browser(data_server, student):
    """Check the recorder keeps the view as the URL holds it (a changed
    slider included), the note and the question, and downloads a lesson file."""
    from playwright.sync_api import expect

    page = student
    page.goto(data_server + "/greedy?dataset=emotions&greedy_k=9")
    expect(
        page.get_by_role("heading", name="A greedy step", exact=True)
    ).to_be_visible()
    _settled(page)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Record a lesson").click()
    sidebar.get_by_label("Teacher's note").fill("Nine steps of PMU.")
    sidebar.get_by_label("Question for the class").fill("Where does J level off?")
    page.keyboard.press("Tab")
    wait_idle(page)
    sidebar.get_by_role("button", name="Add this view to my lesson").click()
    expect(
        sidebar.get_by_role("button", name="Download the lesson (1 steps)")
    ).to_be_visible()
    with page.expect_download() as info:
        sidebar.get_by_role("button", name="Download the lesson (1 steps)").click()
    text = Path(info.value.path()).read_text()
    (step,) = parse_lesson(text, "download").steps
    assert step.page == "greedy" and ("greedy_k", "9") in step.params
    assert ("dataset", "emotions") in step.params and "ws" not in dict(step.params)
    assert (step.note, step.question) == (
        "Nine steps of PMU.",
        "Where does J level off?",
    )
    _clean(page)


def setup_module(module):
    """The screenshots' folder."""
    SHOTS.mkdir(parents=True, exist_ok=True)


def test_a_students_link_to_the_teachers_upload_says_it_is_missing(st_server, student):
    """Check a link naming an upload, opened without its workspace token,
    tells the student above the page that the sample is shown instead
    (issue 54, item 4: it silently showed the sample)."""
    from playwright.sync_api import expect

    page = student
    page.goto(st_server + "/?dataset=emotions+%28upload%29")
    alert = page.get_by_test_id("stAlertContentWarning").filter(
        has_text="This link names"
    )
    expect(alert).to_contain_text("“emotions (upload)”, which is not available here")
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
    wait_idle(page)
    box = alert.bounding_box()
    assert box["y"] + box["height"] <= SCREEN_720["height"]  # seen without scrolling
    sidebar = page.get_by_test_id("stSidebar")
    dataset = sidebar.get_by_role("combobox", name="Dataset")
    expect(dataset).to_have_value("sample (planted)")


def test_one_history_entry_per_page_visit_and_back_keeps_the_view(st_server, student):
    """Check each page visit adds one history entry (not three), and Back from
    Data returns to the greedy page as it was left, 12 steps, not its default
    8 (issue 54, item 2); Forward returns to Data."""
    from playwright.sync_api import expect

    page = student
    page.goto(st_server + "/greedy?greedy_k=12")
    expect(
        page.get_by_role("heading", name="A greedy step", exact=True)
    ).to_be_visible()
    _settled(page)
    steps = page.get_by_test_id("stSlider").filter(
        has_text="Steps (features to select)"
    )
    expect(steps.get_by_role("slider")).to_have_value("12")
    lengths = [page.evaluate("history.length")]
    for nav, heading in (
        ("Data", "Data"),
        ("Rank features", "Rank features"),
        ("Data", "Data"),
    ):
        page.get_by_test_id("stSidebarNav").get_by_text(nav, exact=True).click()
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
        _settled(page)
        lengths.append(page.evaluate("history.length"))
    assert [b - a for a, b in zip(lengths, lengths[1:])] == [1, 1, 1], lengths
    for heading in ("Rank features", "Data", "A greedy step"):
        page.go_back()
        page.wait_for_timeout(1000)  # Streamlit handles the popstate
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
        _settled(page)
    expect(steps.get_by_role("slider")).to_have_value("12")
    assert "greedy_k=12" in page.url
    page.go_forward()
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
    _clean(page)
