"""Presentation mode, and rows of panels kept apart.

:func:`for_projector` restyles a figure of this package for a projector: a
pure function of the figure, applied by the app at its boundary.
"""

from __future__ import annotations

import plotly.graph_objects as go

from ..explain.labels import distinct_labels
from ._style import INK, LEGEND, SCREEN_FONT_PX, TITLE_PX, top_margin

_PRESENT_FONT_PX = 18
PRESENT_TICK_PX = 16
"""Text sizes in presentation mode: axis titles, legend and panel titles at
18 px, tick labels and cell numbers at 16 px (a projector's 1280 x 720 shown
on a wall, read from the back of a room)."""
PRESENT_TICK_CHARS = 14
"""Longest upright column tick of a heatmap in presentation mode: longer
feature names are cut in the middle (the full name stays in the hover), so
the ticks leave the heatmap its rows (on emotions 40-character names left a
64-pixel plot area under 470 pixels)."""
PRESENT_GAP_PX = 120
"""Gap kept between two rows of panels in presentation mode (on screen:
:data:`._style.SCREEN_GAP_PX`)."""


def _font_at_least(font, px: int, *, ink: bool = True) -> dict:
    """A font dict (or plotly object) with its size raised to ``px`` and ink colour."""
    if hasattr(font, "to_plotly_json"):
        font = font.to_plotly_json()
    font = dict(font or {})
    size = font.get("size")
    font["size"] = px if size is None or size < px else size
    if ink:
        font["color"] = INK
    return font


def _rows(fig: go.Figure) -> list[tuple[float, float]]:
    """The distinct y domains of a figure's axes, top row first."""
    domains = {
        tuple(axis["domain"])
        for name, axis in fig.layout.to_plotly_json().items()
        if name.startswith("yaxis") and axis.get("domain") is not None
    }
    return sorted(domains, key=lambda d: -d[1])


def space_rows(fig: go.Figure, height: float, gap_px: float) -> None:
    """Move rows of panels apart so ``gap_px`` pixels separate each row from
    the next (the upper row's ticks and axis title, the lower row's title);
    the panel titles (annotations above a domain's top) move with their row."""
    layout = fig.layout
    rows = _rows(fig)
    if len(rows) < 2:
        return
    margin = (layout.margin.t or 0) + (layout.margin.b or 0)
    plot_px = max(height - margin, 1.0)
    gap = min(gap_px / plot_px, 0.6 / (len(rows) - 1))
    span = (1.0 - gap * (len(rows) - 1)) / len(rows)
    new = {}
    for i, old in enumerate(rows):
        top = 1.0 - i * (span + gap)
        new[old] = (round(max(top - span, 0.0), 6), round(top, 6))
    for name in list(layout.to_plotly_json()):
        if name.startswith("yaxis"):
            axis = layout[name]
            if axis.domain is not None and tuple(axis.domain) in new:
                axis.domain = new[tuple(axis.domain)]
    tops = {round(old[1], 6): new[old][1] for old in rows}
    for note in layout.annotations:
        if note.yref == "paper" and note.yanchor == "bottom" and note.y is not None:
            moved = tops.get(round(note.y, 6))
            if moved is not None:
                note.y = moved


def for_projector(fig: go.Figure, *, height: int | None = None) -> go.Figure:
    """Restyle ``fig`` (in place) for presentation mode and return it.

    Every text of the figure at least :data:`PRESENT_TICK_PX` pixels (tick
    labels, heatmap cell numbers) or 18 (``_PRESENT_FONT_PX``: axis titles,
    legend, panel titles and other annotations), in :data:`INK`; the legend
    stays at the top, under a title given room for its larger font; rows of
    panels are moved :data:`PRESENT_GAP_PX` apart, so no axis title touches
    the next panel's title. A pure function of the figure: the app applies
    it at its boundary, the figure functions do not know about it.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        A figure of this package (:func:`finish` applied).
    height : int, optional
        The figure's height in pixels; a figure with one row of panels is
        set to it (so it fits a 720-pixel screen under the page title).

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself.

    Examples
    --------
    >>> from mlfs_core.plots._style import finish
    >>> fig = for_projector(finish(go.Figure(go.Scatter(x=[1], y=[2])), title="t"))
    >>> fig.layout.xaxis.tickfont.size, fig.layout.font.color
    (16, '#1a1a1a')
    """
    rows = _rows(fig)
    if height is not None and len(rows) <= 1:
        fig.update_layout(height=height)
    _short_heatmap_ticks(fig)
    total = float(fig.layout.height or 450)
    _present_layout(fig, total)
    _present_margins(fig)
    _present_texts(fig)
    space_rows(fig, total, PRESENT_GAP_PX)
    return fig


