"""Analysis of experiment results across datasets: ranks, tests, similarity, curves.

Every function is pure: DataFrames in, DataFrames (or frozen dataclasses) out.
The rank-based analyses and the curves take one :class:`Selection`, made by
:func:`select` from a results table: one metric (its direction known), one
budget (or the mean over budgets, or each budget apart), complete blocks::

    chosen = select(results, metric="micro_f1", budget=50)
    friedman_nemenyi(chosen), wilcoxon_holm(chosen), average_ranks(chosen)
"""

from ._blocks import (
    MISSING,
    all_features_references,
    broadcast_reference,
    budget_column,
    check_blocks,
)
from .curves import dataset_means, display_table, metric_curves
from .posthoc import (
    bonferroni_dunn_cd,
    bonferroni_dunn_q,
    control_comparisons,
    holm_adjust,
    nemenyi_pvalues,
    wilcoxon_holm,
    wilcoxon_method,
)
from .ranks import average_ranks, dataset_ranks, rank_table
from .recovery import load_planted_truth, precision_at_k, recovery_table
from .selection import Selection, select
from .similarity import kuncheva_index, similarity_matrix
from .stats import (
    SUMMARY_COLUMNS,
    FriedmanResult,
    friedman_by_budget,
    friedman_nemenyi,
    iman_davenport,
    nemenyi_cd,
    nemenyi_q,
)

__all__ = [
    "MISSING",
    "SUMMARY_COLUMNS",
    "FriedmanResult",
    "Selection",
    "all_features_references",
    "average_ranks",
    "bonferroni_dunn_cd",
    "bonferroni_dunn_q",
    "broadcast_reference",
    "budget_column",
    "check_blocks",
    "control_comparisons",
    "dataset_means",
    "dataset_ranks",
    "display_table",
    "friedman_by_budget",
    "friedman_nemenyi",
    "iman_davenport",
    "holm_adjust",
    "kuncheva_index",
    "load_planted_truth",
    "metric_curves",
    "nemenyi_cd",
    "nemenyi_pvalues",
    "nemenyi_q",
    "precision_at_k",
    "rank_table",
    "select",
    "recovery_table",
    "similarity_matrix",
    "wilcoxon_holm",
    "wilcoxon_method",
]
