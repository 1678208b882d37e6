"""The ``mlfs experiment`` and ``mlfs verify`` sub-commands.

``mlfs experiment CONFIG.toml --out DIR [--jobs N] [--cache DIR]`` runs the
grid and writes the files of :func:`mlfs_core.report.write_outputs`
into ``DIR`` (a ``README.md`` there describes each); ``--scheduler ADDRESS``
runs the tasks on a Dask cluster
(:mod:`mlfs_core.evaluation.runner.execute.cluster`) while this process still
writes the cache. ``mlfs verify DIR`` recomputes fits of
such a folder. A progress line and the warnings (dense data under
presence-based methods, :mod:`mlfs_core.evaluation.dense`) go to stderr.

A ``DIR`` that holds files already needs ``--overwrite``; a ``DIR`` another
run is writing is refused (its lock file ``.mlfs-lock`` names that run). No
failure deletes finished work: the output files are written only once every
task has run, and a run that fails (a method's error, a full disk) keeps
every finished task in its cache, wherever that is, and says under its error
line how many it kept and the command that resumes from them (the same
command). Ctrl-C, SIGTERM and SIGHUP end the workers, keep the cache and
print one line (``stopped: 41 of 90 tasks done, kept in DIR/cache; rerun the
same command to resume: mlfs experiment ...``). Only ``--overwrite`` (the
output files) and ``mlfs clean DIR`` (:mod:`.clean`) remove results. Before
the output files are written, an estimate of their size is checked against
the free space. ``--max-tasks`` and ``--max-memory`` raise the bounds a run
is checked against before it starts. ``mlfs verify`` refuses a folder whose
config names plug-in code unless ``--trust-plugins``, and says whether a
difference comes from changed plug-in code or from an edited table.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from ..errors import ConfigError
from ._base import (
    chosen_plugins,
    jobs,
    one_line,
    progress,
    reuse_unidentified,
    with_splits_dir,
)

# The engine's modules are imported inside the functions that use them, so
# that building the parser (``mlfs --help``) imports neither pandas nor
# scikit-learn.


def add_experiment_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``experiment`` sub-command to an argparse ``subparsers`` object."""
    p = subparsers.add_parser(
        "experiment",
        help="run an experiment grid from a TOML config and write result tables",
    )
    p.add_argument("config", help="experiment config (TOML), see configs/")
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the output files of an --out folder that holds files already",
    )
    p.add_argument(
        "--summary-metric",
        action="append",
        metavar="METRIC[,METRIC...]",
        help="metric(s) summary.md reports (repeatable; default micro_f1)",
    )
    p.add_argument("--jobs", type=jobs, default=1, help="parallel workers (-1 = all)")
    p.add_argument("--cache", help="task cache folder (default OUT/cache)")
    p.add_argument("--no-cache", action="store_true", help="do not cache task results")
    p.add_argument(
        "--scheduler",
        help="run the tasks on the Dask scheduler at this address "
        "(tcp://host:8786); this process still writes the cache",
    )
    _add_limit_options(p)
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
    p.add_argument(
        "--trust-plugins",
        action="store_true",
        help="import the plug-in code DIR's config names (refused without it, "
        "unless installed as an entry point)",
    )
    _add_limit_options(p)
    p.set_defaults(func=_run_verify_command)
    return p


