"""Paper 000's protocol as the protocol preset ``"A"`` (METHODS.md section 5).

Registered with :func:`mlfs_core.evaluation.register_protocol_preset` when
imported (the package's entry point ``paper000-suite`` imports it through
:mod:`.suite`), the way a user's package registers a preset: 10-fold
iterative-stratified CV, budgets 10..90 % of M (a budget above M an error),
binary relevance + LinearSVC with C = 3 and tol = 1e-3 (also what
``linear_svc`` gets under this preset when a config names it without those
parameters), raw features, every label scored, RaR and other stochastic
methods over 3 seeds.
"""

from __future__ import annotations

from mlfs_core.evaluation import register_protocol_preset

LINEAR_SVC = {"C": 3.0, "tol": 0.001}
"""The LinearSVC parameters of paper 000's experiments."""

PRESET = register_protocol_preset(
    "A",
    {
        "split": "cv",
        "n_folds": 10,
        "test_size": 0.4,
        "budgets": (10, 20, 30, 40, 50, 60, 70, 80, 90),
        "budget_unit": "percent",
        "on_large_budget": "error",
        "n_repeats": 3,
        "classifier": {"name": "linear_svc", "params": dict(LINEAR_SVC)},
        "discretize": "none",
        "bins": 3,
        "label_handling": "keep",
    },
    classifier_defaults={"linear_svc": LINEAR_SVC},
    control_test="nemenyi",
    description="k-fold CV, BR + linear SVM, budgets in % of M",
    citation="Spolaôr and Tsoumakas (2013)",
)
