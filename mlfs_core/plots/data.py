"""Figures that describe a dataset: label frequencies and label co-occurrence."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ._style import empty_figure, finish, short_label

_MAX_HEATMAP_LABELS = 40
_CROWDED_LABELS = 15
"""Above this many labels, ticks stand upright in a 10-pixel font (on screen)."""


def label_frequency_bar(
    frequencies: pd.DataFrame,
    *,
    label: str = "label",
    count: str = "count",
    title: str = "Label frequency",
    horizontal: bool = False,
) -> go.Figure:
    """Bar chart of how many samples carry each label.

    Parameters
    ----------
    frequencies : DataFrame
        One row per label with columns ``label`` (name) and ``count``
        (number of positive samples), in the order to draw.
    label, count : str
        Column names.
    title : str
        Figure title.
    horizontal : bool, default=False
        Bars drawn across, one row per label (the first at the top), in a
        figure as tall as its rows need (22 pixels each): for many labels
        in large text (presentation mode), which cannot stand side by side.

    Returns
    -------
    plotly.graph_objects.Figure
        One bar trace; every bar is named by its tick (names cut to 18
        characters), upright in a 10-pixel font above
        15 labels (``_CROWDED_LABELS``).

    Examples
    --------
    >>> df = pd.DataFrame({"label": ["a", "b"], "count": [3, 1]})
    >>> len(label_frequency_bar(df).data)
    1
    """
    if frequencies.empty:
        return empty_figure(title)
    names = [str(n) for n in frequencies[label]]
    ticks = {
        "type": "category",
        "tickmode": "array",
        "tickvals": names,
        "ticktext": [short_label(n, 18) for n in names],
    }
    if horizontal:
        fig = go.Figure(
            go.Bar(
                y=names,
                x=frequencies[count],
                orientation="h",
                marker_color="#4C78A8",
                hovertemplate="%{y}: %{x} samples<extra></extra>",
            )
        )
        fig.update_yaxes(title_text="Label", autorange="reversed", **ticks)
        fig.update_xaxes(title_text="Positive samples")
        return finish(fig, title=title, height=max(400, 22 * len(names) + 170))
    fig = go.Figure(
        go.Bar(
            x=names,
            y=frequencies[count],
            marker_color="#4C78A8",
            hovertemplate="%{x}: %{y} samples<extra></extra>",
        )
    )
    # every bar named: plotly's automatic ticks skip categories when they
    # crowd (medical's 45 labels: every other one); many labels stand
    # upright in a smaller font (presentation mode raises it again)
    crowded = len(names) > _CROWDED_LABELS
    fig.update_xaxes(
        title_text="Label",
        tickangle=-90 if crowded else None,
        tickfont={"size": 10} if crowded else {},
        **ticks,
    )
    fig.update_yaxes(title_text="Positive samples")
    return finish(fig, title=title)


def cooccurrence_heatmap(
    matrix: pd.DataFrame,
    *,
    title: str = "Label co-occurrence",
    max_labels: int = _MAX_HEATMAP_LABELS,
) -> go.Figure:
    """Heatmap of a square label x label matrix (e.g. co-occurrence counts).

    Parameters
    ----------
    matrix : DataFrame of shape (n_labels, n_labels)
        Index and columns are label names; cell (a, b) is the number of
        samples carrying both labels (the diagonal holds label counts).
    title : str
        Figure title.
    max_labels : int, default=40
        At most this many labels are drawn: the most frequent ones (largest
        diagonal, ties by label order), kept in label order; the title then
        says so. Keeps the figure at most about 1,000 px tall on datasets with
        hundreds of labels (bibtex 159, corel5k 374).

    Returns
    -------
    plotly.graph_objects.Figure
        One heatmap trace; the first label is drawn at the top.

    Examples
    --------
    >>> m = pd.DataFrame([[2, 1], [1, 3]], index=["a", "b"], columns=["a", "b"])
    >>> cooccurrence_heatmap(m).data[0].type
    'heatmap'
    """
    if matrix.empty:
        return empty_figure(title)
    if len(matrix) > max_labels:
        diagonal = pd.Series(np.diag(matrix.to_numpy()), index=range(len(matrix)))
        keep = sorted(
            diagonal.sort_values(ascending=False, kind="stable").index[:max_labels]
        )
        title = f"{title} (the {max_labels} most frequent of {len(matrix)} labels)"
        matrix = matrix.iloc[keep, keep]
    names = [str(c) for c in matrix.columns]
    fig = go.Figure(
        go.Heatmap(
            z=matrix.to_numpy(dtype=float),
            x=names,
            y=[str(i) for i in matrix.index],
            colorscale="Blues",
            colorbar={"title": {"text": "samples"}},
            hovertemplate="%{y} & %{x}: %{z}<extra></extra>",
        )
    )
    # many labels (bibtex: 40 of 159 in ~600 px at 1024 px width): upright
    # ticks in a smaller font, long names cut, so neighbours never overlap
    crowded = len(names) > _CROWDED_LABELS
    ticks = [short_label(n, 18) for n in names]
    font = {"size": 10} if crowded else {}
    fig.update_xaxes(
        type="category",
        tickangle=-90 if crowded else -45,
        tickvals=names,
        ticktext=ticks,
        tickfont=font,
    )
    fig.update_yaxes(
        type="category",
        autorange="reversed",
        tickvals=[str(i) for i in matrix.index],
        ticktext=[short_label(str(i), 18) for i in matrix.index],
        tickfont=font,
    )
    return finish(fig, title=title, height=max(400, 22 * len(names) + 170))
