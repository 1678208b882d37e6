"""Protocol B's cost: the whole runner next to a bare ML-kNN loop (not a test).

The target: on one ranking, k = 1..50, the runner should cost no more
than 1.5x a bare loop that refits ML-kNN per k on the same (discretized)
columns. For each dataset this prints, measured in the same run:

- ``loop_s``: the bare loop (``MLkNN().fit(A[:, :k]).predict_proba(B[:, :k])``
  per budget, discretization of the top columns included, no metrics);
- ``run_s``: ``run_experiment`` (selection, discretization, every budget's
  fit, predict and all ten metrics, result tables), no cache;
- ``per_fit_s``: the same run with one task per budget (``run_fit`` per k,
  as before nested prefixes), and ``prefix_gain`` = per_fit_s / run_s;
- ``ratio`` = run_s / loop_s (goal <= 1.5) and whether both runs' results
  are identical.

One method (PPT-MI, whose selection is cheap, so the runner is what is
measured); tmc2007-500 uses budgets 1, 10, 20, 30, 40, 50 by default (its
bare loop takes ~15 s per k on the 2-core machine). One BLAS thread.

Usage (from the project root)::

    python bench/bench_protocol_b.py [--datasets yeast,bibtex,tmc2007-500]
                                     [--method PPT-MI] [--full-tmc]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from mlfs_core.evaluation.classifiers.mlknn import MLkNN  # noqa: E402
from mlfs_core.evaluation.config import ExperimentConfig, protocol_preset  # noqa: E402
from mlfs_core.evaluation.runner import run_experiment  # noqa: E402
from mlfs_core.evaluation.runner.execute import fits as _fits  # noqa: E402
from mlfs_core.evaluation.runner.plan.prepare import prepare  # noqa: E402
from mlfs_core.measures.discretize import Discretizer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
SPARSE_BUDGETS = (1, 10, 20, 30, 40, 50)


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def _loop(config: ExperimentConfig, order: np.ndarray, budgets) -> None:
    """Refit ML-kNN per budget on the ranking's top columns (the reference)."""
    (d,), _ = prepare(config)
    train, test = d.splits[0]
    X, Y = d.dataset.X, np.asarray(d.dataset.Y)
    cols = order[: max(budgets)]
    disc = Discretizer(bins=3).fit(X[train][:, cols])
    A = disc.transform(X[train][:, cols]).astype(np.float64)
    B = disc.transform(X[test][:, cols]).astype(np.float64)
    for k in budgets:
        MLkNN().fit(A[:, :k], Y[train]).predict_proba(B[:, :k])


def _row(name: str, method: str, budgets) -> dict:
    config = ExperimentConfig(
        datasets=[str(DATASETS / name)],
        methods=[method],
        protocol=protocol_preset("B", budgets=budgets),
        name=f"bench-B-{name}",
    )
    run, run_s = _timed(lambda: run_experiment(config))
    order = np.asarray(run.selections["features"].iloc[0])
    _, loop_s = _timed(lambda: _loop(config, order, budgets))
    _fits.GROUP_BUDGETS = False
    try:
        per_fit, per_fit_s = _timed(lambda: run_experiment(config))
    finally:
        _fits.GROUP_BUDGETS = True
    t = run.timings
    return {
        "dataset": name,
        "budgets": len(budgets),
        "loop_s": round(loop_s, 2),
        "run_s": round(run_s, 2),
        "ratio": round(run_s / loop_s, 2),
        "per_fit_s": round(per_fit_s, 2),
        "prefix_gain": round(per_fit_s / run_s, 1),
        "selection_s": round(t.loc[t["stage"] == "selection", "seconds"].sum(), 2),
        "metrics_s": round(t.loc[t["stage"] == "metrics", "seconds"].sum(), 2),
        "identical": run.results.equals(per_fit.results),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="yeast,bibtex,tmc2007-500")
    parser.add_argument("--method", default="PPT-MI")
    parser.add_argument("--full-tmc", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for name in args.datasets.split(","):
        sparse = name == "tmc2007-500" and not args.full_tmc
        budgets = SPARSE_BUDGETS if sparse else tuple(range(1, 51))
        rows.append(_row(name, args.method, budgets))
        print(pd.DataFrame(rows[-1:]).to_string(index=False), flush=True)
    print()
    print(pd.DataFrame(rows).to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
