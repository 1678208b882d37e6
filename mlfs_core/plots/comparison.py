"""Figures that compare methods across datasets: ranks, curves, similarity."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..analysis import all_features_references
from ..columns import BUDGET, DATASET, MEAN, METHOD
from ._highlight import highlight_traces
from ._present import space_rows
from ._style import (
    SCREEN_GAP_PX,
    empty_figure,
    finish,
    highlighted,
    method_styles,
    trace_style,
)


def _panels(df: pd.DataFrame, facet: str | None) -> list[tuple[str, pd.DataFrame]]:
    if facet is None or facet not in df.columns:
        return [("", df)]
    return [(str(name), part) for name, part in df.groupby(facet, sort=False)]


def _grid(titles: list[str], wrap: int, *, shared_y: bool) -> tuple[go.Figure, int]:
    cols = max(1, min(wrap, len(titles)))
    rows = -(-len(titles) // cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=titles if any(titles) else None,
        shared_yaxes=shared_y,
        horizontal_spacing=0.08,
        # a fraction of the whole height: keep the gaps ~100 px however many rows
        vertical_spacing=min(0.12, 0.3 / rows) if rows > 1 else 0.0,
    )
    return fig, cols


def average_rank_curves(
    ranks: pd.DataFrame,
    *,
    x: str = BUDGET,
    rank: str = MEAN,
    method: str = METHOD,
    facet: str | None = None,
    x_title: str = "Selected features (%)",
    title: str = "Average rank vs number of selected features",
    highlight: str | Sequence[str] | None = None,
    wrap: int = 2,
) -> go.Figure:
    """Average rank of each method against the budget.

    The chart of Spolaôr and Tsoumakas (2013), Figure 1.

    Parameters
    ----------
    ranks : DataFrame
        Long form, one row per (panel, method, budget), with columns ``x``
        (budget), ``rank`` (average rank, 1 = best) and ``method``.
    x, rank, method : str
        Column names.
    facet : str, optional
        Column whose values become side-by-side panels (e.g. the measure, so
        that the methods of each measure are ranked among themselves).
    x_title, title : str
        Axis and figure titles.
    highlight : str or sequence of str, optional
        Methods to pick out: every other method is drawn thin and grey.
    wrap : int, default=2
        Panels per row.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per method and panel, each method with its own colour, dash
        and marker (:func:`~mlfs_core.plots._style.method_styles`) and one
        legend at the top; the y axes read "lower is better".

    Examples
    --------
    >>> df = pd.DataFrame({"method": ["A", "B"], "budget": [10, 10],
    ...                    "mean": [1.0, 2.0]})
    >>> len(average_rank_curves(df).data)
    2
    """
    if ranks.empty:
        return empty_figure(title)
    styles = method_styles(ranks[method].astype(str).tolist())
    panels = _panels(ranks, facet)
    fig, cols = _grid([t for t, _ in panels], wrap=wrap, shared_y=True)
    traces, seen = [], set()
    for i, (_, part) in enumerate(panels):
        n = "" if i == 0 else str(i + 1)
        for name, line in part.groupby(method, sort=False):
            name = str(name)
            traces.append(
                {
                    "type": "scatter",
                    "x": line[x].to_numpy(),
                    "y": line[rank].to_numpy(),
                    "mode": "lines+markers",
                    "name": name,
                    "legendgroup": name,
                    "showlegend": name not in seen,  # one legend entry per method
                    "xaxis": f"x{n}",
                    "yaxis": f"y{n}",
                    **trace_style(name, styles, frozenset()),
                }
            )
            seen.add(name)
    fig.add_traces(highlight_traces(traces, highlighted(highlight)))
    fig.update_xaxes(title_text=x_title)
    fig.update_yaxes(title_text="Average rank (lower is better)", col=1)
    height = 420 * (-(-len(panels) // cols))
    fig = finish(fig, title=title, height=height)
    space_rows(fig, height, SCREEN_GAP_PX)  # no axis title on the next row's title
    return fig


def _band_dict(
    line: pd.DataFrame, x: str, lower: str, upper: str, color: str, name: str
) -> dict:
    """The filled spread band of one line, as a scatter trace's properties."""
    xs = line[x].to_numpy(dtype=float)
    up = line[upper].to_numpy(dtype=float)
    low = line[lower].to_numpy(dtype=float)
    return {
        "type": "scatter",
        "x": np.concatenate([xs, xs[::-1]]),
        "y": np.concatenate([up, low[::-1]]),
        "fill": "toself",
        "fillcolor": color,
        "opacity": 0.18,
        "line": {"width": 0},
        "hoverinfo": "skip",
        "showlegend": False,
        "legendgroup": name,
        "name": f"{name} spread",
    }


