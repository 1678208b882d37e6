"""Critical-difference diagram (Demsar 2006), drawn with rank 1 on the left."""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from ._style import empty_figure, finish


def _cliques(ranks: pd.Series, cd: float) -> list[tuple[float, float]]:
    """Maximal runs of sorted methods whose rank span is below ``cd`` (the bars)."""
    values = ranks.sort_values().to_list()
    spans: list[tuple[float, float]] = []
    for i, start in enumerate(values):
        j = i
        while j + 1 < len(values) and values[j + 1] - start < cd:
            j += 1
        if j > i and not any(a <= start and values[j] <= b for a, b in spans):
            spans.append((start, values[j]))
    return spans


def _label_positions(n: int) -> list[float]:
    return [-(1 + i) for i in range(n)]


def cd_diagram(
    ranks: pd.Series,
    cd: float | None,
    *,
    title: str = "Critical difference diagram",
) -> go.Figure:
    """Critical-difference diagram of average ranks; rank 1 (best) is on the left.

    Methods are marked on a rank axis from 1 to the number of methods. Thick
    bars join groups of methods whose average ranks differ by less than the
    critical difference ``cd`` (not significantly different); a bar of length
    ``cd`` is drawn above the axis.

    Parameters
    ----------
    ranks : Series
        Average rank per method (index = method names, 1 = best).
    cd : float or None
        Nemenyi critical difference; ``None`` or a non-finite value draws no
        groups and no CD bar.
    title : str
        Figure title; "(rank 1 = best, on the left)" is appended.

    Returns
    -------
    plotly.graph_objects.Figure
        The x axis runs from 1 on the left to ``len(ranks)`` on the right.

    References
    ----------
    J. Demsar, "Statistical comparisons of classifiers over multiple data
    sets", JMLR 7 (2006) 1-30.

    Examples
    --------
    >>> fig = cd_diagram(pd.Series({"A": 1.2, "B": 2.1, "C": 2.7}), cd=1.0)
    >>> fig.layout.xaxis.range[0] < fig.layout.xaxis.range[1]
    True
    """
    full_title = f"{title} (rank 1 = best, on the left)"
    ranks = ranks.dropna().astype(float).sort_values()
    if ranks.empty:
        return empty_figure(full_title)
    n = max(len(ranks), 2)
    fig = go.Figure()
    _draw_methods(fig, ranks)
    if cd is not None and math.isfinite(cd) and cd > 0:
        _draw_cliques(fig, ranks, cd)
        _draw_cd_bar(fig, cd, n)
    fig.update_xaxes(
        range=[0.5, n + 0.5],
        dtick=1,
        side="top",
        title_text="Average rank",
        showgrid=False,
        zeroline=False,
    )
    fig.update_yaxes(visible=False, range=[-(len(ranks) + 1), 1.6])
    fig = finish(fig, title=full_title, height=190 + 34 * len(ranks))
    fig.update_layout(showlegend=False, margin={"t": 120})
    return fig


def _draw_methods(fig: go.Figure, ranks: pd.Series) -> None:
    ys = _label_positions(len(ranks))
    for (name, r), y in zip(ranks.items(), ys, strict=True):
        fig.add_trace(
            go.Scatter(
                x=[r, r, 0.55],
                y=[0, y, y],
                mode="lines",
                line={"color": "#555"},
                hoverinfo="skip",
            )
        )
        fig.add_annotation(
            x=0.55,
            y=y,
            text=f"{name} ({r:.2f})",
            showarrow=False,
            xanchor="left",
            yanchor="bottom",
            font={"size": 12},
        )
    fig.add_trace(
        go.Scatter(
            x=ranks.to_numpy(),
            y=[0.0] * len(ranks),
            mode="markers",
            marker={"size": 9, "color": "#1f4e79"},
            text=list(ranks.index),
            hovertemplate="%{text}: %{x:.2f}<extra></extra>",
        )
    )


def _draw_cliques(fig: go.Figure, ranks: pd.Series, cd: float) -> None:
    for i, (lo, hi) in enumerate(_cliques(ranks, cd)):
        y = -0.35 - 0.2 * i
        fig.add_trace(
            go.Scatter(
                x=[lo - 0.03, hi + 0.03],
                y=[y, y],
                mode="lines",
                line={"color": "#d62728", "width": 5},
                hoverinfo="skip",
            )
        )


def _draw_cd_bar(fig: go.Figure, cd: float, n: int) -> None:
    start = 1.0
    end = min(start + cd, n + 0.5)
    fig.add_trace(
        go.Scatter(
            x=[start, end],
            y=[1.0, 1.0],
            mode="lines+markers",
            line={"color": "black", "width": 2},
            marker={"symbol": "line-ns-open"},
            hoverinfo="skip",
        )
    )
    fig.add_annotation(
        x=(start + end) / 2,
        y=1.0,
        text=f"CD = {cd:.2f}",
        showarrow=False,
        yanchor="bottom",
    )
