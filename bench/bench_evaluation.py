"""Benchmark of the experiment runner on the shared datasets (not a timed test).

Protocol A (paper 000): the 8 CS/BNS methods plus Random and AF on medical and
enron, 10 folds, budgets 10..90 %, BR + LinearSVC. Protocol B (paper 001): the
ten information-theoretic methods on emotions and yeast, own or 60/40 split,
k = 1..50, ML-kNN. Prints the wall time of each (dataset, protocol) run and
the share of task time spent in selection vs classifier fit + predict.

Usage (from the project root)::

    python bench/bench_evaluation.py [--jobs N] [--only A|B] [--datasets DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import pandas as pd

from mlfs_core import list_methods
from mlfs_core.evaluation.config import ExperimentConfig, protocol_a, protocol_b
from mlfs_core.evaluation.runner import run_experiment

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
PAPER000 = list_methods("score-aggregation")  # the eight CS/BNS methods


def _runs(only: str | None):
    if only in (None, "A"):
        methods = [*PAPER000, "Random", "AF"]
        for name in ("medical", "enron"):
            yield (
                name,
                ExperimentConfig(
                    datasets=[str(DATASETS / name)],
                    methods=methods,
                    protocol=protocol_a(),
                    name=f"bench-A-{name}",
                ),
            )
    if only in (None, "B"):
        methods = list_methods("information-theoretic")
        for name in ("emotions", "yeast"):
            yield (
                name,
                ExperimentConfig(
                    datasets=[str(DATASETS / name)],
                    methods=methods,
                    protocol=protocol_b(),
                    name=f"bench-B-{name}",
                ),
            )


def _row(name: str, config: ExperimentConfig, jobs: int) -> dict:
    start = time.perf_counter()
    result = run_experiment(config, n_jobs=jobs)
    wall = time.perf_counter() - start
    t = result.timings
    selection = t.loc[t["stage"] == "selection", "seconds"].sum()
    classifier = t.loc[t["stage"].isin(["fit", "predict"]), "seconds"].sum()
    metrics = t.loc[t["stage"] == "metrics", "seconds"].sum()
    busy = selection + classifier + metrics
    return {
        "protocol": config.protocol.name,
        "dataset": name,
        "jobs": jobs,
        "selections": int((t["stage"] == "selection").sum()),
        "fits": int((t["stage"] == "fit").sum()),
        "wall_s": round(wall, 1),
        "selection_s": round(selection, 1),
        "classifier_s": round(classifier, 1),
        "selection_share": round(selection / busy, 3) if busy else 0.0,
        "metrics_s": round(metrics, 1),
        "classifier_share": round(classifier / busy, 3) if busy else 0.0,
        "metrics_share": round(metrics / busy, 3) if busy else 0.0,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", choices=["A", "B"])
    args = parser.parse_args(argv)
    rows = []
    for name, config in _runs(args.only):
        rows.append(_row(name, config, args.jobs))
        print(pd.DataFrame(rows[-1:]).to_string(index=False), file=sys.stderr)
    print(pd.DataFrame(rows).to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
