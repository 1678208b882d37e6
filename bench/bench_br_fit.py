"""Benchmark of one Binary Relevance + LinearSVC fit, as protocol A runs it
(not a timed test).

Paper 000's study is dominated by these fits (selection is under 0.2 % of its
time), so this script is how the study's compute was estimated per dataset:
one fit on 90 % of the samples (a training fold) and 50 % of the features
(the middle budget), with ``LinearSVC(C=3, tol=1e-3)`` and liblinear's solver
chosen by scikit-learn (``dual="auto"``, the study's setting), forced dual and
forced primal. Ratios are against ``dual="auto"`` measured in the same run.
The last column multiplies the auto time by protocol A's 1,360 fits
(10 folds x (9 budgets x 15 runs + AF)). The ``l2-rows`` columns repeat the
auto fit on rows divided by their L2 norm (``protocol.scaling = "l2-rows"``,
the study's sensitivity check), with how many per-label fits stopped at
``max_iter`` in each setting.

Usage (from the project root)::

    python bench/bench_br_fit.py [--datasets bibtex,tmc2007-500,delicious] [--auto-only]

``--auto-only`` skips the forced dual and primal fits (the primal one can take
minutes on word counts: 611 s on arts) and measures only the study's setting
and its ``l2-rows`` variant.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from mlfs_core import load_dataset
from mlfs_core.evaluation.classifiers import make_classifier
from mlfs_core.evaluation.runner.execute.tasks import scale_pair

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
FITS_PROTOCOL_A = 10 * (9 * 15 + 1)


def one_fit(X, Y, dual) -> tuple[float, int]:
    """Seconds of one BR fit and the number of labels that did not converge."""
    clf = make_classifier("linear_svc", {"C": 3.0, "tol": 1e-3, "dual": dual})
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning of the slow solver
        clf.fit(X, Y)
    return time.perf_counter() - start, clf.convergence()[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="bibtex,tmc2007-500")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--auto-only",
        action="store_true",
        help="skip the forced dual/primal fits (the study's setting and l2-rows only)",
    )
    args = parser.parse_args(argv)
    rows = []
    for name in args.datasets.split(","):
        ds = load_dataset(DATASETS / name)
        rng = np.random.default_rng(args.seed)
        n, m = ds.X.shape
        samples = rng.permutation(n)[: int(0.9 * n)]
        features = rng.permutation(m)[: m // 2]
        X, Y = ds.X.tocsr()[samples][:, features], ds.Y[samples]
        solvers = ("auto",) if args.auto_only else ("auto", True, False)
        fits = {dual: one_fit(X, Y, dual) for dual in solvers}
        times = {dual: float("nan") for dual in (True, False)}  # when skipped
        times.update({dual: seconds for dual, (seconds, _) in fits.items()})
        l2_seconds, l2_bad = one_fit(scale_pair(X, X, "l2-rows")[0], Y, "auto")
        rows.append(
            {
                "dataset": name,
                "shape": f"{X.shape[0]} x {X.shape[1]}, q = {Y.shape[1]}",
                "auto s": times["auto"],
                "dual s": times[True],
                "primal s": times[False],
                "dual / auto": times[True] / times["auto"],
                "primal / auto": times[False] / times["auto"],
                "not conv.": fits["auto"][1],
                "l2-rows s": l2_seconds,
                "l2 / auto": l2_seconds / times["auto"],
                "l2 not conv.": l2_bad,
                "protocol A, 1 core h": times["auto"] * FITS_PROTOCOL_A / 3600,
            }
        )
        print(f"{name}: done", file=sys.stderr, flush=True)
    print(pd.DataFrame(rows).to_string(index=False, float_format="{:.2f}".format))
    return 0


if __name__ == "__main__":
    sys.exit(main())
