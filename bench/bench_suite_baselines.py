"""Benchmark of ``mlfs benchmark --suite baselines --quick``: its wall time and parts.

A new filter method (the variance of each feature, in a plug-in file written to
a temporary folder) is compared with the registry's baselines on the suite's
quick datasets under the field's preset, in a fresh process with a fresh task
cache (every task computed), ``--jobs`` workers (default 2, the machine's
cores). Then the same command again, every task read from the cache (the cost
of resuming a finished run).

Not a test. It prints the wall time of each process (start-up, dataset loading,
drawing and writing included) and the shares of the parts the run reports in
its ``benchmark.json``: ranking (the selections' measured seconds), fits
(fitting, predicting and scoring ML-kNN at every budget), analysis (ranks,
Friedman, Bonferroni-Dunn, the CD diagrams) and the rest (start-up, loading
and splitting the datasets, planning, the workers, writing). With several
workers the tasks' seconds are summed over the workers, so the shares are
shares of the measured work, and the tasks' wall time is printed beside them.

Usage (from the project root, ``MLFS_DATASETS`` or ``--data`` naming the
datasets' folder)::

    python bench/bench_suite_baselines.py [--jobs 2] [--data ../shared/datasets]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLUGIN = '''"""A new filter method: features ranked by their variance."""
import numpy as np

from mlfs_core.selectors import register


def variance(X, Y, *, k, random_state):
    if hasattr(X, "toarray"):
        mean = np.asarray(X.mean(axis=0)).ravel()
        var = np.asarray(X.multiply(X).mean(axis=0)).ravel() - mean**2
    else:
        var = np.asarray(X).var(axis=0)
    return np.argsort(-var, kind="stable")[:k]


register(variance, name="Variance", version="1")
'''


def run(folder: Path, data: str, jobs: int, name: str) -> tuple[float, dict]:
    """One ``mlfs benchmark --suite baselines --quick`` process: wall, manifest."""
    out = folder / name
    argv = [sys.executable, "-m", "mlfs_core", "--plugin", str(folder / "variance.py")]
    argv += ["benchmark", "--suite", "baselines", "--method", "Variance", "--quick"]
    argv += ["--jobs", str(jobs), "--out", str(out), "--data", data]
    argv += ["--cache", str(folder / "cache"), "--overwrite"]
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"mlfs benchmark failed: {proc.stderr.strip()[-2000:]}")
    manifest = json.loads((out / "benchmark.json").read_text(encoding="utf-8"))
    return wall, manifest


def table(rows: list[tuple[str, float, dict]]) -> str:
    """The Markdown table of docs/benchmarks.md."""
    lines = [
        "| run | wall s | tasks wall s | ranking | fits | analysis | rest | tasks |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, wall, s in rows:
        rest = max(wall - s["tasks"] - s["analysis"], 0.0)
        counts = f"{s['n_computed']} of {s['n_tasks']} computed"
        if not s["n_computed"]:  # every task read back: no measured work
            shares = ["-", "-", "-", "-"]
        else:
            parts = (s["selection"], s["fit"], s["analysis"], rest)
            shares = [f"{100 * p / sum(parts):.1f} %" for p in parts]
        lines.append(
            f"| {name} | {wall:.1f} | {s['tasks']:.1f} | "
            + " | ".join(shares)
            + f" | {counts} |"
        )
    return "\n".join(lines)


def main() -> None:
    """Run the suite twice (fresh cache, then cached) and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data", default=os.environ.get("MLFS_DATASETS"))
    args = parser.parse_args()
    if not args.data:
        default = Path(__file__).resolve().parents[2] / "shared" / "datasets"
        args.data = str(default)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "variance.py").write_text(PLUGIN, encoding="utf-8")
        rows = []
        for name in ("fresh cache", "cached (resume)"):
            wall, manifest = run(folder, args.data, args.jobs, name.split()[0])
            rows.append((name, wall, manifest["seconds"]))
        print(f"datasets: {', '.join(manifest['datasets'])}")
        print(f"methods: {', '.join(manifest['methods'])}")
        print(table(rows))


if __name__ == "__main__":
    main()
