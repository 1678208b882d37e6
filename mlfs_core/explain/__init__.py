"""How each method works, step by step, on any dataset (the app's Learn pages).

Every function here replays what the engine does and records the
intermediate numbers: a 2x2 table and its chi-squared terms and BNS rates
(:mod:`.score`), an aggregation turn by turn (:mod:`.aggregation`), a greedy
information-theoretic selection with each criterion split into its terms
(:mod:`.greedy`), one reference instance of RF-ML with its neighbours and its
effect on every feature's weight (:mod:`.relief`). They reuse the engine's
own functions, and the tests check that replaying the steps gives exactly
:func:`mlfs_core.rank_features`.
"""

from .aggregation import (
    aggregation_steps,
    compare_coverage,
    label_coverage,
    label_turns,
    method_steps,
    method_view,
    selected_scores,
    uncovered_labels,
)
from .greedy import GreedySteps, greedy_steps
from .labels import distinct_labels, feature_labels, shorten
from .notation import readable, term_names, term_role
from .relief import ReliefSteps, relief_steps, relief_totals
from .score import ScoreSteps, opening_pair, score_steps, top_feature_scores
from .sparse import SparseSteps, sparse_steps

__all__ = [
    "GreedySteps",
    "ReliefSteps",
    "ScoreSteps",
    "SparseSteps",
    "aggregation_steps",
    "compare_coverage",
    "distinct_labels",
    "feature_labels",
    "greedy_steps",
    "label_coverage",
    "label_turns",
    "method_steps",
    "method_view",
    "opening_pair",
    "readable",
    "relief_steps",
    "relief_totals",
    "score_steps",
    "selected_scores",
    "shorten",
    "sparse_steps",
    "term_names",
    "term_role",
    "top_feature_scores",
    "uncovered_labels",
]
