"""Paper 001's protocol as the protocol preset ``"B"`` (METHODS.md section 5).

Registered with :func:`mlfs_core.evaluation.register_protocol_preset` when
imported (the package's entry point ``paper001-conventions`` imports it
through :mod:`.conventions`), the way a user's package registers a preset:
the dataset's own train/test split (else a stratified 60/40 hold-out),
budgets k = 1..50 features (those above M dropped), ML-kNN (k = 10, s = 1) on
uniformly discretized features (3 bins), scoring only the labels that vary
in the training part. ``linear_svc`` named without parameters gets C = 3 and
tol = 1e-3, as under preset ``"A"``.
"""

from __future__ import annotations

from mlfs_core.evaluation import register_protocol_preset

PRESET = register_protocol_preset(
    "B",
    {
        "split": "own",
        "n_folds": 10,
        "test_size": 0.4,
        "budgets": tuple(range(1, 51)),
        "budget_unit": "count",
        "on_large_budget": "clip",
        "n_repeats": 3,
        "classifier": {"name": "mlknn", "params": {"k": 10, "s": 1.0}},
        "discretize": "uniform",
        "bins": 3,
        "label_handling": "drop_constant",
    },
    classifier_defaults={"linear_svc": {"C": 3.0, "tol": 0.001}},
    control_test="nemenyi",
    description="train/test split, ML-kNN, top-k budgets",
    citation="the information-theoretic study (METHODS.md section 5)",
)
