"""Shared look of every figure: one template, one colour and line style per method
(:mod:`._look`), and the fonts of the screen and of presentation mode."""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ._look import built_in_looks, method_looks

TEMPLATE = "plotly_white"
OKABE_ITO = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#000000",  # black
)
"""Okabe & Ito's colour-blind safe palette (Okabe and Ito, 2008, "Color Universal
Design"); its yellow is left out, it is too faint on white."""
TOL_MUTED = (
    "#332288",
    "#117733",
    "#44AA99",
    "#88CCEE",
    "#DDCC77",
    "#CC6677",
    "#AA4499",
    "#882255",
)
"""Paul Tol's "muted" qualitative scheme (colour-blind safe), for bars beyond 7."""
PALETTE = OKABE_ITO + TOL_MUTED
DASHES = ("solid", "dash", "dot", "dashdot")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "cross")
GREY = "#BDBDBD"
"""Colour of the methods that are not highlighted."""
DIMMED_WIDTH = 1.0
DIMMED_MARKER = 4
HIGHLIGHT_EXTRA_WIDTH = 1.5
"""Line width and marker size of a greyed method; extra width of a highlighted one."""
LEGEND = {
    "title": {"text": ""},
    "orientation": "h",
    "yref": "container",
    "y": 1.0,
    "yanchor": "top",
    "x": 0.0,
    "tracegroupgap": 0,
}
"""One legend at the top, under the title (the margin grows to hold it), all
entries visible however many panels follow."""
TITLE_PX = 44
"""Height kept for the title above the legend."""
INK = "#1a1a1a"
"""Colour of every text of a figure: near-black (plotly's default text is a
light slate, Streamlit's theme a light grey, both faint on a projector)."""
SCREEN_FONT_PX = 14
"""Text size of a figure on screen (ticks, legend, axis titles)."""
PRESENT_FONT_PX = 18
PRESENT_TICK_PX = 16
"""Text sizes in presentation mode: axis titles, legend and panel titles at
18 px, tick labels and cell numbers at 16 px (a projector's 1280 x 720 shown
on a wall, read from the back of a room)."""
SCREEN_GAP_PX = 100
PRESENT_GAP_PX = 120
"""Gap kept between two rows of panels, on screen and in presentation mode:
the upper panel's tick labels and axis title, then the lower panel's title."""
MAX_TICK_CHARS = 32


def short_label(text: str, limit: int = MAX_TICK_CHARS) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (long feature names).

    Examples
    --------
    >>> short_label("a" * 40, 10)
    'aaaaaaaaa…'
    >>> short_label("word")
    'word'
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def method_styles(methods: Sequence[str]) -> dict[str, dict[str, str]]:
    """Map each method name to its colour, dash and marker: one look per method.

    The look comes from the method's name, not from its place in the list
    (:func:`~mlfs_core.plots._look.method_looks`): a built-in method has its
    registry look on every page and in every download; another name (a
    plug-in, an uploaded results file's method) a stable look of its own,
    apart from the other methods of the figure.

    Parameters
    ----------
    methods : sequence of str
        Method names in display order (repeats are ignored).

    Returns
    -------
    dict
        ``{method: {"color": ..., "dash": ..., "symbol": ...}}``, the
        built-in methods first in registry order, then the others in the
        given order: the order of the legend (:func:`trace_style`).

    Examples
    --------
    >>> a = method_styles(["MaxCS", "AF"])["MaxCS"]
    >>> b = method_styles(["AF", "RaRBNS", "MaxCS"])["MaxCS"]
    >>> a == b, list(method_styles(["AF", "X", "MaxCS"]))
    (True, ['MaxCS', 'AF', 'X'])
    """
    looks = method_looks(methods)
    registry = {name: i for i, name in enumerate(built_in_looks())}
    ordered = sorted(looks, key=lambda m: registry.get(m, len(registry)))
    return {m: looks[m] for m in ordered}


def method_colors(methods: Sequence[str]) -> dict[str, str]:
    """Map each method name to its colour of :func:`method_styles`."""
    return {m: s["color"] for m, s in method_styles(methods).items()}


def highlighted(highlight: str | Sequence[str] | None) -> frozenset[str]:
    """The set of highlighted method names (empty: nothing is highlighted)."""
    if highlight is None:
        return frozenset()
    if isinstance(highlight, str):
        return frozenset([highlight])
    return frozenset(str(h) for h in highlight)


