"""Paper 000's published Tables 4-6 beside the Paper 000 study, for the app.

Registers :data:`PUBLISHED` (:func:`mlfs_core.published.register_published`)
when imported; the package's entry point (group ``mlfs_explorer.plugins``)
imports it the first time the app looks the published numbers up. The
comparisons are :func:`~mlfs_papers.paper000.published.rank_comparison` (Tables
4 and 5, micro-F1) and
:func:`~mlfs_papers.paper000.published.kuncheva_comparison` (Table 6, Kuncheva
at 50 %), on the published cells ``studies/paper000/published.csv``.
"""

from __future__ import annotations

import functools

import pandas as pd

from mlfs_core.published import (
    Published,
    RankComparison,
    SimilarityComparison,
    register_published,
)
from mlfs_core.selectors import reference_methods

from .._suites import ROOT, study_file
from .published import (
    BNS_METHODS,
    CS_METHODS,
    PUBLISHED_METRIC,
    kuncheva_comparison,
    paper_label,
    rank_comparison,
    reproduction_ranks,
)

STUDY = "paper000"


@functools.cache
def published_cells() -> pd.DataFrame:
    """The published cells (``studies/paper000/published.csv``, as printed)."""
    path = study_file(STUDY, "published.csv")
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def compare_ranks(results: pd.DataFrame) -> RankComparison:
    """Tables 4 and 5 (micro-F1): the paper's beside ours, with the constant floor."""
    table4, table5 = reproduction_ranks(results, PUBLISHED_METRIC)
    return rank_comparison(published_cells(), table4, table5)


def compare_similarity(ours: pd.DataFrame) -> SimilarityComparison:
    """Table 6 (Kuncheva at 50 %): the paper's beside our matrix."""
    return kuncheva_comparison(published_cells(), ours)


PUBLISHED = register_published(
    Published(
        name=STUDY,
        title="paper 000",
        results=ROOT / "studies" / STUDY / "app",
        results_label="Paper 000 study",
        ranks_heading="Tables 4 and 5",
        ranks_help="The paper's own mean ranks (micro-F1, its 20 datasets) cell "
        "by cell beside the study's.",
        ranks_note="micro-F1, the metric of the paper's tables, whatever metric "
        "is chosen above. The paper averages over its 20 datasets",
        compare_ranks=compare_ranks,
        # the paper's order: CS, BNS, then the baselines (the registry's), under
        # the paper's labels, as the comparisons show them
        method_order=(
            *CS_METHODS,
            *BNS_METHODS,
            *map(paper_label, reference_methods()),
        ),
        similarity_heading="Table 6 at 50 %",
        similarity_help="The paper's Kuncheva index at 50 % of the features (its "
        "20 datasets) beside the study's, and their difference.",
        similarity_methods=CS_METHODS + BNS_METHODS,
        similarity_budget=50.0,
        compare_similarity=compare_similarity,
    )
)
