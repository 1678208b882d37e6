"""Screenshots of every step of the bundled lessons, made from the lesson files.

For each lesson (``mlfs_core/lessons/*.toml``, or the names given) this
script starts the app (``streamlit run app.py`` on a free loopback port, with
the shared datasets as ``MLFS_DATA_DIR``), opens each step's link
(``/?lesson=NAME&step=N``, as a student does) in a fresh headless Chromium
page of 1280 x 720, waits until the step's page has drawn its charts, and
saves ``docs/screenshots/lessons/NAME/stepN.png`` (a 128-colour palette PNG,
:func:`studies.figures.small_png`) of the step's page from the view's last
visible choice down (:func:`scroll_to_view`; the lesson box with the note and
question is above it, and the guide prints them beside the picture). The
user guide's lesson page shows them.

Run from the checkout's root::

    python docs/lessons_screenshots.py [--present] [NAME ...]

``--present`` takes them in presentation mode (``&present=true``), as on a
projector. ``MLFS_DATASETS`` names the datasets folder (default
``../shared/datasets``); Chromium is ``CHROMIUM_PATH`` or ``chromium``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # studies (a folder of the checkout)

from mlfs_core.lessons import bundled_lessons, read_lesson  # noqa: E402
from studies.figures import small_png  # noqa: E402
from uitest.browser import IDLE, launch  # noqa: E402
from uitest.server import free_port, local_url, serving, streamlit_command  # noqa: E402

OUT = ROOT / "docs" / "screenshots" / "lessons"
SCREEN = {"width": 1280, "height": 720}


def step_url(base: str, name: str, number: int, present: bool) -> str:
    """The link a student opens for step ``number`` of the lesson ``name``."""
    params = {"lesson": name, "step": number}
    if present:
        params["present"] = "true"
    return f"{base}/?{urlencode(params)}"


def shoot(page, url: str, path: Path, params=()) -> None:
    """Open ``url``, wait for the lesson panel and the charts, save a small PNG
    of the view from its last visible choice down (:func:`scroll_to_view`)."""
    page.goto(url)
    page.wait_for_selector(".st-key-lesson_panel", timeout=120_000)
    for _ in range(3):  # the step's page opens with a second run
        page.wait_for_timeout(400)
        page.wait_for_selector(IDLE, timeout=120_000)
    page.wait_for_selector(".js-plotly-plot", timeout=120_000)
    page.wait_for_timeout(1200)  # plotly finishes its layout
    scroll_to_view(page, [k for k, _ in params])
    page.wait_for_timeout(600)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(small_png(page.screenshot()))


GUIDE = ROOT / "docs" / "user-guide" / "lessons.md"
BEGIN = "<!-- gallery: made by docs/lessons_screenshots.py -->"
END = "<!-- end of gallery -->"


def gallery() -> str:
    """The user guide's gallery: each bundled lesson, its steps' notes,
    questions and screenshots (Markdown)."""
    out = []
    for name, path in bundled_lessons().items():
        lesson = read_lesson(path)
        out += [f"### {lesson.title}", ""]
        out += [f"`?lesson={name}` · dataset {', '.join(lesson.datasets)}"]
        out += ["", lesson.about, ""] if lesson.about else [""]
        for number, step in enumerate(lesson.steps, start=1):
            out += [f"**Step {number}** (`{step.view}`)", "", step.note, ""]
            if step.question:
                out += [f"*Question:* {step.question}", ""]
            shot = f"../screenshots/lessons/{name}/step{number}.png"
            out += [f"![{lesson.title}, step {number}]({shot})", ""]
    return "\n".join(out)


def write_gallery() -> None:
    """Put :func:`gallery` between the guide's two marker comments."""
    text = GUIDE.read_text()
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    GUIDE.write_text(f"{head}{BEGIN}\n\n{gallery()}\n{END}{tail}")


def scroll_to_view(page, names: list[str]) -> None:
    """Scroll the step's page so its last visible choice is at the top.

    The view's query parameters are the widgets' keys, and Streamlit marks
    each widget's element with ``st-key-<key>``: the last of them drawn
    visibly in the page (not in the sidebar, not in a closed expander) goes
    to the top, with what it changed under it; with none, the page title.
    The note and question are in the guide beside the picture.
    """
    for name in reversed(names):
        widget = page.locator(f'[data-testid="stMain"] .st-key-{name}')
        if widget.count() and widget.first.is_visible():
            target = widget.first
            break
    else:
        target = page.locator('[data-testid="stMain"] h1').first
    target.evaluate("e => e.scrollIntoView({block: 'start'})")


def main(argv: list[str] | None = None) -> int:
    """Make the screenshots; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="lessons (default: the bundled)")
    parser.add_argument("--present", action="store_true", help="presentation mode")
    parser.add_argument(
        "--gallery-only", action="store_true", help="rewrite the guide's gallery only"
    )
    args = parser.parse_args(argv)
    write_gallery()
    if args.gallery_only:
        return 0
    names = args.names or sorted(bundled_lessons())
    datasets = Path(
        os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets")
    )
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(
            os.environ,
            MLFS_DATA_DIR=str(datasets),
            MLFS_WORK_DIR=str(Path(tmp) / "work"),
            STREAMLIT_BROWSER_GATHER_USAGE_STATS="false",
        )
        port = free_port()
        with (
            serving(streamlit_command(port), port, cwd=ROOT, env=env),
            sync_playwright() as p,
        ):
            browser = launch(p)
            for name in names:
                lesson = read_lesson(bundled_lessons()[name])
                for number in range(1, len(lesson.steps) + 1):
                    context = browser.new_context(viewport=SCREEN)
                    started = time.monotonic()
                    path = OUT / name / f"step{number}.png"
                    shoot(
                        context.new_page(),
                        step_url(local_url(port), name, number, args.present),
                        path,
                        lesson.steps[number - 1].params,
                    )
                    context.close()
                    print(
                        f"{path.relative_to(ROOT)}  {time.monotonic() - started:.1f} s"
                    )
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
