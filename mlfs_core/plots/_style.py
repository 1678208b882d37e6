"""Shared look of every figure: one template, one colour per method."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

TEMPLATE = "plotly_white"
PALETTE = px.colors.qualitative.Plotly + px.colors.qualitative.Dark24
LEGEND = {
    "title": {"text": ""},
    "orientation": "h",
    "yref": "container",
    "y": 0.0,
    "yanchor": "bottom",
    "x": 0.0,
    "tracegroupgap": 0,
}
"""Legend under the plot (the margin grows to hold it), all entries visible."""
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


def method_colors(methods: Sequence[str]) -> dict[str, str]:
    """Map each method name to a colour, stable for a given order of names.

    Parameters
    ----------
    methods : sequence of str
        Method names in display order.

    Returns
    -------
    dict
        ``{method: colour}``; colours repeat after ``len(PALETTE)`` methods.
    """
    return {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(dict.fromkeys(methods))}


def finish(fig: go.Figure, *, title: str, height: int | None = None) -> go.Figure:
    """Apply the common template, title and margins to ``fig`` and return it.

    The legend runs horizontally under the plot, without gaps between legend
    groups, so 10-12 methods all show (a vertical legend beside a short plot
    hides the last entries behind a scrollbar).
    """
    fig.update_layout(
        template=TEMPLATE,
        title={"text": title, "x": 0.0, "xanchor": "left"},
        margin={"l": 60, "r": 20, "t": 70, "b": 50},
        legend=LEGEND,
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
    colors: dict[str, str],
    mode: str = "lines",
    show_legend: bool = True,
) -> list[go.Scatter]:
    """One line trace per method of the long-form ``df``, in order of appearance."""
    return [
        go.Scatter(
            x=part[x],
            y=part[y],
            mode=mode,
            name=str(name),
            legendgroup=str(name),
            line={"color": colors[str(name)]},
            showlegend=show_legend,
        )
        for name, part in df.groupby(method, sort=False)
    ]
