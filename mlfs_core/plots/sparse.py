"""Figures of the sparse-regression Learn page (from ``explain.sparse_steps``)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from ..explain.labels import feature_labels
from ._style import PALETTE, empty_figure, finish

_LABEL_CHARS = 18
"""Longest name part of a feature's legend entry: several entries share a
legend row even at a projector's font size, leaving the plot its height."""
_FEATURE_FIGURE_PX = 560
"""Height of the two figures with a line per feature (their legend is on top)."""


def objective_path_figure(
    objective: pd.DataFrame, *, method: str, upto: int | None = None
) -> go.Figure:
    """The objective at the start (iteration 0) and after each iteration."""
    title = f"{method}: the objective, iteration by iteration"
    if objective.empty:
        return empty_figure(title)
    fig = go.Figure(
        go.Scatter(
            x=objective["iteration"],
            y=objective["objective"],
            mode="lines+markers" if len(objective) <= 60 else "lines",
            name="objective",
            line={"color": PALETTE[0], "width": 3},
            hovertemplate="iteration %{x}: %{y:.6g}<extra></extra>",
        )
    )
    if upto is not None:
        fig.add_vline(x=upto, line_dash="dot", line_color=PALETTE[1])
    fig.update_xaxes(title_text="iteration (0 = start)")
    fig.update_yaxes(title_text="objective")
    return finish(fig, title=title, height=380)


def _feature_traces(
    fig: go.Figure, table: pd.DataFrame, x: str, y: str, names: Sequence[str], top
):
    labels = feature_labels(names, top, limit=_LABEL_CHARS)
    for i, (j, label) in enumerate(zip(top, labels, strict=True)):
        rows = table[table["feature"] == j]
        fig.add_trace(
            go.Scatter(
                x=rows[x],
                y=rows[y],
                mode="lines+markers",
                name=label,
                line={"color": PALETTE[i % len(PALETTE)], "width": 2.5},
                hovertemplate=f"{label}<br>{x} %{{x:.4g}}: {y} %{{y:.4g}}"
                "<extra></extra>",
            )
        )


def ranking_settles_figure(
    positions: pd.DataFrame, *, feature_names: Sequence[str], top: Sequence[int]
) -> go.Figure:
    """The position of each final top feature at each recorded iteration."""
    title = "The top features as the ranking settles"
    if positions.empty:
        return empty_figure(title)
    fig = go.Figure()
    _feature_traces(fig, positions, "iteration", "position", feature_names, top)
    fig.update_xaxes(title_text="iteration (0 = start)")
    fig.update_yaxes(title_text="position (1 = best)", autorange="reversed")
    return finish(fig, title=title, height=_FEATURE_FIGURE_PX)


def shrinkage_figure(
    shrinkage: pd.DataFrame,
    *,
    penalty: str,
    feature_names: Sequence[str],
    top: Sequence[int],
) -> go.Figure:
    """The row norm ``||W_i||`` of the top features for each penalty value."""
    title = f"Row norms of W shrink as {penalty} grows"
    if shrinkage.empty:
        return empty_figure(title)
    fig = go.Figure()
    _feature_traces(fig, shrinkage, "penalty", "norm", feature_names, top)
    fig.update_xaxes(title_text=f"{penalty} (log scale)", type="log")
    fig.update_yaxes(title_text="row norm ||W_i||")
    return finish(fig, title=title, height=_FEATURE_FIGURE_PX)
