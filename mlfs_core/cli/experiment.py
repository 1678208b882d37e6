"""The ``mlfs experiment`` and ``mlfs verify`` sub-commands.

``mlfs experiment CONFIG.toml --out DIR [--jobs N] [--cache DIR]`` runs the
grid and writes the files of :func:`mlfs_core.evaluation.outputs.write_outputs`
into ``DIR``; ``--scheduler ADDRESS`` runs the tasks on a Dask cluster
(:mod:`mlfs_core.evaluation.cluster`) while this process still writes the
cache. ``mlfs verify DIR`` recomputes fits of such a folder. A progress line
goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ConfigError
from ..evaluation.config import load_config
from ..evaluation.outputs import write_outputs
from ..evaluation.runner import run_experiment
from ._base import jobs, progress


def add_experiment_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``experiment`` sub-command to an argparse ``subparsers`` object."""
    p = subparsers.add_parser(
        "experiment",
        help="run an experiment grid from a TOML config and write result tables",
    )
    p.add_argument("config", help="experiment config (TOML), see configs/")
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--jobs", type=jobs, default=1, help="parallel workers (-1 = all)")
    p.add_argument("--cache", help="task cache folder (default OUT/cache)")
    p.add_argument("--no-cache", action="store_true", help="do not cache task results")
    p.add_argument(
        "--scheduler",
        help="run the tasks on the Dask scheduler at this address "
        "(tcp://host:8786); this process still writes the cache",
    )
    p.set_defaults(func=run_experiment_command)
    return p


def add_verify_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``verify`` sub-command (recompute an experiment's tasks)."""
    p = subparsers.add_parser(
        "verify",
        help="recompute an experiment's fits (a sample or all) from DIR/config.toml "
        "and report the largest difference from DIR/results.csv",
    )
    p.add_argument("dir", help="an output folder of `mlfs experiment`")
    p.add_argument(
        "--sample", type=int, help="number of fits to recompute (default all)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the sample")
    p.add_argument("--jobs", type=jobs, default=1, help="parallel workers (-1 = all)")
    p.add_argument("--out", help="write the comparison table (CSV) here")
    p.set_defaults(func=run_verify_command)
    return p


def run_verify_command(args: argparse.Namespace) -> int:
    """Run ``mlfs verify``: exit 0 when every value is identical, 1 otherwise."""
    from .. import blas
    from ..evaluation.runner.verify import load_stored, verify_experiment

    if args.sample is not None and args.sample < 1:
        raise ConfigError(f"--sample must be at least 1, got {args.sample}")
    stored = load_stored(args.dir)
    result = verify_experiment(
        with_splits_dir(stored.config),
        stored.results,
        sample=args.sample,
        seed=args.seed,
        n_jobs=args.jobs,
        progress=progress,
    )
    print(file=sys.stderr)
    if args.out:
        result.table.to_csv(args.out, index=False)
    print(kernel_note(result.kernel, stored.recorded_kernel, blas.pinned_kernel()))
    verdict = "identical" if result.identical else "DIFFERENT"
    print(
        f"recomputed {result.n_fits} of {result.n_fits_total} fits "
        f"({len(result.table)} values): largest absolute difference "
        f"{result.max_abs_diff:.3g}; {verdict}"
    )
    return 0 if result.identical else 1


def kernel_note(kernel: str | None, recorded: str | None, pinned: str | None) -> str:
    """One line saying which BLAS kernel ``mlfs verify`` recomputed under.

    Examples
    --------
    >>> kernel_note(None, None, "Haswell")
    'BLAS kernel: the classifier does not depend on it'
    >>> kernel_note("openblas/Haswell", "openblas/Haswell", "Haswell")
    'BLAS kernel: recomputed under openblas/Haswell (pinned), as recorded'
    """
    if kernel is None:
        return "BLAS kernel: the classifier does not depend on it"
    how = "pinned" if pinned else "not pinned: MLFS_BLAS_KERNEL=native"
    line = f"BLAS kernel: recomputed under {kernel} ({how})"
    if recorded is None:
        return line + "; none was recorded with the values"
    if recorded == kernel:
        return line + ", as recorded"
    return (
        line + f"; the values were recorded under {recorded}, so the "
        "kernel-dependent fits may differ in the last bits: recompute under "
        f"that kernel with MLFS_BLAS_KERNEL={recorded.split('/')[-1]}"
    )


def with_splits_dir(config, environ=None):
    """``config`` with ``protocol.splits_dir`` from ``$MLFS_SPLITS`` when it has none.

    The command line is the one place that reads this environment variable
    (the engine takes the folder from the config only).

    Examples
    --------
    >>> from mlfs_core.evaluation import ExperimentConfig
    >>> c = ExperimentConfig(datasets=("sample",), methods=("MaxCS",))
    >>> with_splits_dir(c, {"MLFS_SPLITS": "/data/splits"}).protocol.splits_dir
    '/data/splits'
    >>> with_splits_dir(c, {}).protocol.splits_dir is None
    True
    """
    import os
    from dataclasses import replace

    folder = (os.environ if environ is None else environ).get("MLFS_SPLITS")
    if not folder or config.protocol.splits_dir is not None:
        return config
    return replace(config, protocol=replace(config.protocol, splits_dir=folder))


def run_experiment_command(args: argparse.Namespace) -> int:
    """Run ``mlfs experiment``; returns the exit status (ConfigError propagates)."""
    config = with_splits_dir(load_config(args.config))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cache = None if args.no_cache else (args.cache or out / "cache")
    if getattr(args, "scheduler", None):
        from ..evaluation.runner.cluster import dask_backend

        with dask_backend(args.scheduler):
            n_jobs = -1 if args.jobs == 1 else args.jobs
            result = run_experiment(
                config, cache_dir=cache, n_jobs=n_jobs, progress=progress
            )
    else:
        result = run_experiment(
            config, cache_dir=cache, n_jobs=args.jobs, progress=progress
        )
    print(file=sys.stderr)
    written = write_outputs(result, out)
    print(f"wrote {len(written)} files to {out}")
    return 0
