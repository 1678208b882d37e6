"""The experiment runner: datasets x methods x budgets x folds x repeats.

Five concepts, one subpackage or module each, each importing only the ones
before it (the plan's :mod:`.plan.tuning` excepted: it runs inner
experiments through 3 and 4):

1. :mod:`.identity`: the one place that describes a task and keys it for
   the cache (selection and fit keys, the code identity of the plug-ins a
   task runs, the code records of a run, seeds);
2. :mod:`.plan`: :func:`plan_experiment` (:mod:`.plan.grid`) validates the
   whole config (:mod:`.plan.prepare`; a bad config raises
   :class:`~mlfs_core.errors.ConfigError` before any work), checks the run's
   bounds (:mod:`.plan.bounds`) and lists the tasks of a :class:`Plan`: one
   *selection* per (dataset, method, fold, repeat), ranking the training
   part's features once at the largest budget (smaller budgets are prefixes
   of that ranking), and one *fit* per selection and budget, the classifier
   trained on the training part's top-k columns and scored on the test part;
   :func:`plan_tuned` (:mod:`.plan.tuning`) is :func:`plan_experiment` for a
   config whose methods give options as grids: it first chooses each grid's
   value per dataset and fold on an inner split of the training part;
3. :mod:`.execute`: :func:`execute_plan` (:mod:`.execute.run`) runs the
   tasks (:mod:`.execute.tasks`) or fetches them from the on-disk cache
   through the task pool (:mod:`.execute.pool`, :mod:`.execute.stops`,
   :mod:`.execute.cluster`) and returns an :class:`Outcome`; every task's
   result is written to the cache as soon as it finishes, so a rerun or an
   interrupted run (exception, KeyboardInterrupt) resumes without
   recomputing. Fits on a column set already fitted for the same fold are
   reused, and protocol B runs all budgets of a ranking in one task
   (:mod:`.execute.fits`);
4. :mod:`.results`: :func:`result_tables` (:mod:`.results.tables`) collects
   the tidy tables of an :class:`ExperimentResult`, which
   :mod:`mlfs_core.evaluation.outputs` writes to disk; ``mlfs verify``
   recomputes them (:mod:`.results.verify`) and explains a difference
   (:mod:`.results.diagnose`);
5. :mod:`.guard`: what guards a run without being part of it: one writer
   per output folder (:mod:`.guard.lock`) and no plug-in code run that the
   user did not choose (:mod:`.guard.trust`).

:func:`run_experiment` is plan, execute, results in a row (planning by
:func:`plan_tuned`). Parallelism: tasks go through :class:`joblib.Parallel`
with ``n_jobs``; results do not depend on ``n_jobs``. To run on a Dask
cluster use :func:`mlfs_core.evaluation.runner.execute.cluster.dask_backend`
(or ``mlfs experiment --scheduler ADDRESS``); this process still writes the
cache. The runner reads no environment variable: the ``mlfs`` command and
the app read ``MLFS_REUSE_UNIDENTIFIED`` and ``MLFS_PLUGINS`` and pass their
values down (``reuse_unidentified``, ``chosen``).
"""

from __future__ import annotations

from ..config import ExperimentConfig
from .execute.run import Outcome, Progress, execute_plan
from .plan.grid import FitTask, Plan, SelectionTask, plan_experiment
from .plan.tuning import plan_tuned
from .results.tables import ExperimentResult, environment, result_tables

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
    reuse_unidentified: bool = False,
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
    reuse_unidentified : bool, default=False
        Reuse the cached values of code without an identity (a lambda typed
        in a notebook) across processes
        (:func:`~mlfs_core.evaluation.runner.identity.code_identity`).

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
    plan = plan_tuned(
        config,
        cache_dir=cache_dir,
        n_jobs=n_jobs,
        progress=progress,
        reuse_unidentified=reuse_unidentified,
    )
    outcome = execute_plan(plan, cache_dir=cache_dir, n_jobs=n_jobs, progress=progress)
    return result_tables(outcome)
