"""Study 1 (paper 000, protocol A) as the suite ``mlfs benchmark --suite paper000``.

Registered with :func:`mlfs_core.benchmark.register_suite` when imported; the
package's entry point (group ``mlfs_explorer.plugins``) imports it the first
time a suite name is looked up. The suite is the study's own config
(``configs/study_paper000.toml``: 10-fold iterative-stratified CV, budgets
10..90 % of M, BR + LinearSVC, RaR and Random (the paper's RFS) over 3 seeds,
AF at all features) and its committed data (``studies/paper000/data``); a
checkout of the repository holds both.

Its quick subset: the three cheapest of the paper's datasets to evaluate
(slashdot, medical, enron), folds 0-2 of the same 10-fold split and budgets
10, 50 and 90 %: about 1/35 of the study's fits of a method.
"""

from __future__ import annotations

from mlfs_core.benchmark import QuickPlan

from .._suites import register_study_suite

SUITE = register_study_suite(
    "paper000",
    title="Paper 000, protocol A",
    methods=(
        "MaxCS",
        "MeanCS",
        "RoRCS",
        "RaRCS",
        "MaxBNS",
        "MeanBNS",
        "RoRBNS",
        "RaRBNS",
        "Random",
        "AF",
    ),
    quick=QuickPlan(
        datasets=("slashdot", "medical", "enron"),
        folds=(0, 1, 2),
        budgets=(10, 50, 90),
    ),
    description="Spolaôr & Tsoumakas's text datasets under their protocol "
    "(BR + LinearSVC, 10-fold CV, 10..90 % of the features).",
)
