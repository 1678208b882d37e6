"""Run one of the reproduction studies dataset by dataset, resumably.

Usage (from the project root)::

    python studies/run_study.py paper000 --datasets emotions,flags [--jobs 2]
    python studies/run_study.py paper001            # every dataset of the config

For each dataset the study's config (``configs/study_<study>.toml``) is run
with that dataset alone through :func:`mlfs_core.run_experiment`, with the
task cache in ``results/cache`` (not committed), so an interrupted run resumes
where it stopped. The compact per-dataset outputs go to
``studies/<study>/data/<dataset>/``:

- ``results.csv.gz``: the tidy results with stochastic repeats averaged
  (paper 000 averages RaR/RFS over its 3 runs), one row per
  (method, budget, fold, metric);
- ``similarity.csv``: Kuncheva index between methods at the study's middle
  budget, averaged over folds (long form: method_a, method_b, value);
- ``selections.csv.gz``: each method's ranking per fold (first repeat),
  truncated to the similarity budget (paper 000: 50 % of M; paper 001: the
  top 50), features space-separated, for the app's Similarity page;
- ``timings.csv``: seconds spent in selection and in classifier fits per method;
- ``meta.json``: dataset statistics, wall time, library versions.

``python studies/report.py`` then builds the tables, figures and
``docs/reproduction.md`` of every study from whatever datasets are done.
The project must be installed (``pip install -e .``); the studies are
``configs/study_*.toml``.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

import mlfs_core
from mlfs_core._validation import budget_from_percent
from mlfs_core.analysis import similarity_matrix
from mlfs_core.columns import (
    DATASET,
    FEATURES,
    MAX_N_ITER,
    METHOD,
    N_FITTED,
    N_NOT_CONVERGED,
    REUSED,
    VALUE,
)
from mlfs_core.evaluation import load_config, run_experiment

ROOT = Path(__file__).resolve().parents[1]
# Reproducible gzip (no timestamp): rewriting unchanged data leaves the file unchanged.
GZIP = {"method": "gzip", "mtime": 0}


def study_config(study: str):
    return load_config(ROOT / "configs" / f"study_{study}.toml")


def list_studies() -> list[str]:
    """Study names: the ``configs/study_<name>.toml`` files."""
    return sorted(
        p.stem[len("study_") :] for p in (ROOT / "configs").glob("study_*.toml")
    )


def dataset_key(spec) -> str:
    return Path(spec.path).name


def compact_results(results: pd.DataFrame) -> pd.DataFrame:
    """Average stochastic repeats: a row per (dataset, method, budget, fold, metric)."""
    keys = [c for c in results.columns if c not in ("repeat", VALUE)]
    return results.groupby(keys, as_index=False, dropna=False, sort=False)[VALUE].mean()


def similarity_long(selections: pd.DataFrame, protocol) -> pd.DataFrame:
    budgets = sorted(protocol.budgets)
    middle = budgets[len(budgets) // 2]
    if protocol.budget_unit == "percent":
        matrix = similarity_matrix(selections, budget_pct=middle)
    else:
        matrix = similarity_matrix(selections, budget=int(middle))
    long = matrix.rename_axis(index="method_a", columns="method_b").stack()
    return (
        long.rename(VALUE)
        .reset_index()
        .assign(budget=middle, unit=protocol.budget_unit)
    )


def compact_selections(selections: pd.DataFrame, protocol) -> pd.DataFrame:
    """First-repeat rankings cut at the similarity budget, features as text."""
    first = selections[selections["repeat"] == 0].copy()
    middle = sorted(protocol.budgets)[len(protocol.budgets) // 2]

    def cut(row):
        m = int(row["n_features"])
        if protocol.budget_unit == "percent":
            k = budget_from_percent(middle, m)
        else:
            k = int(max(protocol.budgets))
        return " ".join(map(str, np.asarray(row[FEATURES])[:k]))

    first[FEATURES] = first.apply(cut, axis=1)
    return first


def timing_summary(timings: pd.DataFrame) -> pd.DataFrame:
    """Seconds per (dataset, method, stage), with the fits' solver state summed.

    ``n_fitted`` and ``n_not_converged`` count per-label classifier fits (and
    those that stopped at ``max_iter``); ``max_n_iter`` is the largest
    iteration count; ``reused`` counts the fits that took the values of an
    identical earlier fit (no time spent).
    """
    if "stage" not in timings.columns:
        return timings
    columns = {"seconds": "sum"}
    for name, how in (
        (N_FITTED, "sum"),
        (N_NOT_CONVERGED, "sum"),
        (MAX_N_ITER, "max"),
        (REUSED, "sum"),
    ):
        if name in timings.columns:
            columns[name] = how
    out = timings.groupby([DATASET, METHOD, "stage"], as_index=False).agg(columns)
    fit_only = (N_FITTED, N_NOT_CONVERGED, MAX_N_ITER, REUSED)
    solver = [c for c in fit_only if c in out.columns]
    out.loc[out["stage"] != "fit", solver] = np.nan  # solver state is a fit's only
    return out


def run_one(
    study: str,
    config,
    spec,
    *,
    jobs: int,
    out_root: Path,
    cache_dir: Path | None = None,
) -> Path:
    """Run ``config`` on the dataset ``spec`` and write its compact files.

    The task cache defaults to ``results/cache``; returns the output folder.
    """
    name = dataset_key(spec)
    out = out_root / name
    out.mkdir(parents=True, exist_ok=True)
    one = replace(config, datasets=(spec,))
    start = time.perf_counter()

    last = [0.0]

    def progress(done, total, message):
        now = time.perf_counter()
        if now - last[0] > 30 or done == total:  # a line every 30 s: readable logs
            last[0] = now
            print(
                f"[{study}/{name}] {done}/{total} {message}",
                file=sys.stderr,
                flush=True,
            )

    result = run_experiment(
        one,
        cache_dir=cache_dir if cache_dir is not None else ROOT / "results" / "cache",
        n_jobs=jobs,
        progress=progress,
    )
    wall = time.perf_counter() - start
    compact_results(result.results).to_csv(
        out / "results.csv.gz", index=False, compression=GZIP
    )
    similarity_long(result.selections, config.protocol).to_csv(
        out / "similarity.csv", index=False
    )
    compact_selections(result.selections, config.protocol).to_csv(
        out / "selections.csv.gz", index=False, compression=GZIP
    )
    timing_summary(result.timings).to_csv(out / "timings.csv", index=False)
    ds = mlfs_core.load_dataset(
        ROOT / spec.path if not Path(spec.path).is_absolute() else spec.path
    )
    previous = out / "meta.json"
    code, workers = CODE_VERSION, jobs
    if previous.exists():  # a rerun served from the cache keeps the real compute run
        before = json.loads(previous.read_text())
        same_engine = before.get("code_version", {}).get("engine") == code["engine"]
        if same_engine and before.get("wall_seconds_this_run", 0) > wall:
            # the earlier run did the work: keep its wall time, workers and commit
            wall = before["wall_seconds_this_run"]
            code = before["code_version"]
            workers = before.get("n_jobs", jobs)
    meta = {
        "dataset": name,
        "stats": {
            k: (float(v) if isinstance(v, float) else int(v))
            for k, v in ds.stats().items()
        },
        "wall_seconds_this_run": round(wall, 1),
        "n_jobs": workers,
        "config": f"configs/study_{study}.toml",
        "python": platform.python_version(),
        "versions": _versions(),
        "code_version": code,
    }
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    return out


def code_version() -> dict:
    """The engine version that produced a result: package, cache and git commit.

    Results of two code versions are never mixed in one table: the report
    checks that every dataset of a study has the same ``engine`` value.
    """
    from mlfs_core.cache import CACHE_VERSION

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {
        "engine": f"{mlfs_core.__version__}+cache{CACHE_VERSION}",
        "commit": commit,
    }


CODE_VERSION = code_version()  # taken once, when the run starts


def _versions() -> dict:
    import numpy
    import scipy
    import sklearn

    return {
        "mlfs_core": mlfs_core.__version__,
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__,
        "pandas": pd.__version__,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", choices=list_studies())
    parser.add_argument(
        "--datasets", help="comma-separated folder names (default: all)"
    )
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    config = study_config(args.study)
    wanted = args.datasets.split(",") if args.datasets else None
    specs = [s for s in config.datasets if wanted is None or dataset_key(s) in wanted]
    unknown = set(wanted or ()) - {dataset_key(s) for s in specs}
    if unknown:
        parser.error(f"not in the study config: {sorted(unknown)}")
    out_root = ROOT / "studies" / args.study / "data"
    for spec in specs:
        t0 = time.perf_counter()
        out = run_one(args.study, config, spec, jobs=args.jobs, out_root=out_root)
        print(f"{dataset_key(spec)}: done in {time.perf_counter() - t0:.0f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
