"""Column names shared by the engine, the analysis functions and the plots."""

DATASET = "dataset"
PROTOCOL = "protocol"
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
