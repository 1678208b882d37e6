"""Guided lessons in the app: play one from its link, record one, export slides.

``?lesson=NAME&step=3`` plays step 3 of the lesson NAME (a file
``NAME.toml`` uploaded in this workspace, in ``MLFS_DATA_DIR`` or its
``lessons/`` folder, else a bundled lesson, :mod:`mlfs_core.lessons`): the
router opens the step's view (its page and choices, as in a link), and a
panel above the page shows the teacher's note, the question, the step
counter and Previous / Next, which change ``step`` in the URL, so a student
who opens the teacher's link follows on their own laptop.

A teacher records a lesson in the sidebar ("Record a lesson"): each "Add
this view to my lesson" keeps the current view with a note and a question;
the lesson downloads as a TOML file. While a lesson plays, the figures each
step drew are kept, and the panel downloads the step or the lesson as one
offline HTML file or as PNG images (:mod:`mlfs_core.lessons.slides`).
"""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go
import streamlit as st

from mlfs_core.errors import ConfigError
from mlfs_core.lessons import (
    Lesson,
    Step,
    find_lesson,
    lesson_text,
    parse_lesson,
    read_lesson,
    slides_html,
    slides_png_zip,
    split_view,
)

from . import links, state

PARAM, STEP = "lesson", "step"
KEEP = ("ws", PARAM, STEP, "present")
"""Query parameters a step's view leaves as they are (``present`` unless the
view names it: a step may ask for presentation mode)."""
_APPLIED = "_lesson_applied"  # (lesson, step) whose view was last opened
_FIGURES = "_lesson_figures"  # the figures drawn on this run (plotly JSON)
_DECK = "_lesson_deck"  # (lesson, step) -> its figures' JSON, for the slides
_RECORDED = "_lesson_recorded"  # the views recorded: [(view, note, question)]
_UPLOADS = "lessons"  # the workspace's folder of uploaded lesson files


@dataclass(frozen=True)
class Playing:
    """The lesson playing on this run and its step (from 1)."""

    name: str
    lesson: Lesson
    number: int

    @property
    def step(self) -> Step:
        """The current step."""
        return self.lesson.steps[self.number - 1]


def folders() -> list:
    """Where ``?lesson=NAME`` is looked for, before the bundled lessons."""
    found = [state.session_dir(_UPLOADS)]
    if state.data_dir() is not None:
        found.append(state.data_dir())
    return found


def follow(current: str, pages: dict, datasets) -> Playing | None:
    """Play the URL's lesson step: open its view, or say what is wrong.

    Called by the router after ``st.navigation`` and before the page. On the
    first run of a step (a new link, Previous or Next), the step's view
    replaces the URL's choices (:func:`ui.links.open_view`) and, if the
    step is on another page, that page opens. A lesson that cannot be read,
    a step out of range and a dataset this server lacks are each an
    ``st.error``; the page then does not run (``st.stop``), so a student
    never sees another dataset in its place.

    Parameters
    ----------
    current : str
        The name (script) of the page of this run.
    pages : dict
        Page name -> its ``st.Page``.
    datasets : collection of str
        The names of the datasets this session can open (the sidebar's).
    """
    st.session_state[_FIGURES] = []
    name = st.query_params.get(PARAM)
    if not name:
        st.session_state.pop(_APPLIED, None)
        return None
    try:
        lesson = read_lesson(find_lesson(name, folders()), pages=list(pages))
    except ConfigError as err:
        _stop(f"This lesson cannot be played: {err}")
    number = _step_number(lesson)
    playing = Playing(name, lesson, number)
    missing = [d for d in lesson.datasets if d not in datasets]
    if missing:
        _stop(missing_message(lesson, missing))
    if st.session_state.get(_APPLIED) != (name, number):
        st.session_state[_APPLIED] = (name, number)
        links.open_view(pages[playing.step.page], list(playing.step.params), KEEP)
    return playing


def missing_message(lesson: Lesson, missing: list[str]) -> str:
    """What a student reads when this server lacks a lesson's dataset."""
    return (
        f'The lesson "{lesson.title}" uses the dataset(s) {", ".join(missing)}, '
        "which this server does not have, so it is not shown (nothing else is "
        "shown in its place). Ask whoever runs the server to put the dataset's "
        "folder (e.g. medical/ with medical.arff and medical.xml) in the folder "
        "named by MLFS_DATA_DIR and reload, or upload it on the Data page under "
        "the same name."
    )


