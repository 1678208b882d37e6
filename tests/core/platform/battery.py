"""A battery of engine computations, each reduced to a digest of its exact bytes.

Run as a script (``python tests/core/platform/battery.py``), it prints one JSON
object ``{"blas": kernel id, "values": {name: sha256}}``. The platform tests run it
in subprocesses under several OpenBLAS kernels and numpy CPU-feature settings and
compare the digests bit for bit: a value whose digest changes depends on the
machine. :data:`KERNEL_DEPENDENT` lists the values known to follow the BLAS kernel
(when it is not pinned); everything else must be the same everywhere.
"""

from __future__ import annotations

import sys

if "--numpy-first" in sys.argv:  # simulate a user who imports numpy first
    import numpy  # noqa: F401

# isort: split
import hashlib
import json
import warnings
from pathlib import Path

import mlfs_core  # pins the BLAS kernel before numpy loads (unless numpy-first)

ROOT = Path(__file__).resolve().parents[3]

# Values that follow OpenBLAS's kernel when it is not pinned: scikit-learn's
# LIBLINEAR primal trust-region solver and L-BFGS call ddot/daxpy/dnrm2, whose
# summation order is the kernel's. Each has a kernel-dependent classifier.
KERNEL_DEPENDENT = frozenset(
    {
        "classifier/linear_svc_primal",
        "classifier/logistic",
        "experiment/protocol_a",
    }
)


# Values scikit-learn computes directly, outside the engine's runner: only the
# runner moves kernel-dependent fits to a pinned worker.
DIRECT = frozenset(
    {
        "classifier/linear_svc_primal",
        "classifier/linear_svc_dual",
        "classifier/logistic",
    }
)


def _digest(*arrays) -> str:
    import numpy as np

    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(np.asarray(a))
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _frame_digest(frame) -> str:
    return hashlib.sha256(
        frame.to_csv(index=False, float_format="%r").encode()
    ).hexdigest()


def _data():
    import numpy as np
    import scipy.sparse as sp

    rng = np.random.default_rng(7)
    n, m, q = 240, 60, 5
    counts = rng.poisson(0.6, size=(n, m)) * rng.integers(1, 9, size=(n, m))
    Y = (rng.random((n, q)) < 0.3).astype(np.int64)
    Y[:, 0] |= (counts[:, 0] > 2).astype(np.int64)
    Y[:, 1] |= (counts[:, 3] > 3).astype(np.int64)
    X = sp.csr_matrix(counts.astype(np.float64))
    Xf = rng.normal(size=(n, 12)) * 3.3  # non-integer dense data
    return X, Y, Xf


def _classifiers(X, Y, Xf, out):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    from mlfs_core.evaluation.classifiers.mlknn import MLkNN

    y = Y[:, 0]
    cases = {
        "linear_svc_primal": LinearSVC(C=3.0, tol=1e-3, dual=False, random_state=0),
        "linear_svc_dual": LinearSVC(C=3.0, tol=1e-3, dual=True, random_state=0),
        "logistic": LogisticRegression(max_iter=200),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for name, est in cases.items():
            est.fit(X, y)
            out[f"classifier/{name}"] = _digest(est.coef_, est.decision_function(X))
    for name, data in {"float": Xf, "sparse": X, "integer": X.toarray()}.items():
        knn = MLkNN(k=7).fit(data[:160], Y[:160])
        scores = knn.predict_proba(data[160:])
        out[f"classifier/mlknn_{name}"] = _digest(scores, knn.predict(data[160:]))
    out["classifier/mlknn_minmax"] = _digest(
        MLkNN(k=5, scaling="minmax").fit(Xf[:160], Y[:160]).predict_proba(Xf[160:])
    )


def _scores_and_rankings(X, Y, Xf, out):
    from mlfs_core import label_scores, rank_features

    for measure in tuple(mlfs_core.MEASURES):
        try:
            out[f"score/{measure}"] = _digest(label_scores(X, Y, measure))
        except Exception as exc:  # a measure name this engine spells otherwise
            out[f"score/{measure}"] = f"error: {type(exc).__name__}"
    for method in mlfs_core.list_methods():
        order = rank_features(X, Y, method, k=20, random_state=3)
        out[f"rank/{method}"] = _digest(order)
    for method in ("PMU", "ATR", "MDMR", "LSMFS"):
        out[f"rank_float/{method}"] = _digest(rank_features(Xf, Y, method, k=8))


def _metrics(Y, out):
    import numpy as np

    from mlfs_core.evaluation.metrics import METRICS

    rng = np.random.default_rng(11)
    truth = Y[:100]
    pred = (rng.random(truth.shape) < 0.35).astype(np.int64)
    scores = rng.normal(size=truth.shape) / 3.0
    for name, spec in METRICS.items():
        out[f"metric/{name}"] = _digest(np.float64(spec.function(truth, pred, scores)))


def _statistics(out):
    import numpy as np
    import pandas as pd

    from mlfs_core import average_ranks, friedman_nemenyi, kuncheva_index, select

    rng = np.random.default_rng(5)
    rows = [
        {"dataset": f"d{d}", "method": f"m{m}", "value": rng.random() + 0.01 * m}
        for d in range(9)
        for m in range(6)
    ]
    table = pd.DataFrame(rows)
    out["stats/average_ranks"] = _frame_digest(
        average_ranks(select(table, higher_is_better=True))
    )
    res = friedman_nemenyi(select(table, higher_is_better=True))
    out["stats/friedman"] = _digest(
        np.array(
            [
                float(getattr(res, f))
                for f in res.__dataclass_fields__
                if isinstance(getattr(res, f), (int, float))
            ]
        )
    )
    out["stats/kuncheva"] = _digest(
        np.float64(kuncheva_index([1, 2, 3], [2, 3, 9], 40))
    )


def _experiments(out):
    from mlfs_core.evaluation import ExperimentConfig, run_experiment
    from mlfs_core.evaluation.config import protocol_a, protocol_b

    sample = str(ROOT / "sample_data" / "planted.arff")
    configs = {
        "protocol_a": ExperimentConfig(
            datasets=(sample,),
            methods=("MaxCS", "RaRBNS", "Random"),
            protocol=protocol_a(n_folds=2, budgets=(10, 50), n_repeats=1),
            seed=4,
        ),
        "protocol_b": ExperimentConfig(
            datasets=(sample,),
            methods=("PMU", "MaxCS"),
            protocol=protocol_b(budgets=(1, 3, 8), n_repeats=1),
            seed=4,
        ),
    }
    for name, config in configs.items():
        result = run_experiment(config, n_jobs=1)
        out[f"experiment/{name}"] = _frame_digest(result.results)


def battery(include_experiments: bool = True) -> dict[str, str]:
    """Every value's digest, by name.

    Parameters
    ----------
    include_experiments : bool
        Also run the shipped sample's two experiments (a few seconds).

    Returns
    -------
    dict
    """
    X, Y, Xf = _data()
    out: dict[str, str] = {}
    _classifiers(X, Y, Xf, out)
    _scores_and_rankings(X, Y, Xf, out)
    _metrics(Y, out)
    _statistics(out)
    if include_experiments:
        _experiments(out)
    return out


if __name__ == "__main__":
    values = battery(include_experiments="--quick" not in sys.argv)
    from mlfs_core import blas

    print(json.dumps({"blas": blas.kernel_id(), "values": values}, sort_keys=True))
