"""The figures of the RF-ML Learn page: one reference's neighbours, the weights' shift.

Both take the tables of :func:`mlfs_core.explain.relief_steps`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from ..explain.labels import feature_labels
from ._style import GREY, OKABE_ITO, empty_figure, finish

_NEIGHBOUR_COLOUR = OKABE_ITO[3]  # vermillion
_BEFORE_COLOUR, _AFTER_COLOUR = OKABE_ITO[5], OKABE_ITO[0]  # sky blue, blue
_FEATURE_AXIS = "feature distance (Manhattan, scaled features)"
_LABEL_AXIS = "label distance (Hamming / q)"
_WEIGHT_AXIS = "RF-ML weight"


def neighbour_scatter(
    points: pd.DataFrame,
    *,
    title: str = "The reference's nearest neighbours",
) -> go.Figure:
    """Every other instance by its feature and label distance to the reference.

    Two traces: the other instances (grey) and the k nearest neighbours
    (vermillion). ``points`` is :attr:`mlfs_core.explain.ReliefSteps.points`.
    """
    if points.empty:
        return empty_figure(title)
    fig = go.Figure()
    for is_neighbour, name, colour, size in (
        (False, "other instances", GREY, 7),
        (True, "k nearest neighbours", _NEIGHBOUR_COLOUR, 12),
    ):
        part = points[points["neighbour"] == is_neighbour]
        fig.add_trace(
            go.Scatter(
                x=part["feature_distance"],
                y=part["label_distance"],
                mode="markers",
                name=name,
                text=[f"instance {i}" for i in part["instance"]],
                marker={"color": colour, "size": size, "opacity": 0.8},
                hovertemplate="%{text}: feature distance %{x:.4g}, "
                "label distance %{y:.3g}<extra></extra>",
            )
        )
    fig.update_xaxes(title_text=_FEATURE_AXIS, rangemode="tozero")
    fig.update_yaxes(title_text=_LABEL_AXIS, range=[-0.05, 1.05])
    return finish(fig, title=title, height=420)


def weight_shift_figure(
    weights: pd.DataFrame,
    *,
    feature_names: Sequence[str],
    top: int = 12,
    title: str = "How this instance moves the weights of the top features",
) -> go.Figure:
    """Each top feature's weight without this reference and with it.

    Three traces: the connecting segments, the weights from every other
    reference ("without this instance") and from all of them ("with this
    instance"), one row per feature, the best first. ``weights`` is
    :attr:`mlfs_core.explain.ReliefSteps.weights` (sorted by weight after).
    """
    shown = weights.head(int(top))
    if shown.empty:
        return empty_figure(title)
    names = feature_labels(feature_names, shown["feature"])
    xs, ys = [], []
    for name, before, after in zip(names, shown["before"], shown["after"], strict=True):
        xs += [before, after, None]
        ys += [name, name, None]
    fig = go.Figure(
        go.Scatter(
            x=xs,
            y=ys,
            mode="lines",
            line={"color": GREY, "width": 3},
            showlegend=False,
            hoverinfo="skip",
        )
    )
    for column, name, colour, symbol in (
        ("before", "without this instance", _BEFORE_COLOUR, "circle-open"),
        ("after", "with this instance", _AFTER_COLOUR, "circle"),
    ):
        fig.add_trace(
            go.Scatter(
                x=shown[column],
                y=names,
                mode="markers",
                name=name,
                marker={
                    "color": colour,
                    "size": 13,
                    "symbol": symbol,
                    "line": {"width": 2, "color": colour},
                },  # fmt: skip
                hovertemplate="%{y}: %{x:.4g}<extra>" + name + "</extra>",
            )
        )
    fig.update_yaxes(type="category", autorange="reversed")
    fig.update_xaxes(title_text=_WEIGHT_AXIS, zeroline=True)
    return finish(fig, title=title, height=max(340, 34 * len(names) + 180))