def trace_style(
    name: str,
    styles: dict[str, dict[str, str]],
    highlight: frozenset[str],
    *,
    width: float = 2.0,
) -> dict:
    """Scatter keyword arguments drawing method ``name``: its own style, or grey.

    With a non-empty ``highlight`` every other method turns thin and grey and
    drops its markers, so the highlighted lines stand out; they are also
    drawn wider.
    """
    style = styles[name]
    order = list(styles).index(name) + 1
    if highlight and name not in highlight:
        return {
            "line": {"color": GREY, "width": DIMMED_WIDTH, "dash": style["dash"]},
            "marker": {"color": GREY, "size": DIMMED_MARKER, "symbol": style["symbol"]},
            "opacity": 0.8,
            "legendrank": order,
        }
    return {
        "line": {
            "color": style["color"],
            "width": width + (HIGHLIGHT_EXTRA_WIDTH if highlight else 0.0),
            "dash": style["dash"],
        },
        "marker": {"color": style["color"], "size": 7, "symbol": style["symbol"]},
        "legendrank": order,
    }


def highlight_figure(figure: dict, highlight: str | Sequence[str] | None) -> dict:
    """A figure's dict with methods highlighted, as its drawing function would.

    For the dict (``fig.to_dict()``) of :func:`metric_vs_budget` or
    :func:`average_rank_curves` drawn without a highlight: every other
    method turns thin and grey and loses its spread band, the highlighted
    ones are drawn wider and last in their panel (on top), the legend keeps
    its order. A page can thus build its figure once, cache it, and restyle
    it on each highlight change (milliseconds, where drawing 11 panels of 12
    methods again takes about a second).

    Parameters
    ----------
    figure : dict
        ``{"data": [trace dicts], "layout": {...}}``; each trace names its
        method in ``legendgroup``, spread bands have ``fill="toself"``.
    highlight : str or sequence of str, optional
        The methods to pick out; None or empty returns the figure unchanged.

    Returns
    -------
    dict
        A new dict (``figure`` is not modified); its layout is shared.

    Examples
    --------
    >>> fig = {"data": [
    ...     {"name": "A", "legendgroup": "A", "x": [1, 2], "y": [0.5, 0.6],
    ...      "line": {"color": "#0072B2", "width": 2.0}},
    ...     {"name": "B", "legendgroup": "B", "x": [1, 2], "y": [0.4, 0.5],
    ...      "line": {"color": "#E69F00", "width": 2.0}}],
    ...     "layout": {}}
    >>> data = highlight_figure(fig, "A")["data"]
    >>> [(t["name"], t["line"]["color"]) for t in data]
    [('B', '#BDBDBD'), ('other methods', '#BDBDBD'), ('A', '#0072B2')]
    """
    picked = highlighted(highlight)
    if not picked:
        return figure
    return {**figure, "data": highlight_traces(figure.get("data", []), picked)}


def highlight_traces(traces: Sequence[dict], picked: frozenset[str]) -> list[dict]:
    """Trace dicts of one figure restyled for ``picked`` (see :func:`highlight_figure`).

    Within a panel (its ``xaxis``) every method left out of ``picked`` is
    drawn as part of one thin grey trace, lines only, its runs apart (a
    ``None`` between them) and each point's hover naming its method; the
    highlighted methods' traces follow it, on top. Drawing one grey trace
    instead of one per method (11 panels x 11 methods with markers) is what
    keeps a highlight change on a many-method figure quick in the browser.
    The greyed methods keep their legend entries, as empty grey traces
    placed first, in the legend's order.
    """
    if not picked:
        return list(traces)
    panels: dict[str, tuple[list[dict], list[dict]]] = {}
    legend = []
    for trace in traces:
        name = str(trace.get("legendgroup", trace.get("name", "")))
        chosen = name in picked
        grey, kept = panels.setdefault(str(trace.get("xaxis", "x")), ([], []))
        if trace.get("fill") == "toself":  # a spread band: only the picked keep it
            if chosen:
                kept.append(dict(trace))
        elif chosen:
            line = dict(trace.get("line", {}))
            line["width"] = line.get("width", 2.0) + HIGHLIGHT_EXTRA_WIDTH
            kept.append({**trace, "line": line})
        else:
            grey.append(trace)
            if trace.get("showlegend", True):
                legend.append(_legend_entry(trace))
    out = legend
    for grey, kept in panels.values():
        if grey:
            out.append(_grey_lines(grey))
        out.extend(kept)
    return out


def _legend_entry(trace: dict) -> dict:
    """An empty grey trace that keeps a greyed method's legend entry."""
    return {
        "type": trace.get("type", "scatter"),
        "x": [None],
        "y": [None],
        "mode": "lines",
        "name": trace.get("name"),
        "legendgroup": trace.get("legendgroup"),
        "legendrank": trace.get("legendrank"),
        "showlegend": True,
        "line": {**trace.get("line", {}), "color": GREY, "width": DIMMED_WIDTH},
        "opacity": 0.8,
        "hoverinfo": "skip",
        "xaxis": trace.get("xaxis", "x"),
        "yaxis": trace.get("yaxis", "y"),
    }


