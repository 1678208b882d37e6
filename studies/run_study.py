"""Run one of the reproduction studies dataset by dataset, resumably.

Usage (from the project root)::

    python -m studies.run_study paper000 --datasets emotions,flags [--jobs 2]
    python -m studies.run_study paper001            # every dataset of the config
    python -m studies.run_study paper000 --datasets delicious --export-only

(``python studies/run_study.py ...`` works too.) For each dataset the study's
config (``configs/study_<study>.toml``) is run with that dataset alone through
:func:`mlfs_core.run_experiment`, with the task cache in ``results/cache`` (not
committed; ``--cache`` to choose), so an interrupted run resumes where it
stopped. A dataset's finished tasks are also exported while it runs, as
committed partial data in ``studies/<study>/partial/<dataset>/``
(:mod:`studies.partial`), and imported into the cache before it runs: a run
started on another machine from a checkout computes only the missing tasks.
The compact per-dataset outputs go to ``studies/<study>/data/<dataset>/`` when
the dataset completes:

- ``results.csv.gz``: the tidy results with stochastic repeats averaged
  (paper 000 averages RaR/Random over its 3 runs), one row per
  (method, budget, fold, metric);
- ``similarity.csv``: Kuncheva index between methods at the study's middle
  budget, averaged over folds (long form: method_a, method_b, value);
- ``selections.csv.gz``: each method's ranking per fold (first repeat),
  truncated to the similarity budget (paper 000: 50 % of M; paper 001: the
  top 50), features space-separated, for the app's Similarity page;
- ``timings.csv``: seconds spent in selection and in classifier fits per method;
- ``meta.json``: dataset statistics, wall time, library versions.

``python -m studies.report`` then builds the tables, figures and
``docs/reproduction.md`` of every study from whatever datasets are done (a
dataset in progress is listed as such, in no table).
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

import mlfs_core  # first: it pins OpenBLAS's kernel before numpy loads

# isort: split
import numpy as np
import pandas as pd

from mlfs_core.analysis import similarity_matrix
from mlfs_core.columns import (
    DATASET,
    MAX_N_ITER,
    METHOD,
    N_FITTED,
    N_NOT_CONVERGED,
    REUSED,
    VALUE,
)
from mlfs_core.evaluation import load_config, middle_budget, run_experiment
from mlfs_core.evaluation.outputs import (
    compact_results,
    compact_selections,
    write_table,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = ROOT / "results" / "cache"


def study_config(study: str, root: Path = ROOT):
    """The config of a study: ``<root>/configs/study_<study>.toml``."""
    return load_config(root / "configs" / f"study_{study}.toml")


def list_studies() -> list[str]:
    """Study names: the ``configs/study_<name>.toml`` files."""
    return sorted(
        p.stem[len("study_") :] for p in (ROOT / "configs").glob("study_*.toml")
    )


def dataset_key(spec) -> str:
    return Path(spec.path).name


def similarity_long(selections: pd.DataFrame, protocol) -> pd.DataFrame:
    """Kuncheva index between methods at the protocol's middle budget, long form."""
    middle = middle_budget(protocol)
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
    code: dict | None = None,
    checkpoint=None,
) -> Path:
    """Run ``config`` on the dataset ``spec`` and write its compact files.

    The task cache defaults to ``results/cache``; ``code`` is the run's
    :func:`code_version` (taken now by default); ``checkpoint()``, if given,
    is called after every task (``main`` exports the partial data from it).
    Returns the output folder.
    """
    name = dataset_key(spec)
    out = out_root / name
    out.mkdir(parents=True, exist_ok=True)
    one = replace(config, datasets=(spec,))
    start = time.perf_counter()
    result = run_experiment(
        one,
        cache_dir=cache_dir if cache_dir is not None else DEFAULT_CACHE,
        n_jobs=jobs,
        progress=_progress_lines(study, name, checkpoint),
    )
    wall = time.perf_counter() - start
    _write_tables(result, config.protocol, out)
    ds = mlfs_core.load_dataset(
        ROOT / spec.path if not Path(spec.path).is_absolute() else spec.path
    )
    code = code_version() if code is None else code
    meta = _meta(study, name, ds, result, wall=wall, jobs=jobs, code=code, out=out)
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    return out


