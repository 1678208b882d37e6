"""P-value heatmap of a pairwise post-hoc test, significant cells marked."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ._style import empty_figure, finish

__all__ = ["pvalue_heatmap"]

# light where p is large (no evidence), dark where it is small; the colour
# runs over log10(p) so 0.05 and 0.001 look different
_COLORSCALE = [[0.0, "#08306b"], [0.35, "#2171b5"], [0.7, "#c6dbef"], [1.0, "#f7fbff"]]
_FLOOR = 1e-4  # the colour scale's lower end (smaller p-values share its colour)


def _cell_text(p: float, alpha: float) -> str:
    if not np.isfinite(p):
        return ""
    shown = f"{p:.3f}" if p >= 0.001 else "<0.001"
    return f"<b>{shown}*</b>" if p <= alpha else shown


def pvalue_heatmap(
    pvalues: pd.DataFrame,
    *,
    alpha: float = 0.05,
    title: str = "Pairwise p-values",
) -> go.Figure:
    """Annotated heatmap of a square method x method p-value matrix.

    Cells with p at most ``alpha`` are significant: their value is printed in
    bold with a star and the cell framed; the diagonal is left blank. The
    colour follows log10(p) from 1e-4 (dark) to 1 (light).

    Parameters
    ----------
    pvalues : DataFrame of shape (k, k)
        Index and columns are method names (e.g. the output of
        :func:`~mlfs_core.analysis.nemenyi_pvalues` or
        :func:`~mlfs_core.analysis.wilcoxon_holm`, best average rank first);
        values in [0, 1].
    alpha : float, default=0.05
        Significance level of the marks.
    title : str
        Figure title; "(* = p <= alpha)" is appended.

    Returns
    -------
    plotly.graph_objects.Figure
        One heatmap trace, the rows in the matrix's order from the top, and
        one framing rectangle per significant cell.

    Examples
    --------
    >>> p = pd.DataFrame([[1.0, 0.01], [0.01, 1.0]], index=["A", "B"],
    ...                  columns=["A", "B"])
    >>> fig = pvalue_heatmap(p)
    >>> len(fig.layout.shapes)  # the two significant cells, framed
    2
    """
    full_title = f"{title} (* = p ≤ {alpha:g})"
    if pvalues.empty:
        return empty_figure(full_title)
    z = pvalues.to_numpy(dtype=float).copy()
    k = z.shape[0]
    diagonal = np.eye(k, dtype=bool) if z.shape[0] == z.shape[1] else np.zeros_like(z)
    z[diagonal.astype(bool)] = np.nan
    rows = [str(i) for i in pvalues.index]
    cols = [str(c) for c in pvalues.columns]
    text = [[_cell_text(v, alpha) for v in row] for row in z]
    colour = np.log10(np.clip(z, _FLOOR, 1.0))
    fig = go.Figure(
        go.Heatmap(
            z=colour,
            x=cols,
            y=rows,
            text=text,
            texttemplate="%{text}",
            customdata=z,
            zmin=np.log10(_FLOOR),
            zmax=0.0,
            colorscale=_COLORSCALE,
            colorbar={
                "title": {"text": "p"},
                "tickvals": [-4, -3, -2, np.log10(0.05), -1, 0],
                "ticktext": ["≤1e-4", "0.001", "0.01", "0.05", "0.1", "1"],
            },
            hovertemplate="%{y} vs %{x}: p = %{customdata:.4g}<extra></extra>",
            xgap=1,
            ygap=1,
        )
    )
    fig.update_layout(shapes=_frames(z, alpha))
    fig.update_xaxes(type="category", tickangle=-90, side="bottom")
    fig.update_yaxes(type="category", autorange="reversed")
    fig = finish(fig, title=full_title, height=max(380, 34 * k + 190))
    return fig


def _frames(z: np.ndarray, alpha: float) -> list[dict]:
    """One frame per significant cell, as layout shapes.

    Set in one call: add_shape per cell revalidates every shape so far (0.5 s
    for 12 methods, against 0.02 s).
    """
    rows_at, cols_at = np.nonzero(np.nan_to_num(z, nan=1.0) <= alpha)
    return [
        {
            "type": "rect",
            "x0": j - 0.5,
            "x1": j + 0.5,
            "y0": i - 0.5,
            "y1": i + 0.5,
            "line": {"color": "#d62728", "width": 2},
            "layer": "above",
        }
        for i, j in zip(rows_at.tolist(), cols_at.tolist(), strict=True)
    ]
