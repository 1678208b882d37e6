"""Plotly figures built from tidy DataFrames: no statistics here, no streamlit.

Each function takes the long-form table an analysis function returns (column
names from :mod:`mlfs_core.columns`) and returns a
:class:`plotly.graph_objects.Figure`. :func:`to_png_bytes` renders a figure to
PNG offline.
"""

from ._highlight import figure_from_dict, highlight_figure
from ._look import method_look
from ._present import for_projector
from .cd import cd_diagram
from .comparison import average_rank_curves, metric_vs_budget, similarity_heatmap
from .data import cooccurrence_heatmap, label_frequency_bar
from .explain import (
    aggregation_turns_figure,
    coverage_bars,
    criterion_path_figure,
    draw_probability_bar,
    greedy_terms_figure,
    label_rows,
    label_score_heatmap,
    score_scale,
)
from .export import png_export_available, to_png_bytes
from .posthoc import pvalue_heatmap
from .ranking import feature_score_bar, precision_at_k_curve
from .relief import neighbour_scatter, weight_shift_figure
from .sparse import objective_path_figure, ranking_settles_figure, shrinkage_figure

__all__ = [
    "label_rows",
    "aggregation_turns_figure",
    "average_rank_curves",
    "coverage_bars",
    "criterion_path_figure",
    "draw_probability_bar",
    "greedy_terms_figure",
    "label_score_heatmap",
    "score_scale",
    "cd_diagram",
    "cooccurrence_heatmap",
    "feature_score_bar",
    "figure_from_dict",
    "for_projector",
    "highlight_figure",
    "label_frequency_bar",
    "method_look",
    "metric_vs_budget",
    "neighbour_scatter",
    "objective_path_figure",
    "png_export_available",
    "precision_at_k_curve",
    "pvalue_heatmap",
    "ranking_settles_figure",
    "shrinkage_figure",
    "similarity_heatmap",
    "to_png_bytes",
    "weight_shift_figure",
]
