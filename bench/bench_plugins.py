"""Benchmark of what loading a plug-in adds to ``mlfs experiment`` (not a test).

A small study (protocol B's settings on emotions and flags, four built-in
methods, budgets 1..20, no cache) runs with and without ``--plugin FILE``, a
plug-in file that registers one method (not used by the config, so the tasks
are the same), with one process and with two worker processes (which load the
plug-in too). The runs alternate, ``--repeats`` times each, every one a fresh
``mlfs`` process; the table gives each variant's median wall time and the
ratio of the plug-in's median to the one without, measured in the same
invocation. The target is a ratio under 1.05. On a machine shared with
other jobs the run-to-run noise exceeds 5 %, so the script also times
``load_plugins`` of the file alone in a fresh process (what ``--plugin`` adds
to each process that loads it: the parent, and every worker) and gives the
ratio that cost implies.

Usage (from the project root)::

    python bench/bench_plugins.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))

PLUGIN = '''"""A plug-in with one method (for the benchmark)."""
import numpy as np

from mlfs_core.selectors import register


def variance(X, Y, *, k, random_state):
    X = X.toarray()
    return np.argsort(-X.var(axis=0), kind="stable")[:k]


register(variance, name="Variance", version="1")
'''


def config_text() -> str:
    """The small study: protocol B on two small datasets, four filters."""
    paths = "\n".join(
        f'[[datasets]]\npath = "{(DATASETS / d).as_posix()}"'
        for d in ("emotions", "flags")
    )
    return f"""name = "plugin-bench"
seed = 0
methods = ["PPT-MI", "IGMF", "LRFS", "MaxCS"]

[protocol]
name = "B"
split = "holdout"
budgets = [{", ".join(str(k) for k in range(1, 21))}]
budget_unit = "count"
discretize = "uniform"
bins = 3
label_handling = "drop_constant"

[protocol.classifier]
name = "mlknn"
params = {{ k = 10, s = 1.0 }}

{paths}
"""


def one_run(folder: Path, jobs: int, plugin: bool) -> float:
    """Wall time of one ``mlfs experiment`` process (a new output folder each)."""
    out = folder / f"out-{len(list(folder.glob('out-*')))}"
    argv = [sys.executable, "-m", "mlfs_core"]
    if plugin:
        argv += ["--plugin", str(folder / "variance.py")]
    argv += ["experiment", str(folder / "study.toml"), "--no-cache"]
    argv += ["--jobs", str(jobs), "--out", str(out)]
    env = {k: v for k, v in os.environ.items() if k != "MLFS_PLUGINS"}
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"mlfs experiment failed: {proc.stderr.strip()}")
    return wall


LOAD = """
import time
import mlfs_core.evaluation.runner  # what mlfs experiment imports anyway
from mlfs_core.plugins import load_plugins

start = time.perf_counter()
load_plugins([{path!r}], entry_points=False, environment=False)
print(time.perf_counter() - start)
"""


def load_seconds(folder: Path) -> float:
    """Seconds ``load_plugins`` takes for the file, in a fresh process."""
    code = LOAD.format(path=str(folder / "variance.py"))
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return float(proc.stdout.strip())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    variants = [(jobs, plugin) for jobs in (1, 2) for plugin in (False, True)]
    times: dict[tuple[int, bool], list[float]] = {v: [] for v in variants}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "variance.py").write_text(PLUGIN)
        (folder / "study.toml").write_text(config_text())
        one_run(folder, 1, False)  # warm the file system cache once
        for _ in range(args.repeats):
            for jobs, plugin in variants:
                times[(jobs, plugin)].append(one_run(folder, jobs, plugin))
        load = statistics.median(load_seconds(folder) for _ in range(args.repeats))
    rows = []
    for jobs, plugin in variants:
        median = statistics.median(times[(jobs, plugin)])
        base = statistics.median(times[(jobs, False)])
        rows.append(
            {
                "jobs": jobs,
                "plug-in": "--plugin FILE" if plugin else "none",
                "median wall s": round(median, 2),
                "min wall s": round(min(times[(jobs, plugin)]), 2),
                "x without (median)": round(median / base, 3),
                "x without (min)": round(
                    min(times[(jobs, plugin)]) / min(times[(jobs, False)]), 3
                ),
            }
        )
    # each process that loads the plug-in pays the load once: the parent, and
    # each of the jobs > 1 worker processes
    for jobs in (1, 2):
        processes = 1 if jobs == 1 else 1 + jobs
        base = statistics.median(times[(jobs, False)])
        rows.append(
            {
                "jobs": jobs,
                "plug-in": f"load_plugins x {processes} (measured)",
                "median wall s": round(base + processes * load, 3),
                "min wall s": float("nan"),
                "x without (median)": round(1 + processes * load / base, 4),
                "x without (min)": float("nan"),
            }
        )
    print(f"mlfs experiment on a small study, {args.repeats} runs per variant")
    print(f"load_plugins of the file alone: {load * 1000:.1f} ms (median)")
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
