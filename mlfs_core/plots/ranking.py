"""Figures of one ranking: top feature scores and planted-truth recovery."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from ..columns import METHOD
from ..explain.labels import feature_labels
from ._style import empty_figure, finish, method_lines, short_label


def feature_score_bar(
    ranking: pd.DataFrame,
    *,
    feature: str = "feature",
    score: str = "score",
    top: int = 20,
    title: str = "Top features",
) -> go.Figure:
    """Horizontal bar chart of the best ``top`` features, best at the top.

    Parameters
    ----------
    ranking : DataFrame
        One row per ranked feature, best first, with columns ``feature``
        (name) and ``score`` (higher is better).
    feature, score : str
        Column names.
    top : int
        How many of the first rows to draw.
    title : str
        Figure title.

    Returns
    -------
    plotly.graph_objects.Figure
        One bar trace with ``min(top, len(ranking))`` bars. Long feature
        names are cut to 32 characters on the axis (the hover shows them
        whole), so they do not squash the bars. When ``ranking`` has a
        ``feature_index`` column (:func:`mlfs_core.selectors.tables.ranking_frame`),
        each bar is labelled ``"#index name"``
        (:func:`mlfs_core.explain.feature_labels`): features with the same
        name, or names cut to the same text, keep a bar each.

    Examples
    --------
    >>> df = pd.DataFrame({"feature": ["w1", "w2", "w3"], "score": [3.0, 2.0, 1.0]})
    >>> len(feature_score_bar(df, top=2).data[0].y)
    2
    """
    head = ranking.head(top)
    if head.empty:
        return empty_figure(title)
    names = head[feature].astype(str).tolist()
    ticks = [short_label(n) for n in names]
    if "feature_index" in head.columns:
        index = head["feature_index"].astype(int).tolist()
        lookup = dict(zip(index, names, strict=True))
        names = feature_labels(lookup, index, limit=10_000)
        ticks = feature_labels(lookup, index)
    fig = go.Figure(
        go.Bar(
            x=head[score].astype(float),
            y=names,
            orientation="h",
            marker_color="#4C78A8",
            hovertemplate="%{y}: %{x:.4g}<extra></extra>",
        )
    )
    fig.update_yaxes(
        type="category",
        autorange="reversed",
        title_text="Feature",
        tickvals=names,
        ticktext=ticks,
    )
    fig.update_xaxes(title_text="Score (higher is better)")
    return finish(fig, title=title, height=max(350, 22 * len(head) + 140))


def precision_at_k_curve(
    curves: pd.DataFrame,
    *,
    k: str = "k",
    precision: str = "precision",
    method: str = METHOD,
    title: str = "Planted-truth recovery: precision@k",
) -> go.Figure:
    """Precision of the top-k features against the planted truth, one line per method.

    Parameters
    ----------
    curves : DataFrame
        Long form with columns ``method``, ``k`` and ``precision`` (in [0, 1]).
    k, precision, method : str
        Column names.
    title : str
        Figure title.

    Returns
    -------
    plotly.graph_objects.Figure
        One line trace per method; the y axis spans [0, 1].

    Examples
    --------
    >>> df = pd.DataFrame({"method": ["A", "A"], "k": [1, 2], "precision": [1.0, 0.5]})
    >>> len(precision_at_k_curve(df).data)
    1
    """
    if curves.empty:
        return empty_figure(title)
    fig = go.Figure()
    fig.add_traces(method_lines(curves, x=k, y=precision, method=method))
    fig.update_xaxes(title_text="k (number of top features)")
    fig.update_yaxes(title_text="Precision@k", range=[0, 1.05])
    return finish(fig, title=title)
