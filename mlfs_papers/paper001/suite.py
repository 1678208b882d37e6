"""Study 2 (paper 001, protocol B) as the suite ``mlfs benchmark --suite paper001``.

Registered with :func:`mlfs_core.benchmark.register_suite` when imported; the
package's entry point (group ``mlfs_explorer.plugins``) imports it the first
time a suite name is looked up. The suite is the study's own config
(``configs/study_paper001.toml``: the dataset's own train/test split, else a
seeded 60/40 hold-out; 3 equal-width bins; ML-kNN with k = 10 on the top
1..50 features) and its committed data (``studies/paper001/data``). The ten
information-theoretic methods are compared (the reference-code variants
PMU-ref and MDMR-ref are not).

Its quick subset: four small datasets (emotions, birds, PlantPseAAC, genbase)
and every fifth budget (5, 10, ..., 50) of the same split.
"""

from __future__ import annotations

from mlfs_core.benchmark import QuickPlan

from .._suites import register_study_suite
from . import protocol  # noqa: F401  (registers the protocol preset 'B')

SUITE = register_study_suite(
    "paper001",
    title="Paper 001, protocol B",
    methods=(
        "ATR",
        "PPT-MI",
        "IGMF",
        "PMU",
        "D2F",
        "MDMR",
        "LRFS",
        "LSMFS",
        "MLSMFS",
        "SCLS",
    ),
    quick=QuickPlan(
        datasets=("emotions", "birds", "PlantPseAAC", "genbase"),
        budgets=tuple(range(5, 51, 5)),
    ),
    description="The ATR paper's methods on the shared datasets under protocol "
    "B (ML-kNN, k = 1..50 features).",
)
