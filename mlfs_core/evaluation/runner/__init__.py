"""The experiment runner: datasets x methods x budgets x folds x repeats.

One module a step, one direction (each imports only the ones before it):

1. :mod:`.planning`: :func:`plan_experiment` validates the whole config (a
   bad config raises :class:`~mlfs_core.errors.ConfigError` before any work)
   and lists the tasks of a :class:`Plan`: one *selection* per (dataset,
   method, fold, repeat), ranking the training part's features once at the
   largest budget (smaller budgets are prefixes of that ranking), and one
   *fit* per selection and budget, the classifier trained on the training
   part's top-k columns and scored on the test part; each task keyed for
   the cache by :mod:`.keys`;
2. :mod:`.execution`: :func:`execute_plan` runs the tasks (or fetches them
   from the on-disk cache) and returns an :class:`Outcome`; every task's
   result is written to the cache as soon as it finishes, so a rerun or an
   interrupted run (exception, KeyboardInterrupt) resumes without
   recomputing;
3. :mod:`.results`: :func:`result_tables` collects the tidy tables of an
   :class:`ExperimentResult`, which :mod:`mlfs_core.evaluation.outputs`
   writes to disk;
4. :mod:`.tuning`: :func:`plan_tuned` is :func:`plan_experiment` for a config
   whose methods give options as grids: it first chooses each grid's value
   per dataset and fold on an inner split of the training part (running the
   inner experiments through 2 and 3).

:func:`run_experiment` is the three in a row (planning by :func:`plan_tuned`).
Parallelism: tasks go through :class:`joblib.Parallel` with ``n_jobs``;
results do not depend on ``n_jobs``. To run on a Dask cluster use
:func:`mlfs_core.evaluation.runner.cluster.dask_backend` (or ``mlfs
experiment --scheduler ADDRESS``); this process still writes the cache. Fits
on a column set already fitted for the same fold are reused, and protocol B
runs all budgets of a ranking in one task (:mod:`.fits`).
"""

from __future__ import annotations

from ..config import ExperimentConfig
from .execution import Outcome, Progress, execute_plan
from .planning import FitTask, Plan, SelectionTask, plan_experiment
from .results import ExperimentResult, environment, result_tables
from .tuning import plan_tuned

__all__ = [
    "ExperimentResult",
    "FitTask",
    "Outcome",
    "Plan",
    "Progress",
    "SelectionTask",
    "environment",
    "execute_plan",
    "plan_experiment",
    "plan_tuned",
    "result_tables",
    "run_experiment",
]


def run_experiment(
    config: ExperimentConfig,
    *,
    cache_dir=None,
    n_jobs: int = 1,
    progress: Progress | None = None,
) -> ExperimentResult:
    """Run an experiment grid and return its tidy result tables.

    The same as ``result_tables(execute_plan(plan_tuned(config, ...), ...))``,
    with a :class:`~mlfs_core.evaluation.dense.DenseDataWarning` for each
    dataset that is dense under a presence-based method (CS, BNS, ...).

    Parameters
    ----------
    config : ExperimentConfig
        Datasets, methods, protocol and seed.
    cache_dir : path, optional
        Folder of the on-disk task cache (default: no cache).
    n_jobs : int, default=1
        Parallel joblib workers (-1 = all cores); results are identical for
        any value.
    progress : callable, optional
        ``progress(done, total, message)`` after every task (cached ones
        included).

    Returns
    -------
    ExperimentResult

    Raises
    ------
    ConfigError
        Before any task runs, for any invalid part of ``config``.

    Warns
    -----
    DenseDataWarning
        Presence-based scores on dense numeric data (the message says what
        to do).
    """
    plan = plan_tuned(config, cache_dir=cache_dir, n_jobs=n_jobs, progress=progress)
    outcome = execute_plan(plan, cache_dir=cache_dir, n_jobs=n_jobs, progress=progress)
    return result_tables(outcome)