def _values(values) -> list:
    """A trace's 1-D data as a list, also from a dict's typed array.

    ``Figure.to_dict()`` holds numeric arrays as ``{"dtype", "bdata"}``
    (base64 of the raw bytes), the form plotly sends to the browser.
    """
    if isinstance(values, dict) and "bdata" in values:
        raw = base64.b64decode(values["bdata"])
        return np.frombuffer(raw, dtype=values["dtype"]).tolist()
    return np.asarray(values, dtype=object).tolist()


def _grey_lines(traces: list[dict]) -> dict:
    """The greyed lines of one panel as one trace, runs apart, hover by method."""
    xs: list = []
    ys: list = []
    names: list = []
    for trace in traces:
        x = _values(trace.get("x", []))
        xs += [*x, None]
        ys += [*_values(trace.get("y", [])), None]
        names += [str(trace.get("name", ""))] * (len(x) + 1)
    first = traces[0]
    return {
        "type": first.get("type", "scatter"),
        "x": xs,
        "y": ys,
        "text": names,
        "mode": "lines",
        "name": "other methods",
        "showlegend": False,
        "line": {"color": GREY, "width": DIMMED_WIDTH},
        "opacity": 0.8,
        "hovertemplate": "%{text}: %{y:.4g}<extra></extra>",
        "xaxis": first.get("xaxis", "x"),
        "yaxis": first.get("yaxis", "y"),
    }


def figure_from_dict(figure: dict) -> go.Figure:
    """A :class:`~plotly.graph_objects.Figure` of a dict this package made,
    without validating it again.

    Validation of a figure's dict costs about as much as drawing it (a
    quarter of a second for 264 traces); a dict from ``fig.to_dict()`` of
    one of these functions, restyled by :func:`highlight_figure`, holds
    only valid properties.
    """
    return go.Figure(figure, _validate=False)


def drawing_order(names: Sequence[str], highlight: frozenset[str]) -> list[str]:
    """``names`` with the highlighted ones last, so they are drawn on top."""
    return [n for n in names if n not in highlight] + [
        n for n in names if n in highlight
    ]


LEGEND_WIDTH_PX = 760
"""Width the legend is assumed to wrap at (a chart in the app's main column at
1280 pixels is about 820 wide): its rows are counted for this width."""


def legend_rows(
    fig: go.Figure, font_px: float, width_px: float = LEGEND_WIDTH_PX
) -> int:
    """How many rows the horizontal legend of ``fig`` takes (0 when it has none).

    Each entry is counted as its line sample (about 50 pixels with the gap)
    plus its name at about 0.55 ``font_px`` a character, wrapped at
    ``width_px``: an estimate that errs on the side of one row too many.
    """
    if fig.layout.showlegend is False:
        return 0
    names = [
        str(t.name)
        for t in fig.data
        if t.name is not None and t.showlegend is not False and t.type != "heatmap"
    ]
    if len(names) < 2 and not any(t.showlegend for t in fig.data):
        return 0
    rows, used = 1, 0.0
    for name in names:
        width = 50 + 0.55 * font_px * len(name)
        if used and used + width > width_px:
            rows, used = rows + 1, 0.0
        used += width
    return rows


def _has_panel_titles(fig: go.Figure) -> bool:
    return any(
        a.yref == "paper" and a.yanchor == "bottom" and (a.y or 0) >= 0.99
        for a in fig.layout.annotations
    )


def top_margin(fig: go.Figure, font_px: float, title_px: float = TITLE_PX) -> int:
    """Top margin (pixels) holding the title, every legend row and the first
    row's panel titles, so none of them sits on another."""
    legend = legend_rows(fig, font_px) * (font_px + 10)
    titles = font_px + 14 if _has_panel_titles(fig) else 0
    return int(title_px + legend + titles + 12)


def finish(fig: go.Figure, *, title: str, height: int | None = None) -> go.Figure:
    """Apply the common template, title, legend and margins to ``fig`` and return it.

    The legend runs horizontally at the top, under the title, without gaps
    between legend groups: one legend for all panels, visible before the
    first panel however tall the figure (a legend under 11 panels sits
    thousands of pixels down), and 10-12 methods all show (a vertical legend
    beside a short plot hides the last entries behind a scrollbar).
    """
    total = height if height is not None else 450
    fig.update_layout(
        template=TEMPLATE,
        title={
            "text": title,
            "x": 0.0,
            "xanchor": "left",
            "xref": "container",
            "yref": "container",
            "y": 1.0,
            "yanchor": "top",
            "pad": {"t": 12, "l": 12},
        },
        margin={"l": 60, "r": 20, "t": top_margin(fig, SCREEN_FONT_PX), "b": 50},
        legend={**LEGEND, "y": 1.0 - TITLE_PX / total},
        font={"size": SCREEN_FONT_PX, "color": INK},
    )
    fig.update_annotations(font_color=INK)
    if height is not None:
        fig.update_layout(height=height)
    return fig


