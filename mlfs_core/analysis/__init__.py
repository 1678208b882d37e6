"""Analysis of experiment results across datasets: ranks, tests, similarity, curves.

Every function is pure: DataFrames in, DataFrames (or frozen dataclasses) out.
"""

from ._select import all_features_references
from .curves import dataset_means, display_table, metric_curves
from .means import (
    friedman_on_means,
    method_wins,
    variant_ranks,
    within_dataset_ranks,
)
from .posthoc import (
    bonferroni_dunn_cd,
    bonferroni_dunn_q,
    control_comparisons,
    holm_adjust,
    nemenyi_pvalues,
    wilcoxon_holm,
    wilcoxon_method,
)
from .ranks import (
    average_ranks,
    broadcast_reference,
    budget_column,
    dataset_ranks,
    rank_table,
)
from .recovery import load_planted_truth, precision_at_k, recovery_table
from .similarity import kuncheva_index, similarity_matrix
from .stats import (
    FriedmanResult,
    friedman_by_budget,
    friedman_nemenyi,
    iman_davenport,
    nemenyi_cd,
    nemenyi_q,
)

__all__ = [
    "FriedmanResult",
    "all_features_references",
    "average_ranks",
    "bonferroni_dunn_cd",
    "bonferroni_dunn_q",
    "broadcast_reference",
    "budget_column",
    "control_comparisons",
    "dataset_means",
    "dataset_ranks",
    "display_table",
    "friedman_by_budget",
    "friedman_nemenyi",
    "iman_davenport",
    "friedman_on_means",
    "holm_adjust",
    "kuncheva_index",
    "load_planted_truth",
    "method_wins",
    "metric_curves",
    "nemenyi_cd",
    "nemenyi_pvalues",
    "nemenyi_q",
    "precision_at_k",
    "rank_table",
    "recovery_table",
    "similarity_matrix",
    "variant_ranks",
    "wilcoxon_holm",
    "wilcoxon_method",
    "within_dataset_ranks",
]
