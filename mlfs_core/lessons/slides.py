"""A lesson's steps as slides: one offline HTML file, or PNG images.

Each slide is a step's heading (lesson, step, dataset, page), its note, its
question and the figures its view drew. The HTML file embeds the figures
with plotly.js inlined once (no CDN: it opens offline, e.g. on a lecture
hall's computer); the PNGs are rendered by kaleido
(:func:`mlfs_core.plots.export.to_png_bytes`), each figure's title starting
with the dataset's name.
"""

from __future__ import annotations

import html
import io
import zipfile
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import plotly.graph_objects as go

if TYPE_CHECKING:  # annotations only: the package imports this module lazily
    from mlfs_core.lessons import Lesson, Step


def step_heading(lesson: Lesson, number: int) -> str:
    """``"Lesson title: step 2 of 5 (dataset medical, page score)"``."""
    step = lesson.steps[number - 1]
    where = ", ".join(
        p
        for p in (step.dataset and f"dataset {step.dataset}", f"page {step.page}")
        if p
    )
    return f"{lesson.title}: step {number} of {len(lesson.steps)} ({where})"


def titled(fig: go.Figure, step: Step) -> go.Figure:
    """A copy of ``fig`` whose title starts with the step's dataset.

    The page's figure titles name the method and the measure or metric; the
    dataset is only in the app's sidebar, so a slide adds it.
    """
    out = go.Figure(fig)
    title = out.layout.title.text or ""
    if step.dataset and step.dataset not in title:
        out.update_layout(
            title_text=f"{step.dataset}: {title}" if title else step.dataset
        )
    return out


def slides_html(
    lesson: Lesson,
    figures: Mapping[int, Sequence[go.Figure]],
    steps: Sequence[int] | None = None,
) -> str:
    """The lesson as one self-contained HTML page, a section per step.

    Parameters
    ----------
    lesson : Lesson
        The lesson.
    figures : mapping of int to sequence of plotly Figure
        Step number (from 1) -> the figures its view drew. A step without
        figures still gets its note and question, and a line saying its
        figures were not collected.
    steps : sequence of int, optional
        The step numbers to include (all when omitted).

    Returns
    -------
    str
        HTML with plotly.js inlined once (before the first figure), so it
        needs no network.
    """
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(lesson.title)}</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}"
        "section{page-break-after:always;margin-bottom:3em}"
        ".q{background:#eef4fb;padding:.6em;border-left:4px solid #1f77b4}</style>",
        "</head><body>",
        f"<h1>{html.escape(lesson.title)}</h1>",
    ]
    if lesson.about:
        parts.append(f"<p>{html.escape(lesson.about)}</p>")
    inlined = False
    for number, step in enumerate(lesson.steps, start=1):
        if steps is not None and number not in steps:
            continue
        parts.append(f"<section><h2>{html.escape(step_heading(lesson, number))}</h2>")
        parts.append(f"<p>{html.escape(step.note)}</p>")
        if step.question:
            parts.append(f"<p class='q'>Question: {html.escape(step.question)}</p>")
        drawn = figures.get(number) or ()
        if not drawn:
            parts.append("<p><em>This step's figures were not collected.</em></p>")
        for fig in drawn:
            parts.append(
                titled(fig, step).to_html(
                    full_html=False, include_plotlyjs=not inlined, validate=False
                )
            )
            inlined = True
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def slides_png_zip(
    lesson: Lesson,
    figures: Mapping[int, Sequence[go.Figure]],
    *,
    scale: float = 1.0,
    browser: str | None = None,
) -> bytes:
    """The figures of the lesson's steps as PNG files in one zip archive.

    Files are named ``step02_1.png`` (step 2, its first figure); each
    figure's title starts with the step's dataset (:func:`titled`).
    ``browser`` is the Chromium to drive (default: the first on ``PATH``;
    :func:`mlfs_core.plots.to_png_bytes`).

    Raises
    ------
    RuntimeError
        If kaleido or a Chromium browser is missing
        (:func:`mlfs_core.plots.export.png_export_available`).
    """
    from mlfs_core.plots.export import to_png_bytes

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for number, drawn in sorted(figures.items()):
            step = lesson.steps[number - 1]
            for index, fig in enumerate(drawn, start=1):
                png = to_png_bytes(
                    titled(fig, step),
                    width=1280,
                    height=720,
                    scale=scale,
                    browser=browser,
                )
                archive.writestr(f"step{number:02d}_{index}.png", png)
    return buffer.getvalue()
