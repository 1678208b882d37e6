"""Highlighting methods in a drawn figure: the others grey, thin and behind.

:func:`highlight_figure` restyles a figure's dict (``fig.to_dict()``) as its
drawing function would have drawn it with a highlight, so a page can cache a
figure once and restyle it on each highlight change.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ._style import DIMMED_WIDTH, GREY, HIGHLIGHT_EXTRA_WIDTH, highlighted


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
