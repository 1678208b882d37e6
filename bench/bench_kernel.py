"""What the BLAS-kernel rule costs (not a timed test): ratios measured in one run.

The engine pins OpenBLAS's kernel for the fits whose values depend on it
(:mod:`mlfs_core.blas`). This script measures, side by side:

1. **The alternative it rejected.** One protocol-A fit (BR + LinearSVC, C = 3,
   tol = 1e-3, 90 % of the samples, 50 % of the features) with the primal
   solver that ``dual="auto"`` picks (kernel-dependent, pinned) against
   LIBLINEAR's dual solver (kernel-free, but every committed value would change).
2. **The pin's own cost.** The shipped sample's protocol-A experiment (reduced:
   2 folds, two budgets) in a process that imported ``mlfs_core`` first
   (pinned in place) against one that imported numpy first, whose
   kernel-dependent fits therefore go to a pinned worker process.
3. **The pin against no pin.** The same experiment with ``MLFS_BLAS_KERNEL=native``
   (the CPU's own kernel, no pin).

Each line is a ratio against the first row of its block; absolute seconds are
an aside. Usage (from the project root)::

    python bench/bench_kernel.py [--dataset tmc2007-500] [--repeats 3]

The dataset must be tall at 50 % of its features (more training samples than
columns), where ``dual="auto"`` picks the primal solver, as on protocol A's
text data.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import mlfs_core  # first: pins the BLAS kernel

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))

EXPERIMENT = """
import sys, time
if "numpy-first" in sys.argv:
    import numpy
import mlfs_core
from mlfs_core import blas
from mlfs_core.evaluation import ExperimentConfig, run_experiment, protocol_preset
config = ExperimentConfig(
    datasets=("sample",), methods=("MaxCS", "MeanBNS", "Random"),
    protocol=protocol_preset("A", n_folds=2, budgets=(10, 50), n_repeats=1), seed=1)
start = time.perf_counter()
run_experiment(config)
print(time.perf_counter() - start, blas.kernel_id(), blas.kernel_matches())
"""


def _fit_seconds(dataset: str, dual, repeats: int) -> float:
    import numpy as np

    from mlfs_core import load_dataset
    from mlfs_core.evaluation.classifiers import make_classifier
    from mlfs_core.evaluation.runner.execute.tasks import as_classifier_input

    ds = load_dataset(DATASETS / dataset)
    rng = np.random.default_rng(0)
    rows = rng.permutation(ds.n_samples)[: int(0.9 * ds.n_samples)]
    cols = rng.permutation(ds.n_features)[: ds.n_features // 2]
    X = as_classifier_input(ds.X[rows][:, cols])
    Y = np.asarray(ds.Y)[rows]
    best = float("inf")
    for _ in range(repeats):
        clf = make_classifier("linear_svc", {"C": 3.0, "tol": 1e-3, "dual": dual})
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf.fit(X, Y)
        best = min(best, time.perf_counter() - start)
    return best


def _experiment(*flags: str, native: bool = False, repeats: int = 3):
    # as on a machine that sets nothing: OpenBLAS picks the CPU's own kernel
    unset = ("MLFS_BLAS_KERNEL", "OPENBLAS_CORETYPE")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    if native:
        env["MLFS_BLAS_KERNEL"] = "native"
    best, kernel = float("inf"), ""
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, "-c", EXPERIMENT, *flags],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        best, kernel = min(best, float(out[0])), out[1]
    return best, kernel


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="tmc2007-500")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    from mlfs_core import blas

    print(f"engine {mlfs_core.__version__}, this process: {blas.kernel_id()}")
    print()
    primal = _fit_seconds(args.dataset, "auto", args.repeats)
    dual = _fit_seconds(args.dataset, True, args.repeats)
    print(f"| one protocol-A fit on {args.dataset} | ratio | seconds |")
    print("|---|---|---|")
    print(f"| dual='auto' (primal on tall data; pinned) | 1.00 | {primal:.2f} |")
    print(f"| dual=True (kernel-free) | {dual / primal:.2f} | {dual:.2f} |")
    print()
    pinned, k1 = _experiment(repeats=args.repeats)
    routed, k2 = _experiment("numpy-first", repeats=args.repeats)
    native, k3 = _experiment(native=True, repeats=args.repeats)
    print("| sample protocol-A experiment | ratio | seconds | process kernel |")
    print("|---|---|---|---|")
    print(f"| mlfs_core first (pinned in place) | 1.00 | {pinned:.2f} | {k1} |")
    print(
        f"| numpy first (fits in a pinned worker) | {routed / pinned:.2f} "
        f"| {routed:.2f} | {k2} |"
    )
    print(f"| MLFS_BLAS_KERNEL=native | {native / pinned:.2f} | {native:.2f} | {k3} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