def _add_limit_options(p: argparse.ArgumentParser) -> None:
    """Add ``--max-tasks`` and ``--max-memory`` (the run's bounds) to ``p``."""
    # the default of evaluation.runner.plan.bounds.DEFAULT_MAX_TASKS, written out:
    # importing the runner here would cost --help a second (a test checks them)
    p.add_argument(
        "--max-tasks",
        type=_positive_int,
        help="refuse a grid of more tasks (default 1,000,000)",
    )
    p.add_argument(
        "--max-memory",
        type=_size,
        metavar="SIZE",
        help="refuse a run whose largest allocation is estimated above SIZE "
        "(e.g. 4G; default half the physical memory)",
    )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def _size(text: str) -> int:
    from ..evaluation.runner.plan.bounds import parse_size

    try:
        return parse_size(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _run_verify_command(args: argparse.Namespace) -> int:
    """Run ``mlfs verify``: exit 0 when every value is identical, 1 otherwise.

    Before the verdict, one line per plug-in whose code differs from the
    identity the run recorded, and one naming the cells no such change
    explains (the table was edited):
    :mod:`~mlfs_core.evaluation.runner.results.diagnose`.
    """
    from .. import blas
    from ..evaluation.runner.results import verify
    from ..evaluation.runner.results.diagnose import code_changes, diagnose

    if args.sample is not None and args.sample < 1:
        raise ConfigError(f"--sample must be at least 1, got {args.sample}")
    trust = getattr(args, "trust_plugins", False)
    stored = verify.load_stored(
        args.dir, trust_plugins=trust, chosen_plugins=chosen_plugins()
    )
    _print_plugins(stored.config)
    result = verify.verify_experiment(
        with_splits_dir(stored.config),
        stored.results,
        sample=args.sample,
        seed=args.seed,
        n_jobs=args.jobs,
        progress=progress,
        max_tasks=getattr(args, "max_tasks", None),
        max_memory=getattr(args, "max_memory", None),
        tuning=stored.tuning,
        reuse_unidentified=reuse_unidentified(),
    )
    print(file=sys.stderr)
    for line in verify.tuning_lines(result.tuning):
        print(line)
    if args.out:
        result.table.to_csv(args.out, index=False)
    print(_kernel_note(result.kernel, stored.recorded_kernel, blas.pinned_kernel()))
    found = diagnose(
        result,
        code_changes(stored.plugins, stored.config),
        stored.config,
        stored.results_file,
    )
    for line in found.lines:
        print(line)
    print(_verdict_line(result, stored, found.verdict))
    return 0 if result.identical else 1


def _verdict_line(result, stored, verdict: str | None) -> str:
    """``recomputed N of M fits (...): largest absolute difference D; identical``,
    or ``DIFFERENT`` with why (the diagnosis' ``verdict``)."""
    said = "identical" if result.identical else "DIFFERENT"
    why = {
        "code": " (the plug-in code changed)",
        "table": " (the table was edited)",
        "both": " (the plug-in code changed and the table was edited)",
    }
    if not result.identical and stored.plugins is None and stored.config.plugins:
        why["table"] = " (no plug-in code identity was recorded with these values)"
    return (
        f"recomputed {result.n_fits} of {result.n_fits_total} fits "
        f"({len(result.table)} values): largest absolute difference "
        f"{result.max_abs_diff:.3g}; {said}{why.get(verdict, '')}"
    )


def _kernel_note(kernel: str | None, recorded: str | None, pinned: str | None) -> str:
    """One line saying which BLAS kernel ``mlfs verify`` recomputed under.

    Examples
    --------
    >>> _kernel_note(None, None, "Haswell")
    'BLAS kernel: the classifier does not depend on it'
    >>> _kernel_note("openblas/Haswell", "openblas/Haswell", "Haswell")
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


def _metric_names(values: Sequence[str] | None) -> tuple[str, ...] | None:
    """Metric names from ``--summary-metric`` values (repeatable, comma lists).

    Examples
    --------
    >>> _metric_names(["micro_f1,hamming_loss", "macro_f1", "micro_f1"])
    ('micro_f1', 'hamming_loss', 'macro_f1')
    >>> _metric_names(None) is None
    True
    """
    if not values:
        return None
    names = [n.strip() for item in values for n in item.split(",") if n.strip()]
    return tuple(dict.fromkeys(names)) or None


def run_experiment_command(args: argparse.Namespace) -> int:
    """Run ``mlfs experiment``; returns the exit status (ConfigError propagates).

    The output folder is locked while the run writes there
    (:mod:`~mlfs_core.evaluation.runner.guard.lock`). SIGINT, SIGTERM and SIGHUP
    stop the run cleanly: the workers end, every finished task stays in the
    cache, one line says how many were done, where they are kept and the
    command that resumes, and the status is 130, 143 or 129
    (:mod:`~mlfs_core.evaluation.runner.execute.stops`). Any other failure once tasks
    ran keeps them too, and the error gets a note saying how many are kept
    and the command that resumes (:func:`_add_note`). Nothing holding a file
    is removed; a folder the run created and left empty is.
    """
    from ..evaluation.runner.execute.stops import (
        exit_status,
        shutdown_workers,
        stop_on_signals,
    )
    from ..evaluation.runner.guard.lock import FolderBusy, output_lock

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file, not a folder")
    created = not out.exists()
    counts = {"done": 0, "total": None, "planned": False}

    def counted(done: int, total: int, message: str) -> None:
        counts.update(done=done, total=total)
        progress(done, total, message)

    try:
        with stop_on_signals():
            try:
                with output_lock(out, _command_line(args)):
                    return _locked_run(args, out, created, counted, counts)
            finally:
                shutdown_workers()
    except KeyboardInterrupt as exc:
        total = counts["total"]
        of = f" of {total}" if total is not None else ""
        print(
            f"\nstopped: {counts['done']}{of} tasks done{_kept_where(args, out)}; "
            f"rerun the same command to resume: {_resume_command(args)}",
            file=sys.stderr,
        )
        _remove_if_empty(out, created)
        return exit_status(exc)
    except FolderBusy:
        raise  # the folder is the other run's: leave it alone
    except Exception as exc:
        if counts["planned"]:  # tasks ran: say what is kept
            _add_note(exc, _kept_note(args, out, counts["done"]))
        _remove_if_empty(out, created)
        raise


def _add_note(exc: BaseException, text: str) -> None:
    """Add ``text`` to ``exc.__notes__`` (printed under the error line by
    :func:`mlfs_core.cli.main`)."""
    exc.__notes__ = [*getattr(exc, "__notes__", []), text]


def _resume_command(args: argparse.Namespace) -> str:
    """The command that resumes a stopped or failed run: the one that started it.

    ``args.argv`` (set by :func:`mlfs_core.cli.main`) gives it word for word;
    without it, the config, ``--out`` and the options that change where the
    cache is or how the run goes are written out.
    """
    import shlex

    argv = getattr(args, "argv", None)
    if argv is not None:
        return shlex.join(["mlfs", *argv])
    words = ["mlfs", "experiment", str(args.config), "--out", str(args.out)]
    for flag, value in (("--cache", args.cache), ("--scheduler", args.scheduler)):
        if value:
            words += [flag, str(value)]
    if args.jobs != 1:
        words += ["--jobs", str(args.jobs)]
    if args.no_cache:
        words.append("--no-cache")
    return shlex.join(words)


def _cache_dir(args: argparse.Namespace, out: Path) -> Path | None:
    """The run's task cache folder (None with ``--no-cache``)."""
    if args.no_cache:
        return None
    return Path(args.cache) if args.cache else out / "cache"


def _kept_where(args: argparse.Namespace, out: Path) -> str:
    cache = _cache_dir(args, out)
    return " (none kept: --no-cache)" if cache is None else f", kept in {cache}"


def _kept_note(args: argparse.Namespace, out: Path, done: int) -> str:
    """What a failed run kept, and the command that resumes it."""
    cache = _cache_dir(args, out)
    if cache is None:
        return (
            "nothing was kept (--no-cache): once the cause is fixed, this command "
            f"computes every task again: {_resume_command(args)}"
        )
    tasks = f"{done} finished task{'s' if done != 1 else ''}"
    return (
        f"kept: {tasks} in the cache {cache}; once the cause is fixed, rerun the "
        f"same command to resume from them: {_resume_command(args)}"
    )


def _remove_if_empty(out: Path, created: bool) -> None:
    """Remove the folders a failed run created and left empty; never a file.

    A run that created ``out`` and kept no task (a config error, ``--cache``
    elsewhere) leaves no empty folder behind; anything holding a file (a
    finished task) stays.
    """
    if not created:
        return
    for folder in (out / "cache", out):
        try:
            folder.rmdir()
        except OSError:  # not empty, or gone
            pass


def _command_line(args: argparse.Namespace) -> str:
    return f"mlfs experiment {args.config} --out {args.out}"


def _locked_run(
    args: argparse.Namespace, out: Path, created: bool, counted, counts: dict
) -> int:
    """The run proper, under the output folder's lock (``counts["planned"]``
    once the tasks are about to run)."""
    from .._entries import CacheEntryWarning
    from ..evaluation.config import load_config
    from ..evaluation.dense import DenseDataWarning
    from ..evaluation.runner import plan_tuned

    _check_out(out, getattr(args, "overwrite", False), created)
    config = with_splits_dir(load_config(args.config))
    _print_plugins(config)
    metrics = _metric_names(getattr(args, "summary_metric", None))
    unknown = [m for m in metrics or () if m not in config.protocol.metrics]
    if unknown:
        raise ConfigError(
            f"--summary-metric: {', '.join(unknown)} not among the config's "
            f"protocol.metrics ({', '.join(config.protocol.metrics)})"
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DenseDataWarning)
        plan = plan_tuned(  # every config and data error, before any work
            config,  # (a grid's value is chosen first, on inner splits)
            max_tasks=getattr(args, "max_tasks", None),
            max_memory=getattr(args, "max_memory", None),
            cache_dir=None if args.no_cache else (args.cache or out / "cache"),
            n_jobs=args.jobs,
            progress=counted,
            reuse_unidentified=reuse_unidentified(),
        )
    for w in caught:
        print(f"mlfs experiment: warning: {w.message}", file=sys.stderr)
    counts["planned"] = True
    with warnings.catch_warnings():
        warnings.simplefilter("always", CacheEntryWarning)
        warnings.showwarning = _one_line_warning
        result = _run(plan, args, out, counted)
    print(file=sys.stderr)
    written = _write_atomically(result, out, metrics)
    print(f"wrote {len(written)} files to {out}")
    return 0


def _one_line_warning(message, category, filename, lineno, file=None, line=None):
    """Show a warning as one ``mlfs experiment: warning: ...`` line on stderr."""
    print(f"\nmlfs experiment: warning: {one_line(message)}", file=sys.stderr)


def _print_plugins(config) -> None:
    """Say which plug-in files and modules the config imports (stderr)."""
    if config.plugins:
        print(
            f"plug-ins imported from the config: {', '.join(config.plugins)}",
            file=sys.stderr,
        )


def _check_out(out: Path, overwrite: bool, created: bool = False) -> None:
    """Refuse a file, or a folder holding files unless ``overwrite``."""
    from ..evaluation.runner.guard.lock import LOCK_NAME

    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out} is a file, not a folder")
    if out.is_dir() and not overwrite and not created:
        # the default cache alone is what an interrupted run leaves: resume it
        skip = {"cache", LOCK_NAME}
        held = sorted(p.name for p in out.iterdir() if p.name not in skip)
        if held:
            shown = ", ".join(held[:4]) + (" ..." if len(held) > 4 else "")
            raise ConfigError(
                f"--out {out} holds files already ({shown}): pass --overwrite to "
                "replace them, or choose another folder"
            )


def _run(plan, args: argparse.Namespace, out: Path, counted=progress):
    from ..evaluation.runner import execute_plan, result_tables

    cache = _cache_dir(args, out)
    if getattr(args, "scheduler", None):
        from ..evaluation.runner.execute.cluster import dask_backend

        with dask_backend(args.scheduler):
            n_jobs = -1 if args.jobs == 1 else args.jobs
            outcome = execute_plan(
                plan, cache_dir=cache, n_jobs=n_jobs, progress=counted
            )
    else:
        outcome = execute_plan(
            plan, cache_dir=cache, n_jobs=args.jobs, progress=counted
        )
    return result_tables(outcome)


def _write_atomically(result, out: Path, metrics) -> list[Path]:
    """Write every file of ``--out`` through the engine's atomic writer.

    Files of an earlier run that this one does not write (e.g. its
    ``recovery.csv``) are removed; the cache folder is left alone.
    """
    from ..evaluation.outputs import estimate_output_bytes, write_atomically
    from ..report import OUTPUT_FILES, write_outputs

    def write(folder: Path) -> list[Path]:
        return write_outputs(result, folder, summary_metrics=metrics)

    need = estimate_output_bytes(result)
    return write_atomically(out, write, replaces=OUTPUT_FILES, need=need)
