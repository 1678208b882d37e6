"""Benchmark of ``mlfs benchmark --quick`` against recomputing every method.

A new filter method (the variance of each feature, in a plug-in file written to
a temporary folder) is benchmarked on a suite's quick subset twice, each in a
fresh process with a fresh task cache:

- ``reuse``: ``mlfs benchmark --plugin FILE --method Variance --suite SUITE
  --quick``: only the method's tasks run, the study's methods come from its
  committed data (after the checks, whose probe tasks run too);
- ``recompute``: the same with ``--recompute``: every method's tasks run.

Not a test. It prints the wall time of each process (start-up, dataset loading and
drawing included), the seconds the run itself reports (its tasks and its
checks), and the ratio of each to the ``reuse`` run measured in the same
invocation.

Usage (from the project root)::

    python bench/bench_benchmark.py [--suite paper001] [--jobs 1]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

PLUGIN = '''"""A new filter method: features ranked by their variance."""
import numpy as np

from mlfs_core.selectors import register


def variance(X, Y, *, k, random_state):
    X = X.toarray()
    return np.argsort(-X.var(axis=0), kind="stable")[:k]


register(variance, name="Variance", version="1")
'''


def run(folder: Path, suite: str, jobs: int, *extra: str) -> tuple[float, dict]:
    """One ``mlfs benchmark`` process: its wall time and its benchmark.json."""
    out = folder / ("recompute" if extra else "reuse")
    argv = [sys.executable, "-m", "mlfs_core", "benchmark"]
    argv += ["--plugin", str(folder / "variance.py"), "--method", "Variance"]
    argv += ["--suite", suite, "--quick", "--jobs", str(jobs), "--out", str(out)]
    argv += ["--cache", str(out / "cache"), *extra]
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"mlfs benchmark failed: {proc.stderr.strip()}")
    return wall, json.loads((out / "benchmark.json").read_text())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="paper001")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "variance.py").write_text(PLUGIN)
        runs = {
            "reuse": run(folder, args.suite, args.jobs),
            "recompute": run(folder, args.suite, args.jobs, "--recompute"),
        }
    base_wall, base = runs["reuse"]
    rows = []
    for name, (wall, manifest) in runs.items():
        s = manifest["seconds"]
        tasks = s["method"] + s["builtin"] + s["checks"]
        base_tasks = (
            base["seconds"]["method"]
            + base["seconds"]["builtin"]
            + base["seconds"]["checks"]
        )
        rows.append(
            {
                "run": name,
                "wall s": round(wall, 1),
                "x reuse (wall)": round(wall / base_wall, 2),
                "tasks s": round(tasks, 1),
                "x reuse (tasks)": round(tasks / base_tasks, 2),
                "method tasks": s["n_method_tasks"],
                "built-in tasks": s["n_builtin_tasks"],
                "datasets": len(manifest["datasets"]),
            }
        )
    print(f"mlfs benchmark --suite {args.suite} --quick, one new filter method")
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
