"""Column names of the tidy tables: results, selections, curves, timings and ranks.

This is a public module: use these names instead of string literals, e.g.
``results[results[columns.METRIC] == "micro_f1"]``.
"""

DATASET = "dataset"
PROTOCOL = "protocol"
CLASSIFIER = "classifier"  # optional: a table combining runs of several classifiers
EVALUATION = "evaluation"  # optional: ... of several evaluation settings
METHOD = "method"
BUDGET = "budget"  # number of selected features (int)
BUDGET_PCT = "budget_pct"  # percentage of features when the budget was given as one
FOLD = "fold"
REPEAT = "repeat"
METRIC = "metric"
VALUE = "value"
RANK = "rank"
MEAN = "mean"
STD = "std"
SECONDS = "seconds"
FEATURES = "features"

RESULT_COLUMNS = [DATASET, PROTOCOL, METHOD, BUDGET, FOLD, REPEAT, METRIC, VALUE]
N_FEATURES = "n_features"  # number of features M of the dataset
STAGE = "stage"  # timing stage: "selection", "fit", "predict"
N_FITTED = "n_fitted"  # per-label classifiers fitted in one fit task
N_NOT_CONVERGED = "n_not_converged"  # of those, stopped at max_iter
MAX_N_ITER = "max_n_iter"  # largest solver iteration count of a fit task
REUSED = "reused"  # 1 if a fit took the values of an identical earlier fit
K = "k"  # top-k size in planted-truth recovery
PRECISION = "precision"

__all__ = [
    "DATASET",
    "PROTOCOL",
    "CLASSIFIER",
    "EVALUATION",
    "METHOD",
    "BUDGET",
    "BUDGET_PCT",
    "FOLD",
    "REPEAT",
    "METRIC",
    "VALUE",
    "RANK",
    "MEAN",
    "STD",
    "SECONDS",
    "FEATURES",
    "RESULT_COLUMNS",
    "N_FEATURES",
    "STAGE",
    "N_FITTED",
    "N_NOT_CONVERGED",
    "MAX_N_ITER",
    "REUSED",
    "K",
    "PRECISION",
]