def empty_figure(title: str, message: str = "No data to show") -> go.Figure:
    """A blank figure carrying ``message`` in its centre (for empty input)."""
    fig = go.Figure()
    fig.add_annotation(
        text=message, x=0.5, y=0.5, xref="paper", yref="paper", showarrow=False
    )
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    return finish(fig, title=title)


def method_lines(
    df: pd.DataFrame,
    *,
    x: str,
    y: str,
    method: str,
    colors: dict[str, str] | None = None,
    styles: dict[str, dict[str, str]] | None = None,
    mode: str = "lines",
    show_legend: bool = True,
    highlight: frozenset[str] = frozenset(),
) -> list[go.Scatter]:
    """One line trace per method of the long-form ``df``, highlighted ones last.

    ``styles`` (from :func:`method_styles`) sets each method's colour, dash and
    marker; without it ``colors`` sets the colours (solid lines), and without
    both the methods' order in ``df`` gives :func:`method_styles`.
    """
    parts = {str(name): part for name, part in df.groupby(method, sort=False)}
    if styles is None:
        styles = method_styles(list(parts))
        if colors is not None:
            for name, style in styles.items():
                style["color"], style["dash"] = colors[name], "solid"
    return [
        go.Scatter(
            x=parts[name][x],
            y=parts[name][y],
            mode=mode,
            name=name,
            legendgroup=name,
            showlegend=show_legend,
            **trace_style(name, styles, highlight),
        )
        for name in drawing_order(list(parts), highlight)
    ]


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
    labels, heatmap cell numbers) or :data:`PRESENT_FONT_PX` (axis titles,
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
    >>> fig = for_projector(finish(go.Figure(go.Scatter(x=[1], y=[2])), title="t"))
    >>> fig.layout.xaxis.tickfont.size, fig.layout.font.color
    (16, '#1a1a1a')
    """
    title_px = PRESENT_FONT_PX + 10
    rows = _rows(fig)
    if height is not None and len(rows) <= 1:
        fig.update_layout(height=height)
    total = float(fig.layout.height or 450)
    top = top_margin(fig, PRESENT_FONT_PX, TITLE_PX + 10)
    fig.update_layout(
        font={"size": PRESENT_FONT_PX, "color": INK},
        title_font={"size": PRESENT_FONT_PX + 4, "color": INK},
        legend={
            **LEGEND,
            "y": 1.0 - (title_px + 24) / total,
            "font": {"size": PRESENT_FONT_PX, "color": INK},
        },
        margin={"t": top},
        hoverlabel={"font": {"size": PRESENT_TICK_PX}},
    )
    fig.update_xaxes(
        tickfont={"size": PRESENT_TICK_PX, "color": INK},
        title_font={"size": PRESENT_FONT_PX, "color": INK},
        gridcolor="#d9d9d9",
    )
    fig.update_yaxes(
        tickfont={"size": PRESENT_TICK_PX, "color": INK},
        title_font={"size": PRESENT_FONT_PX, "color": INK},
        gridcolor="#d9d9d9",
    )
    # side margins sized for labels (a CD diagram's method names) grow with them
    smallest = min(
        (a.font.size or SCREEN_FONT_PX for a in fig.layout.annotations),
        default=SCREEN_FONT_PX,
    )
    grow = max(PRESENT_FONT_PX / smallest, 1.0)
    fig.update_layout(
        margin_l=int((fig.layout.margin.l or 60) * grow),
        margin_r=int((fig.layout.margin.r or 20) * grow),
    )
    for note in fig.layout.annotations:
        note.font = _font_at_least(note.font, PRESENT_FONT_PX)
    for trace in fig.data:
        if "textfont" in trace and trace.type in ("heatmap", "bar", "scatter"):
            if trace.type == "heatmap" or trace.text is not None:
                # no colour: a heatmap's numbers keep their contrast to the cell
                trace.textfont = _font_at_least(
                    trace.textfont, PRESENT_TICK_PX, ink=trace.type != "heatmap"
                )
        if trace.type == "heatmap" and trace.colorbar is not None:
            trace.colorbar.tickfont = {"size": PRESENT_TICK_PX, "color": INK}
            trace.colorbar.title.font = {"size": PRESENT_FONT_PX, "color": INK}
    space_rows(fig, total, PRESENT_GAP_PX)
    return fig
