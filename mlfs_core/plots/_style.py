"""Shared look of every figure: one template, one colour and line style per method."""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

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
    """Map each method name to a colour, dash and marker, stable for an order of names.

    The first 7 methods get the 7 colours of :data:`OKABE_ITO` with solid
    lines; the next 7 the same colours dashed, and so on, so 12+ methods stay
    apart by colour *and* line style (a method never shares both with
    another among the first 28). Markers cycle through :data:`SYMBOLS`.

    Parameters
    ----------
    methods : sequence of str
        Method names in display order (repeats are ignored).

    Returns
    -------
    dict
        ``{method: {"color": ..., "dash": ..., "symbol": ...}}``.

    Examples
    --------
    >>> styles = method_styles([f"M{i}" for i in range(9)])
    >>> styles["M0"]["color"] == styles["M7"]["color"], styles["M7"]["dash"]
    (True, 'dash')
    """
    n = len(OKABE_ITO)
    return {
        m: {
            "color": OKABE_ITO[i % n],
            "dash": DASHES[(i // n) % len(DASHES)],
            "symbol": SYMBOLS[i % len(SYMBOLS)],
        }
        for i, m in enumerate(dict.fromkeys(methods))
    }


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
        margin={"l": 60, "r": 20, "t": TITLE_PX + 20, "b": 50},
        legend={**LEGEND, "y": 1.0 - TITLE_PX / total},
    )
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