def metric_vs_budget(
    curves: pd.DataFrame,
    *,
    metric_label: str = "value",
    x: str = BUDGET,
    y: str = MEAN,
    lower: str | None = "lower",
    upper: str | None = "upper",
    method: str = METHOD,
    facet: str | None = DATASET,
    higher_is_better: bool | None = None,
    title: str | None = None,
    references: Sequence[str] | None = None,
    highlight: str | Sequence[str] | None = None,
    wrap: int = 2,
) -> go.Figure:
    """Metric against the number of selected features, one panel per dataset.

    Parameters
    ----------
    curves : DataFrame
        Long form, one row per (panel, method, budget), with columns ``x``,
        ``y`` (the mean) and optionally ``lower``/``upper`` (the spread band,
        e.g. mean minus/plus one std over folds).
    metric_label : str
        Name of the metric, used in the axis title.
    x, y, lower, upper, method, facet : str or None
        Column names; a missing ``lower``/``upper`` column draws no band and a
        missing ``facet`` column draws a single panel.
    higher_is_better : bool, optional
        Adds "(higher is better)" or "(lower is better)" to the y axis title.
    title : str, optional
        Figure title; defaults to "<metric> vs number of selected features".
    references : sequence of str, optional
        Baselines drawn as horizontal reference lines across the budgets of
        the other methods (their mean over their own budgets: all features
        has one point at 100 %); default: the registered all-features
        baselines (:func:`~mlfs_core.analysis.all_features_references`).
        So they neither vanish as one point nor stretch the x axis; the x
        axis covers the budgets of the other methods (or the references'
        own when they are alone).
    highlight : str or sequence of str, optional
        Methods to pick out: every other method is drawn thin and grey,
        without its band.
    wrap : int, default=2
        Panels per row.

    Returns
    -------
    plotly.graph_objects.Figure
        Per panel: one line per method (own colour, dash and marker) plus one
        filled band per method when the spread columns are present, and one
        legend at the top.

    Examples
    --------
    >>> df = pd.DataFrame({"method": ["A", "A"], "budget": [1, 2], "mean": [.5, .6],
    ...                    "lower": [.4, .5], "upper": [.6, .7]})
    >>> len(metric_vs_budget(df, metric_label="micro-F1").data)
    2
    """
    title = title or f"{metric_label} vs number of selected features"
    if curves.empty:
        return empty_figure(title)
    styles = method_styles(curves[method].astype(str).tolist())
    refs = {str(r) for r in all_features_references(references)}
    columns = {"x": x, "y": y, "lower": lower, "upper": upper}
    if not (lower in curves.columns and upper in curves.columns):
        columns["lower"] = columns["upper"] = None  # no band
    panels = _panels(curves, facet)
    fig, cols = _grid([t for t, _ in panels], wrap=wrap, shared_y=False)
    traces, seen = [], set()
    for i, (_, part) in enumerate(panels):
        # traces placed by axis name and added in one call: add_trace(row=, col=)
        # per trace cost seconds for 11 panels x 12 methods x (band + line)
        n = "" if i == 0 else str(i + 1)
        axes = {"xaxis": f"x{n}", "yaxis": f"y{n}"}
        lines = {str(n): g.sort_values(x) for n, g in part.groupby(method, sort=False)}
        others = [g[x] for n, g in lines.items() if n not in refs]
        span = pd.concat(others) if others else part[x]
        x_range = [float(span.min()), float(span.max())]
        for name, line in lines.items():
            if name in refs:
                line = _reference(line, columns, x_range)
            traces += _method_traces(
                name, line, name in refs, columns, styles, axes, name not in seen
            )
            seen.add(name)
    # drawn without a highlight, then restyled: highlight_figure does the same
    # to a cached figure's dict
    fig.add_traces(highlight_traces(traces, highlighted(highlight)))
    # x title under the bottom panel of each column only: it says the same everywhere
    for i in range(len(panels)):
        if i + cols >= len(panels):
            row, col = divmod(i, cols)
            fig.update_xaxes(
                title_text="Number of selected features", row=row + 1, col=col + 1
            )
    direction = {True: " (higher is better)", False: " (lower is better)"}
    y_title = metric_label + direction.get(higher_is_better, "")
    fig.update_yaxes(title_text=y_title, col=1)
    height = 380 * (-(-len(panels) // cols))
    fig = finish(fig, title=title, height=height)
    space_rows(fig, height, SCREEN_GAP_PX)  # no axis title on the next row's title
    return fig


def _method_traces(name, line, is_ref, columns, styles, axes, legend) -> list:
    """One method's traces in one panel: its spread band (if any) and its line
    (a reference method's long-dashed)."""
    x, y, lower, upper = (columns[c] for c in ("x", "y", "lower", "upper"))
    traces = []
    if lower is not None:
        band = _band_dict(line, x, lower, upper, styles[name]["color"], name)
        traces.append({**band, **axes})
    style = trace_style(name, styles, frozenset())
    if is_ref:
        style["line"] = {**style["line"], "dash": "longdash"}
    trace = {
        "type": "scatter",
        # arrays, not Series: plotly's dataframe layer costs more than the plot
        "x": line[x].to_numpy(dtype=float),
        "y": line[y].to_numpy(dtype=float),
        "mode": "lines" if is_ref or len(line) > 20 else "lines+markers",
        "name": f"{name} (reference)" if is_ref else name,
        "legendgroup": name,
        "showlegend": legend,  # one legend entry per method
        **axes,
        **style,
    }
    if is_ref:
        trace["hovertemplate"] = f"{name}, reference: %{{y:.4g}}<extra></extra>"
    traces.append(trace)
    return traces


def _reference(line: pd.DataFrame, columns: dict, x_range: list[float]) -> pd.DataFrame:
    """A baseline's rows as a flat line at its mean over ``x_range``'s two ends."""
    row = {columns["x"]: x_range, columns["y"]: [float(line[columns["y"]].mean())] * 2}
    for end in ("lower", "upper"):
        if columns[end] is not None:
            row[columns[end]] = [float(line[columns[end]].mean())] * 2
    return pd.DataFrame(row)


def similarity_heatmap(
    matrix: pd.DataFrame,
    *,
    title: str = "Kuncheva similarity of selected subsets",
    decimals: int = 2,
    scale_title: str = "KI",
) -> go.Figure:
    """Annotated heatmap of a square method x method similarity matrix.

    Parameters
    ----------
    matrix : DataFrame of shape (n_methods, n_methods)
        Index and columns are method names; values in [-1, 1] (Kuncheva
        index, 0 = chance overlap). Missing values are left blank.
    title : str
        Figure title.
    decimals : int
        Digits shown in each cell.
    scale_title : str, default="KI"
        Title of the colour bar (e.g. "ours - published" for a difference of
        two such matrices, which the same [-1, 1] scale shows).

    Returns
    -------
    plotly.graph_objects.Figure
        One heatmap trace with the colour scale fixed to [-1, 1].

    Examples
    --------
    >>> m = pd.DataFrame([[1.0, 0.2], [0.2, 1.0]], index=["A", "B"], columns=["A", "B"])
    >>> similarity_heatmap(m).data[0].zmin
    -1
    """
    if matrix.empty:
        return empty_figure(title)
    z = matrix.to_numpy(dtype=float)
    # fixed decimals, and no "-0.00" for a rounded tiny negative
    shown = [f"{v:.{decimals}f}" for v in np.round(z, decimals).ravel() + 0.0]
    text = np.where(np.isfinite(z), np.reshape(shown, z.shape), "")
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=[str(c) for c in matrix.columns],
            y=[str(i) for i in matrix.index],
            text=text,
            texttemplate="%{text}",
            zmin=-1,
            zmax=1,
            colorscale="RdBu",
            reversescale=True,
            colorbar={"title": {"text": scale_title}},
            hovertemplate="%{y} vs %{x}: %{z:.3f}<extra></extra>",
        )
    )
    # more than 6 methods: upright names (slanted ones overlap their
    # neighbours' boxes in a 1024-pixel-wide page at 14 px)
    fig.update_xaxes(type="category", tickangle=-90 if len(matrix.columns) > 6 else -45)
    fig.update_yaxes(type="category", autorange="reversed")
    return finish(fig, title=title, height=max(420, 40 * len(matrix) + 160))
