"""Figures of the Learn pages: scores per label, aggregation turns, greedy terms."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..explain.labels import distinct_labels, feature_labels
from ..explain.notation import readable, term_role
from ._style import PALETTE, empty_figure, finish

_FEATURE_TICK = 40
"""Longest feature tick text (``"#1234 "`` and a name cut to 32 characters fit)."""
_LABEL_TICK = 24
"""Longest label-name tick text."""
MAX_LABEL_ROWS = 30
"""Most label rows a heatmap draws (bibtex has 159 labels: 4000 px of rows,
nearly all pale); beyond it the rows with the highest scores are drawn."""


def label_rows(
    matrix: pd.DataFrame, *, keep=(), limit: int = MAX_LABEL_ROWS
) -> np.ndarray:
    """Positions of the label rows a heatmap draws, in the matrix's order.

    Every row when there are at most ``limit``; else the rows in ``keep``
    (e.g. the labels whose turn it was) and then those with the highest
    score among the drawn features, ``limit`` in all.

    Examples
    --------
    >>> m = pd.DataFrame([[0.0], [5.0], [1.0], [9.0]])
    >>> label_rows(m, limit=2).tolist(), label_rows(m, keep=[0], limit=2).tolist()
    ([1, 3], [0, 3])
    """
    n = len(matrix)
    if n <= limit:
        return np.arange(n)
    chosen = [r for r in dict.fromkeys(int(k) for k in keep) if 0 <= r < n][:limit]
    best = np.nan_to_num(matrix.to_numpy(dtype=float), nan=-np.inf).max(axis=1)
    for r in np.argsort(-best, kind="stable"):
        if len(chosen) >= limit:
            break
        if int(r) not in chosen:
            chosen.append(int(r))
    return np.sort(np.asarray(chosen, dtype=np.intp))


_SCORE_COLORSCALE = "Viridis"
"""The colour scale of every per-label score heatmap (Score and Aggregation)."""


def score_scale(z: np.ndarray, zmax: float | None = None) -> dict:
    """The colour scale of a per-label score heatmap: one rule for every one.

    The colours are Viridis (``_SCORE_COLORSCALE``) from ``zmin`` = the smaller of 0
    and the lowest finite score drawn (chi-squared and BNS are never below
    0, so 0) to ``zmax``: the given one (the pages pass the measure's largest
    score on the dataset, so a score has one colour on every page), else the
    largest finite score drawn; ``zmax`` is ``zmin + 1`` when it would not be
    above ``zmin`` (no finite score, or all equal).

    Examples
    --------
    >>> score_scale(np.array([[1.0, 3.0]]))
    {'colorscale': 'Viridis', 'zmin': 0.0, 'zmax': 3.0}
    >>> score_scale(np.array([[1.0, 3.0]]), zmax=8.0)["zmax"]
    8.0
    """
    finite = z[np.isfinite(z)]
    low = min(0.0, float(finite.min())) if finite.size else 0.0
    high = (
        float(zmax)
        if zmax is not None
        else (float(finite.max()) if finite.size else low)
    )
    if not np.isfinite(high) or high <= low:
        high = low + 1.0
    return {"colorscale": _SCORE_COLORSCALE, "zmin": low, "zmax": high}


def _label_axis(shown: int, total: int) -> str:
    if shown == total:
        return "label"
    return f"label ({shown} of {total}: the highest scores)"


def label_score_heatmap(
    matrix: pd.DataFrame,
    *,
    title: str = "Score of each top feature for each label",
    zmax: float | None = None,
) -> go.Figure:
    """Heatmap of a label x feature score matrix (labels down, features across).

    Parameters
    ----------
    matrix : DataFrame of shape (n_labels, n_features)
        Index = label names, columns = feature labels (in the order to draw),
        e.g. :func:`mlfs_core.explain.top_feature_scores`'s ``"#12 name"``.
    title : str
        Figure title.
    zmax : float, optional
        The top of the colour scale (:func:`score_scale`).

    Returns
    -------
    plotly.graph_objects.Figure
        One heatmap with one column per feature and one row per label (at
        most :data:`MAX_LABEL_ROWS`, :func:`label_rows`, the axis title says
        how many of how many): tick texts are cut and made distinct
        (:func:`mlfs_core.explain.distinct_labels`), so plotly never merges
        two columns or rows.

    Examples
    --------
    >>> m = pd.DataFrame([[1.0, 2.0]], index=["l0"], columns=["a", "b"])
    >>> label_score_heatmap(m).data[0].type
    'heatmap'
    """
    if matrix.empty:
        return empty_figure(title)
    total = len(matrix)
    matrix = matrix.iloc[label_rows(matrix)]
    columns = distinct_labels(matrix.columns, limit=_FEATURE_TICK)
    z = matrix.to_numpy(dtype=float)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=columns,
            y=distinct_labels(matrix.index, limit=_LABEL_TICK),
            **score_scale(z, zmax),
            colorbar={"title": {"text": "score"}},
            hovertemplate="label %{y}, feature %{x}: %{z:.4g}<extra></extra>",
        )
    )
    fig.update_xaxes(type="category", tickangle=-90)
    fig.update_yaxes(
        type="category",
        autorange="reversed",
        dtick=1,
        title_text=_label_axis(len(matrix), total),
    )
    height = 24 * len(matrix) + 200 + _tick_room(columns)
    return finish(fig, title=title, height=max(320, height))


def _tick_room(texts) -> int:
    """Pixels the longest of ``texts`` takes as an upright (-90°) tick label.

    The heatmaps' height adds it, so long feature labels do not squash the
    rows (on emotions, 6 label rows were 8 px high and half their names hidden).
    """
    return 6 * max((len(str(t)) for t in texts), default=0)


def _turn_markers(done: pd.DataFrame, upto: int, columns, labels, place) -> list:
    """The markers of the turns taken before ``upto`` and of the current one."""
    traces = []
    for part, symbol, color, size, name in (
        (done[done["step"] < upto], "x", "#E45756", 10, "taken earlier"),
        (done[done["step"] == upto], "circle-open", "#F58518", 22, "this turn"),
    ):
        traces.append(
            go.Scatter(
                x=[columns[s - 1] for s in part["step"]],
                y=[labels[place[int(lab)]] for lab in part["label"]],
                mode="markers",
                marker={
                    "symbol": symbol,
                    "color": color,
                    "size": size,
                    "line": {"width": 3, "color": color},
                },
                name=name,
                hovertemplate="step %{text}<extra></extra>",
                text=part["step"].tolist(),
            )
        )
    return traces


def aggregation_turns_figure(
    matrix: pd.DataFrame,
    steps: pd.DataFrame,
    *,
    upto: int,
    title: str = "Whose turn it is, and which feature it takes",
    zmax: float | None = None,
) -> go.Figure:
    """Score heatmap of the selected features with each turn marked.

    Parameters
    ----------
    matrix : DataFrame of shape (n_labels, n_selected)
        Scores of the selected features (columns in selection order), index =
        label names.
    steps : DataFrame
        :func:`mlfs_core.explain.aggregation_steps` rows of those features,
        with ``step``, ``label`` (position in ``matrix.index``, -1 = none).
        The labels of the turns are always drawn; beyond
        :data:`MAX_LABEL_ROWS` labels, the others are those with the highest
        scores (:func:`label_rows`).
    upto : int
        Steps done so far; later columns are dimmed, the current turn is
        circled.
    zmax : float, optional
        The top of the colour scale (:func:`score_scale`, the rule and
        colours of :func:`label_score_heatmap`).

    Returns
    -------
    plotly.graph_objects.Figure
        A heatmap, the markers of past turns and one marker for the current turn.
    """
    if matrix.empty:
        return empty_figure(title)
    total = len(matrix)
    rows = label_rows(matrix, keep=steps.loc[steps["label"] >= 0, "label"])
    matrix = matrix.iloc[rows]
    place = {int(r): i for i, r in enumerate(rows)}
    columns = distinct_labels(matrix.columns, limit=_FEATURE_TICK)
    labels = distinct_labels(matrix.index, limit=_LABEL_TICK)
    z = matrix.to_numpy(dtype=float).copy()
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=columns,
            y=labels,
            **score_scale(z, zmax),
            colorbar={"title": {"text": "score"}},
            hovertemplate="label %{y}, feature %{x}: %{z:.4g}<extra></extra>",
        )
    )
    done = steps[(steps["step"] <= upto) & steps["label"].isin(list(place))]
    for trace in _turn_markers(done, upto, columns, labels, place):
        fig.add_trace(trace)
    if upto < len(columns):
        fig.add_vrect(
            x0=upto - 0.5,
            x1=len(columns) - 0.5,
            fillcolor="white",
            opacity=0.6,
            line_width=0,
        )
    fig.update_xaxes(
        type="category", tickangle=-90, title_text="selected features, in order"
    )
    fig.update_yaxes(
        type="category",
        autorange="reversed",
        title_text=_label_axis(len(rows), total),
        dtick=1,
    )
    height = 26 * len(labels) + 220 + _tick_room(columns)
    return finish(fig, title=title, height=max(340, height))


def draw_probability_bar(
    turns: pd.DataFrame,
    *,
    current: int | None = None,
    title: str = "Chance of each label's turn",
) -> go.Figure:
    """Bar chart of each label's chance of a turn (RaR's draw, RoR's 1/q).

    ``turns`` has columns ``label``, ``positives`` and ``probability``
    (:func:`mlfs_core.explain.label_turns`); the label whose turn it is now
    (position ``current``) is drawn in orange.
    """
    if turns.empty:
        return empty_figure(title)
    colors = ["#F58518" if i == current else "#4C78A8" for i in range(len(turns))]
    fig = go.Figure(
        go.Bar(
            x=distinct_labels(turns["label"], limit=_LABEL_TICK),
            y=turns["probability"],
            marker_color=colors,
            customdata=turns["positives"],
            hovertemplate="%{x}: p = %{y:.3f} (%{customdata} positives)<extra></extra>",
        )
    )
    fig.update_xaxes(type="category", title_text="label", tickangle=-90)
    fig.update_yaxes(title_text="probability of the turn", rangemode="tozero")
    return finish(fig, title=title, height=320)


def coverage_bars(
    coverage: pd.DataFrame, *, top: int, title: str | None = None
) -> go.Figure:
    """Grouped bars: per label, how many of its best ``top`` features each method took.

    ``coverage`` is :func:`mlfs_core.explain.label_coverage`'s long form
    (``method, label, covered``).
    """
    title = title or f"How many of each label's own top {top} features were selected"
    if coverage.empty:
        return empty_figure(title)
    fig = go.Figure()
    for i, (method, part) in enumerate(coverage.groupby("method", sort=False)):
        fig.add_trace(
            go.Bar(
                x=distinct_labels(part["label"], limit=_LABEL_TICK),
                y=part["covered"],
                name=str(method),
                marker_color=PALETTE[i % len(PALETTE)],
            )
        )
    fig.update_layout(barmode="group")
    fig.update_xaxes(type="category", title_text="label", tickangle=-90)
    fig.update_yaxes(title_text="selected among its best", rangemode="tozero")
    return finish(fig, title=title, height=380)


def greedy_terms_figure(
    candidates: pd.DataFrame,
    terms: Sequence[str],
    *,
    feature_names: Sequence[str],
    title: str = "Candidates at this step: the criterion split into its terms",
) -> go.Figure:
    """Stacked bars of each candidate's criterion terms, the total as a diamond.

    ``candidates`` are one step's rows of
    :attr:`mlfs_core.explain.GreedySteps.candidates` (the pick first). One
    row per candidate, labelled ``"#index name"``
    (:func:`mlfs_core.explain.feature_labels`, the pick starred), so
    candidates whose names share a long prefix keep their own rows; legends
    name each term by its role and its formula in readable notation
    (:func:`term_legend`).
    """
    if candidates.empty:
        return empty_figure(title)
    labels = feature_labels(feature_names, candidates["feature"])
    names = [
        ("★ " if picked else "") + label
        for label, picked in zip(labels, candidates["picked"], strict=True)
    ]
    fig = go.Figure()
    for i, term in enumerate(terms):
        legend = term_legend(term)
        fig.add_trace(
            go.Bar(
                x=candidates[term],
                y=names,
                orientation="h",
                name=legend,
                marker_color=PALETTE[i % len(PALETTE)],
                hovertemplate="%{y}: %{x:.4g}<extra>" + legend + "</extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=candidates["criterion"],
            y=names,
            mode="markers",
            name="J(f | S), the total",
            marker={"symbol": "diamond", "size": 12, "color": "black"},
            hovertemplate="%{y}: J = %{x:.4g}<extra></extra>",
        )
    )
    fig.update_layout(barmode="relative")
    fig.update_yaxes(type="category", autorange="reversed")
    fig.update_xaxes(title_text="bits", zeroline=True)
    return finish(fig, title=title, height=max(340, 34 * len(names) + 200))


def term_legend(term: str) -> str:
    """A greedy term's legend: its role, then its formula in readable notation.

    Examples
    --------
    >>> term_legend("- sum_{i<j} I(f; l_i; l_j)")
    'label interaction: − Σᵢ<ⱼ I(f; lᵢ; lⱼ)'
    >>> term_legend("relevance R(f) = sum_i I(f; l_i)")
    'relevance: R(f) = Σᵢ I(f; lᵢ)'
    """
    role, formula = term_role(term), readable(term)
    if role is None:
        return formula
    # the words before the formula ("transformed relevance I(...)") say the role
    return f"{role}: {re.sub(r'^(?:[a-z][a-z-]*[ ])+', '', formula)}"


def criterion_path_figure(
    path: pd.DataFrame,
    *,
    feature_names: Sequence[str],
    upto: int | None = None,
    title: str = "The criterion of each pick, step by step",
) -> go.Figure:
    """Line of J(f | S) of each step's pick (``path`` of ``greedy_steps``)."""
    if path.empty:
        return empty_figure(title)
    names = feature_labels(feature_names, path["feature"], limit=48)
    fig = go.Figure(
        go.Scatter(
            x=path["step"],
            y=path["criterion"],
            mode="lines+markers",
            text=names,
            name="J of the pick",
            line={"color": "#4C78A8"},
            hovertemplate="step %{x}: %{text}, J = %{y:.4g}<extra></extra>",
        )
    )
    if upto is not None:
        fig.add_vline(x=upto, line_dash="dot", line_color="#F58518")
    fig.update_xaxes(title_text="step", dtick=1)
    fig.update_yaxes(title_text="J(f | S) (bits)")
    return finish(fig, title=title, height=340)
