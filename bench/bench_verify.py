"""Benchmark of ``mlfs verify`` against the run it checks (not a timed test).

Runs a study config on one dataset with no cache (the reference), then
recomputes every fit with
:func:`mlfs_core.evaluation.runner.results.verify.verify_experiment`
and a seeded 10 % sample of them, and prints wall times with ratios against
the reference run measured in the same process. Verifying everything costs
about one run; a sample costs its share of the fits plus the selections they
need.

Usage (from the project root)::

    python bench/bench_verify.py [--study paper000] [--dataset slashdot]
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd

from mlfs_core.evaluation import load_config, run_experiment
from mlfs_core.evaluation.config import DatasetSpec
from mlfs_core.evaluation.runner.results.verify import verify_experiment

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", default="paper000")
    parser.add_argument("--dataset", default="slashdot")
    parser.add_argument("--sample", type=float, default=0.1, help="share of fits")
    args = parser.parse_args(argv)
    config = load_config(ROOT / "configs" / f"study_{args.study}.toml")
    spec = DatasetSpec(str(DATASETS / args.dataset))
    config = replace(config, datasets=(spec,))

    start = time.perf_counter()
    result = run_experiment(config)
    reference = time.perf_counter() - start
    n_fits = len(result.results) // len(config.protocol.metrics)
    rows = [("run (reference)", n_fits, reference, 1.0, 0.0)]
    for label, sample in (
        ("verify all", None),
        (f"verify {args.sample:.0%}", max(1, round(args.sample * n_fits))),
    ):
        start = time.perf_counter()
        check = verify_experiment(config, result.results, sample=sample)
        seconds = time.perf_counter() - start
        rows.append(
            (label, check.n_fits, seconds, seconds / reference, check.max_abs_diff)
        )
    table = pd.DataFrame(
        rows, columns=["task", "fits", "seconds", "x run", "max abs diff"]
    )
    print(f"{args.study} on {args.dataset}")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3g}"))


if __name__ == "__main__":
    main()