def _stop(message: str) -> None:
    st.error(message, icon=":material/school:")
    st.stop()


def _step_number(lesson: Lesson) -> int:
    text = st.query_params.get(STEP, "1")
    count = len(lesson.steps)
    if not text.isdigit() or not 1 <= int(text) <= count:
        _stop(f"This lesson has steps 1 to {count}; the link asks for step {text!r}.")
    return int(text)


def _go(number: int) -> None:
    st.query_params[STEP] = str(number)


def panel(playing: Playing) -> None:
    """The step's note, question, counter and Previous / Next, above the page."""
    lesson, number, count = playing.lesson, playing.number, len(playing.lesson.steps)
    with st.container(border=True, key="lesson_panel"):
        left, prev_col, next_col = st.columns([5, 1, 1], vertical_alignment="center")
        left.markdown(f"**{lesson.title}** · step {number} of {count}")
        prev_col.button(
            "Previous", key="lesson_prev", disabled=number == 1, width="stretch",
            on_click=_go, args=(number - 1,), icon=":material/arrow_back:",
        )  # fmt: skip
        next_col.button(
            "Next", key="lesson_next", disabled=number == count, width="stretch",
            on_click=_go, args=(number + 1,), icon=":material/arrow_forward:",
            type="primary",
        )  # fmt: skip
        st.markdown(playing.step.note)
        if playing.step.question:
            st.info(f"**Question:** {playing.step.question}", icon=":material/help:")
        if number == 1 and lesson.about:
            st.caption(lesson.about)


def collect(fig: go.Figure) -> None:
    """Keep a figure a page drew on this run (for the lesson's slides)."""
    if st.query_params.get(PARAM):
        st.session_state.setdefault(_FIGURES, []).append(fig.to_json())


def slides(playing: Playing) -> None:
    """Download buttons for this step's and the lesson's slides (under the page)."""
    deck = st.session_state.setdefault(_DECK, {})
    drawn = st.session_state.get(_FIGURES) or []
    if drawn:
        deck[(playing.name, playing.number)] = list(drawn)
    figures = {
        n: [go.Figure(pio_json(j)) for j in deck.get((playing.name, n), [])]
        for n in range(1, len(playing.lesson.steps) + 1)
    }
    here = {playing.number: figures[playing.number]}
    seen = sorted(n for n, f in figures.items() if f)
    with st.expander(
        "Lesson slides: this step or the lesson", icon=":material/slideshow:"
    ):
        st.caption(
            "One HTML file that opens offline, or PNG images. The lesson's file "
            f"holds the figures of the steps shown so far: {seen or 'none'}."
        )
        cols = st.columns(4)
        stem = f"{playing.name}_step{playing.number}"
        cols[0].download_button(
            "This step (HTML)",
            lambda: slides_html(playing.lesson, here, [playing.number]),
            file_name=f"{stem}.html", mime="text/html", key="lesson_step_html",
            on_click="ignore",
        )  # fmt: skip
        cols[1].download_button(
            "The lesson (HTML)", lambda: slides_html(playing.lesson, figures),
            file_name=f"{playing.name}.html", mime="text/html",
            key="lesson_html", on_click="ignore",
        )  # fmt: skip
        from mlfs_core.plots import png_export_available

        browser = state.browser_path()
        if png_export_available(browser):
            cols[2].download_button(
                "This step (PNG, zip)",
                lambda: slides_png_zip(playing.lesson, here, browser=browser),
                file_name=f"{stem}_png.zip", mime="application/zip",
                key="lesson_step_png", on_click="ignore",
            )  # fmt: skip
            shown = {n: f for n, f in figures.items() if f}
            cols[3].download_button(
                "The lesson (PNG, zip)",
                lambda: slides_png_zip(playing.lesson, shown, browser=browser),
                file_name=f"{playing.name}_png.zip", mime="application/zip",
                key="lesson_png", on_click="ignore",
            )  # fmt: skip


def pio_json(text: str) -> dict:
    """A figure's JSON text as a dict for ``go.Figure``."""
    import json

    return json.loads(text)