def _progress_lines(study: str, name: str, checkpoint=None):
    """The ``progress`` callback of :func:`run_one`: a line on stderr every 30 s
    (and at the end), then ``checkpoint()`` if given, after every task."""
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
        if checkpoint is not None:
            checkpoint()

    return progress


def _write_tables(result, protocol, out: Path) -> None:
    """The compact files of one dataset's ``result`` in ``out``: results,
    similarity, selections and timings."""
    write_table(compact_results(result.results), out / "results.csv.gz")
    write_table(similarity_long(result.selections, protocol), out / "similarity.csv")
    write_table(
        compact_selections(result.selections, protocol), out / "selections.csv.gz"
    )
    write_table(timing_summary(result.timings), out / "timings.csv")


def _meta(
    study: str, name: str, ds, result, *, wall: float, jobs: int, code: dict, out: Path
) -> dict:
    """``meta.json`` of one dataset's run: its stats, time, workers, versions and
    BLAS. A rerun served from the cache (same engine, shorter wall time) keeps
    the wall time, workers and code version of the earlier ``out/meta.json``."""
    previous = out / "meta.json"
    workers = jobs
    if previous.exists():  # a rerun served from the cache keeps the real compute run
        before = json.loads(previous.read_text())
        same_engine = before.get("code_version", {}).get("engine") == code["engine"]
        if same_engine and before.get("wall_seconds_this_run", 0) > wall:
            # the earlier run did the work: keep its wall time, workers and commit
            wall = before["wall_seconds_this_run"]
            code = before["code_version"]
            workers = before.get("n_jobs", jobs)
    return {
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
        "blas": blas_record(result.environment),
    }


def blas_record(environment: dict) -> dict:
    """What ``meta.json`` records of the BLAS: the kernel the fits ran under.

    Parameters
    ----------
    environment : dict
        :attr:`mlfs_core.evaluation.ExperimentResult.environment`.

    Returns
    -------
    dict
        ``kernel`` (the fits' kernels joined by ``+``, or this process's when
        the classifier follows none; ``mlfs verify`` compares it),
        ``fit_kernels``, ``pinned`` and ``libraries`` (name, version, kernel).

    Examples
    --------
    >>> env = {"blas": {"kernel": "openblas/Haswell", "pinned": "Haswell",
    ...                 "libraries": []}, "fit_kernels": ["openblas/Haswell"]}
    >>> blas_record(env)["kernel"]
    'openblas/Haswell'
    """
    process = environment.get("blas", {})
    fits = list(environment.get("fit_kernels", []))
    return {
        "kernel": "+".join(fits) if fits else process.get("kernel"),
        "fit_kernels": fits,
        "pinned": process.get("pinned"),
        "libraries": process.get("libraries", []),
    }


def code_version() -> dict:
    """The engine version that produced a result: package, cache and git commit.

    Results of two code versions are never mixed in one table: the report
    checks that every dataset of a study has the same ``engine`` value.
    ``git`` runs here, when a run starts, never at import.
    """
    from mlfs_core.cache import engine_id

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
        "engine": engine_id(),
        "commit": commit,
    }


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
    """Command line entry: run (or export) the study's datasets one by one.

    Before a dataset runs, its partial data (``studies/<study>/partial/<dataset>``,
    see :mod:`studies.partial`) is imported into the task cache, so only the
    missing tasks are computed; while it runs, the finished tasks are exported
    there every ``--export-every`` minutes and once more at the end (also when
    the run stops on an error or Ctrl-C).
    """
    from studies.partial import import_partial, plan_tasks

    parser = _parser()
    args = parser.parse_args(argv)
    if args.export_every <= 0:
        parser.error(f"--export-every must be positive, got {args.export_every}")
    config = study_config(args.study, args.root)
    specs = _chosen_specs(parser, config, args.datasets)
    out_root = args.root / "studies" / args.study / "data"
    code = code_version()  # taken once, when the run starts
    for spec in specs:
        name = dataset_key(spec)
        tasks = plan_tasks(replace(config, datasets=(spec,)))
        folder = partial_folder(args.study, name, args.root)
        if args.export_only:
            _export_only(args, name, tasks, folder)
            continue
        # the parent's CPU time is the run's only when the tasks run in it
        export = _exporter(
            args.study, name, tasks, args.cache, folder, measure=args.jobs == 1
        )
        written = import_partial(tasks, folder, args.cache, engine=code["engine"])
        if written:
            print(f"{name}: {written} finished tasks imported from {folder}")
        _record(args.study, name, code, args.cache, args.jobs)
        t0 = time.perf_counter()
        try:
            out = run_one(
                args.study,
                config,
                spec,
                jobs=args.jobs,
                out_root=out_root,
                cache_dir=args.cache,
                code=code,
                checkpoint=_every(args.export_every * 60, export),
            )
        finally:  # also when interrupted: what is done is exported
            export()
        print(f"{name}: done in {time.perf_counter() - t0:.0f} s -> {out}")
    return 0


