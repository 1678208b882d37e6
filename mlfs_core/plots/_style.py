"""Shared look of every figure: one template, one colour and line style per method
(:mod:`._look`), the screen's fonts and the legend; highlighting is
:mod:`._highlight`, presentation mode :mod:`._present`."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from ._look import built_in_looks, method_looks

_TEMPLATE = "plotly_white"
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
_TOL_MUTED = (
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
PALETTE = OKABE_ITO + _TOL_MUTED
GREY = "#BDBDBD"
"""Colour of the methods that are not highlighted."""
DIMMED_WIDTH = 1.0
_DIMMED_MARKER = 4
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
SCREEN_GAP_PX = 100
"""Gap kept between two rows of panels on screen: the upper panel's tick
labels and axis title, then the lower panel's title (:func:`._present.space_rows`)."""
_MAX_TICK_CHARS = 32


def short_label(text: str, limit: int = _MAX_TICK_CHARS) -> str:
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
            "marker": {
                "color": GREY,
                "size": _DIMMED_MARKER,
                "symbol": style["symbol"],
            },
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


def _drawing_order(names: Sequence[str], highlight: frozenset[str]) -> list[str]:
    """``names`` with the highlighted ones last, so they are drawn on top."""
    return [n for n in names if n not in highlight] + [
        n for n in names if n in highlight
    ]


_LEGEND_WIDTH_PX = 760
"""Width the legend is assumed to wrap at (a chart in the app's main column at
1280 pixels is about 820 wide): its rows are counted for this width."""


def legend_rows(
    fig: go.Figure, font_px: float, width_px: float = _LEGEND_WIDTH_PX
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
        template=_TEMPLATE,
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
        for name in _drawing_order(list(parts), highlight)
    ]