def _short_heatmap_ticks(fig: go.Figure) -> None:
    """Cut a one-heatmap figure's long column ticks to
    :data:`PRESENT_TICK_CHARS` (``tickvals`` keep the data's own categories,
    so markers on the same columns stay put; the hover keeps the full name).

    Upright ticks of 40 characters at 16 px took 330 of a main chart's 470
    pixels; cut, they leave its label rows room (about 28 px each for the 6
    labels of emotions), and the chart still ends above the fold.
    """
    heatmaps = [t for t in fig.data if t.type == "heatmap" and t.x is not None]
    if len(heatmaps) != 1:
        return
    columns = [str(x) for x in heatmaps[0].x]
    short = distinct_labels(columns, limit=PRESENT_TICK_CHARS)
    if short != columns:
        fig.update_xaxes(tickmode="array", tickvals=columns, ticktext=short)


def _present_layout(fig: go.Figure, total: float) -> None:
    """Fonts of the layout, the legend under a larger title, the axes' text."""
    title_px = _PRESENT_FONT_PX + 10
    top = top_margin(fig, _PRESENT_FONT_PX, TITLE_PX + 10)
    fig.update_layout(
        font={"size": _PRESENT_FONT_PX, "color": INK},
        title_font={"size": _PRESENT_FONT_PX + 4, "color": INK},
        legend={
            **LEGEND,
            "y": 1.0 - (title_px + 24) / total,
            "font": {"size": _PRESENT_FONT_PX, "color": INK},
        },
        margin={"t": top},
        hoverlabel={"font": {"size": PRESENT_TICK_PX}},
    )
    for update in (fig.update_xaxes, fig.update_yaxes):
        update(
            tickfont={"size": PRESENT_TICK_PX, "color": INK},
            title_font={"size": _PRESENT_FONT_PX, "color": INK},
            gridcolor="#d9d9d9",
        )


def _present_margins(fig: go.Figure) -> None:
    """Side margins sized for labels (a CD diagram's method names) grow with them."""
    smallest = min(
        (a.font.size or SCREEN_FONT_PX for a in fig.layout.annotations),
        default=SCREEN_FONT_PX,
    )
    grow = max(_PRESENT_FONT_PX / smallest, 1.0)
    fig.update_layout(
        margin_l=int((fig.layout.margin.l or 60) * grow),
        margin_r=int((fig.layout.margin.r or 20) * grow),
    )


def _present_texts(fig: go.Figure) -> None:
    """Annotations, trace texts and colour bars at the presentation sizes."""
    for note in fig.layout.annotations:
        note.font = _font_at_least(note.font, _PRESENT_FONT_PX)
    for trace in fig.data:
        if "textfont" in trace and trace.type in ("heatmap", "bar", "scatter"):
            if trace.type == "heatmap" or trace.text is not None:
                # no colour: a heatmap's numbers keep their contrast to the cell
                trace.textfont = _font_at_least(
                    trace.textfont, PRESENT_TICK_PX, ink=trace.type != "heatmap"
                )
        if trace.type == "heatmap" and trace.colorbar is not None:
            trace.colorbar.tickfont = {"size": PRESENT_TICK_PX, "color": INK}
            trace.colorbar.title.font = {"size": _PRESENT_FONT_PX, "color": INK}
