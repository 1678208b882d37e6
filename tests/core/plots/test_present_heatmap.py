"""Presentation mode keeps a heatmap's rows (issue 54, item 1): on emotions the
Learn heatmaps had a 64-pixel plot area under 470 pixels, their 6 label names
overlapping, because 40-character feature names took the height."""

from __future__ import annotations

import pandas as pd

from mlfs_core.plots import for_projector, label_score_heatmap
from mlfs_core.plots._present import PRESENT_TICK_CHARS

NAMES = [f"#{j} Mean_Acc1298_Mean_Mem40_MFCC_{j}" for j in range(20)]


def _heatmap(rows: int = 6) -> pd.DataFrame:
    return pd.DataFrame(
        [[float(i + j) for j in range(20)] for i in range(rows)],
        index=[f"label-{i}" for i in range(rows)],
        columns=NAMES,
    )


def test_long_column_names_are_cut_and_the_chart_keeps_its_height():
    """Check the ticks are cut to 14 characters (distinct, the data's own
    categories kept as tickvals), so at 16 px they take under 150 of the
    chart's 470 pixels, which it keeps (it ends above the fold)."""
    fig = for_projector(label_score_heatmap(_heatmap()), height=470)
    axis = fig.layout.xaxis
    assert list(axis.tickvals) == list(fig.data[0].x)  # the data is unchanged
    assert all(len(t) <= PRESENT_TICK_CHARS for t in axis.ticktext)
    assert len(set(axis.ticktext)) == 20
    assert 0.62 * 16 * max(map(len, axis.ticktext)) < 150
    assert fig.layout.height == 470


def test_a_short_heatmap_keeps_the_asked_height_and_its_ticks():
    """Check short names are left alone and a heatmap that fits keeps 470 px."""
    matrix = _heatmap(3)
    matrix.columns = [f"w{j}" for j in range(20)]
    fig = for_projector(label_score_heatmap(matrix), height=470)
    assert fig.layout.xaxis.ticktext is None and fig.layout.height == 470


def test_other_figures_are_not_resized():
    """Check a figure without a heatmap keeps the asked height."""
    import plotly.graph_objects as go

    from mlfs_core.plots._style import finish

    fig = for_projector(
        finish(go.Figure(go.Bar(x=NAMES, y=[1] * 20)), title="t"), height=470
    )
    assert fig.layout.height == 470 and fig.layout.xaxis.ticktext is None