def _export_only(args, name: str, tasks, folder: Path) -> None:
    """``--export-only`` on the dataset ``name``: export its finished tasks to
    ``folder`` and print what was written."""
    # only a named process's CPU time is the run's, never this one's
    export = _exporter(
        args.study,
        name,
        tasks,
        args.cache,
        folder,
        args.cpu_of,
        measure=args.cpu_of is not None,
    )
    print(f"{name}: {_describe(export())} -> {folder}")


def _chosen_specs(parser, config, datasets: str | None) -> list:
    """The dataset specs of ``config`` named in ``datasets`` (comma-separated
    folder names; all when None), in the config's order; a name the config
    lacks is a usage error of ``parser``."""
    wanted = datasets.split(",") if datasets else None
    specs = [s for s in config.datasets if wanted is None or dataset_key(s) in wanted]
    unknown = set(wanted or ()) - {dataset_key(s) for s in specs}
    if unknown:
        parser.error(f"not in the study config: {sorted(unknown)}")
    return specs


def _parser() -> argparse.ArgumentParser:
    """The command line of :func:`main`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", choices=list_studies())
    parser.add_argument(
        "--datasets", help="comma-separated folder names (default: all)"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--cache",
        type=Path,
        default=DEFAULT_CACHE,
        help="task cache folder (default: results/cache)",
    )
    parser.add_argument(
        "--export-every",
        type=float,
        default=30.0,
        metavar="MINUTES",
        help="export the finished tasks this often while running (default: 30)",
    )
    parser.add_argument(
        "--export-only",
        action="store_true",
        help="only export the finished tasks found in the cache, run nothing",
    )
    parser.add_argument(
        "--cpu-of",
        type=int,
        metavar="PID",
        help="with --export-only: record the CPU time of the running process PID "
        "(a run with --jobs 1)",
    )
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    return parser


def partial_folder(study: str, dataset: str, root: Path = ROOT) -> Path:
    """The folder of a dataset's committed partial data (:mod:`studies.partial`)."""
    return root / "studies" / study / "partial" / dataset


def _exporter(
    study: str,
    dataset: str,
    tasks,
    cache_dir: Path,
    folder: Path,
    pid: int | None = None,
    *,
    measure: bool = True,
):
    """A callable exporting the dataset's finished tasks, with the CPU time of
    the computing process (if ``measure``): this one, or ``pid``
    (``--export-only --cpu-of PID``, for a run with one job).
    """
    from studies.partial import export_partial, process_cpu_seconds

    def export():
        cpu = process_cpu_seconds(pid) if measure else None
        return export_partial(
            tasks, cache_dir, folder, study=study, dataset=dataset, cpu_seconds=cpu
        )

    return export


def _record(study: str, dataset: str, code: dict, cache_dir: Path, jobs: int) -> None:
    from mlfs_core.blas import kernel_id
    from studies.partial import record_run

    record_run(
        cache_dir,
        study=study,
        dataset=dataset,
        engine=code["engine"],
        commit=code["commit"],
        kernel=kernel_id(),
        jobs=jobs,
    )


def _every(seconds: float, action):
    """A callable that runs ``action()`` at most once per ``seconds``."""
    last = [time.monotonic()]

    def maybe():
        now = time.monotonic()
        if now - last[0] >= seconds:
            last[0] = now
            action()

    return maybe


def _describe(progress) -> str:
    return (
        f"{progress.done} of {progress.total} tasks exported, "
        f"{progress.compute_seconds:.0f} core-s, {progress.wall_seconds:.0f} s wall"
    )


if __name__ == "__main__":
    if not __package__:  # python studies/run_study.py: make the package importable
        sys.path.insert(0, str(ROOT))
    sys.exit(main())