def recorder(current: str, pages: list[str]) -> None:
    """The sidebar's "Record a lesson": add views, download the lesson file,
    or play a lesson file (uploaded into this workspace)."""
    with st.expander("Record a lesson", icon=":material/school:"):
        st.caption(
            "Open a view (page and choices), write what you will say and what "
            "you will ask, and add it; download the lesson when done. Its link "
            "?lesson=NAME plays it once the file is in MLFS_DATA_DIR or uploaded."
        )
        st.text_area("Teacher's note", key="lesson_note", height=80)
        st.text_input("Question for the class", key="lesson_question")
        st.button(
            "Add this view to my lesson",
            key="lesson_add",
            on_click=_record,
            args=(current,),
            icon=":material/add:",
        )
        problem = st.session_state.pop("_lesson_problem", None)
        if problem:
            st.error(problem)
        recorded = st.session_state.get(_RECORDED) or []
        if recorded:
            _download(recorded, pages)
        _upload(pages)


def _record(current: str) -> None:
    note = str(st.session_state.get("lesson_note") or "").strip()
    if not note:
        st.session_state["_lesson_problem"] = "Write the teacher's note first."
        return
    params = [
        (k, v)
        for k in st.query_params
        for v in st.query_params.get_all(k)
        if k not in KEEP
    ]
    view = links_view(current, params)
    question = str(st.session_state.get("lesson_question") or "").strip()
    st.session_state.setdefault(_RECORDED, []).append((view, note, question))
    st.session_state["lesson_note"] = ""
    st.session_state["lesson_question"] = ""


def links_view(page: str, params: list[tuple[str, str]]) -> str:
    """The view ``page?query`` of a page and its query parameters."""
    from mlfs_core.lessons import view_link

    return view_link(page, params)


def recorded_lesson(title: str, recorded: list, pages: list[str]) -> Lesson:
    """The recorded views as a checked :class:`~mlfs_core.lessons.Lesson`."""
    steps = [split_view(view) for view, _, _ in recorded]
    datasets = list(dict.fromkeys(dict(p).get("dataset") for _, p in steps))
    datasets = [d for d in datasets if d] or [state.SAMPLE_NAME]
    draft = Lesson(
        title or "My lesson",
        tuple(datasets),
        tuple(
            Step(page, params, note, question)
            for (page, params), (_, note, question) in zip(steps, recorded, strict=True)
        ),
    )
    return parse_lesson(lesson_text(draft), "the recorded lesson", pages)


def _download(recorded: list, pages: list[str]) -> None:
    st.markdown(
        "\n".join(
            f"{i}. `{view.split('?')[0]}`: {note[:60]}"
            for i, (view, note, _) in enumerate(recorded, 1)
        )
    )
    title = st.text_input("Lesson title", value="My lesson", key="lesson_title")
    try:
        lesson = recorded_lesson(title, recorded, pages)
    except ConfigError as err:
        st.error(str(err))
        return
    st.download_button(
        f"Download the lesson ({len(recorded)} steps)",
        data=lesson_text(lesson),
        file_name="my_lesson.toml",
        mime="application/toml",
        key="lesson_download",
        on_click="ignore",
        icon=":material/download:",
    )
    if st.button("Start over", key="lesson_clear"):
        st.session_state[_RECORDED] = []
        st.rerun()


def _upload(pages: list[str]) -> None:
    upload = st.file_uploader("Play a lesson file", type=["toml"], key="lesson_upload")
    if upload is None:
        return
    name = _plain(upload.name.rsplit(".", 1)[0])
    try:
        parse_lesson(upload.getvalue().decode("utf-8", "replace"), upload.name, pages)
    except ConfigError as err:
        st.error(str(err))
        return
    (state.session_dir(_UPLOADS) / f"{name}.toml").write_bytes(upload.getvalue())
    st.button(
        f"Play {name}", key="lesson_play", on_click=_start, args=(name,),
        icon=":material/play_arrow:",
    )  # fmt: skip


def _plain(stem: str) -> str:
    import re

    name = re.sub(r"[^a-z0-9_-]+", "_", stem.lower()).strip("_-")[:64]
    return name or "lesson"


def _start(name: str) -> None:
    st.query_params[PARAM] = name
    st.query_params[STEP] = "1"
