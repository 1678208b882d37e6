"""The experiment runner: datasets x methods x budgets x folds x repeats.

:func:`run_experiment` validates the whole config first (a bad config raises
:class:`~mlfs_core.errors.ConfigError` before any work), then runs two kinds
of task:

1. one *selection* per (dataset, method, fold, repeat): the method ranks the
   training part's features once, at the largest budget; smaller budgets are
   prefixes of that ranking (every method's rankings are nested);
2. one *fit* per selection and budget: the classifier is trained on the
   training part's top-k columns and scored on the test part.

Deterministic methods run once (repeat 0), stochastic ones ``n_repeats``
times with different seeds; ``AF`` (all features) runs no selection and is
evaluated at budget M only. Each task's result is cached on disk under a hash
of everything it depends on (dataset content, split, method, parameters,
fold, seed, budget, classifier, metrics), and written as soon as the task
finishes, so a rerun or an interrupted run (exception, KeyboardInterrupt)
resumes without recomputing.

Parallelism: tasks go through :class:`joblib.Parallel` with ``n_jobs``;
results do not depend on ``n_jobs``. To run on a Dask cluster use
:func:`mlfs_core.evaluation.runner.cluster.dask_backend` (or ``mlfs experiment
--scheduler ADDRESS``); this process still writes the cache. Fits on a column
set already fitted for the same fold are reused, and protocol B runs all
budgets of a ranking in one task (:mod:`mlfs_core.evaluation.runner.fits`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pandas as pd

from ... import blas
from ..._entries import check_selection
from ...cache import DiskCache, hash_key
from ...columns import (
    BUDGET,
    BUDGET_PCT,
    DATASET,
    FEATURES,
    FOLD,
    MAX_N_ITER,
    METHOD,
    METRIC,
    N_FEATURES,
    N_FITTED,
    N_NOT_CONVERGED,
    PROTOCOL,
    REPEAT,
    REUSED,
    SECONDS,
    STAGE,
    VALUE,
)
from ..classifiers import kernel_dependent
from ..config import ExperimentConfig
from .bounds import check_memory, check_task_count
from .fits import execute, fit_key, run_fits, task_seed
from .prepare import PreparedDataset, PreparedMethod, prepare
from .tasks import FitValues, SelectionValues, run_selection

Progress = Callable[[int, int, str], None]
RESULT_COLUMNS = [
    DATASET,
    PROTOCOL,
    METHOD,
    BUDGET,
    BUDGET_PCT,
    FOLD,
    REPEAT,
    METRIC,
    VALUE,
]
SELECTION_COLUMNS = [DATASET, METHOD, FOLD, REPEAT, N_FEATURES, FEATURES]
TIMING_COLUMNS = [
    DATASET,
    METHOD,
    BUDGET,
    FOLD,
    REPEAT,
    STAGE,
    SECONDS,
    N_FITTED,
    N_NOT_CONVERGED,
    MAX_N_ITER,
    REUSED,
]


@dataclass(frozen=True)
class ExperimentResult:
    """Tidy tables of one experiment.

    Attributes
    ----------
    results : DataFrame
        ``dataset, protocol, method, budget, budget_pct, fold, repeat, metric,
        value``; ``budget_pct`` is NaN for count budgets, 100 for AF.
    selections : DataFrame
        ``dataset, method, fold, repeat, n_features, features`` with the
        ranked feature indices (best first, at the largest budget).
    timings : DataFrame
        ``dataset, method, budget, fold, repeat, stage, seconds, n_fitted,
        n_not_converged, max_n_iter`` with stage ``selection``, ``fit``,
        ``predict`` or ``metrics`` (budget NaN for selections). The last three
        columns are set on ``fit`` rows only: per-label classifiers fitted,
        how many stopped at ``max_iter`` without converging, and the largest
        iteration count (NaN when the classifier has no iterative solver).
    config : ExperimentConfig
    environment : dict
        Where the values were computed (:func:`environment`): the engine
        version, this process's BLAS (:func:`mlfs_core.blas.record`) and
        ``fit_kernels``, the BLAS kernels the kernel-dependent fits ran under
        (``"unrecorded"`` for cached fits from before kernels were recorded).
    feature_names : dict
        Dataset name -> its feature names (a tuple of str), so the indices of
        ``selections`` can be named (``selections.csv``'s ``feature_names``).
    """

    results: pd.DataFrame
    selections: pd.DataFrame
    timings: pd.DataFrame
    config: ExperimentConfig
    environment: dict = field(default_factory=dict)
    feature_names: dict = field(default_factory=dict)


@dataclass(frozen=True)
class SelectionTask:
    """One ranking of one dataset's training part: a task of a :class:`Plan`.

    Attributes
    ----------
    dataset : PreparedDataset
    method : PreparedMethod
    fold, repeat : int
    seed : int or None
        The method's seed (stochastic methods), else None.
    k : int
        The ranking's length (the largest budget; M for AF).
    key : str
        The task's cache key (a hash of everything its value depends on).
    """

    dataset: PreparedDataset
    method: PreparedMethod
    fold: int
    repeat: int
    seed: int | None
    k: int
    key: str


class FitTask(NamedTuple):
    """One classifier fit: a selection's top ``k`` columns on its fold.

    Attributes
    ----------
    selection : int
        Index of the :class:`SelectionTask` in :attr:`Plan.selections`.
    k : int
        Budget (number of features).
    pct : float or None
        The budget as a percentage of M, when it was given as one (100 for AF).
    """

    selection: int
    k: int
    pct: float | None


@dataclass(frozen=True)
class Plan:
    """Every task of an experiment, before any runs (:func:`plan_experiment`).

    Attributes
    ----------
    config : ExperimentConfig
    selections : tuple of SelectionTask
    fits : tuple of FitTask
        Ordered by dataset and fold (each fold's data are sliced once).
    """

    config: ExperimentConfig
    selections: tuple
    fits: tuple

    def fit_key(self, i: int) -> str:
        """The cache key of fit ``i``."""
        f = self.fits[i]
        return fit_key(self.selections[f.selection], f.k, self.config)

    def with_fits(self, indices) -> Plan:
        """The same plan restricted to the fits at ``indices`` (in that order).

        The selections stay as they are (so indices into them keep their
        meaning); :func:`execute_plan` runs only those the kept fits need.
        """
        return Plan(self.config, self.selections, tuple(self.fits[i] for i in indices))

    @property
    def needed_selections(self) -> list[int]:
        """Indices of the selections the plan's fits use, ascending."""
        return sorted({f.selection for f in self.fits})


@dataclass(frozen=True)
class Outcome:
    """What :func:`execute_plan` computed for a :class:`Plan`.

    Attributes
    ----------
    plan : Plan
    orders : tuple
        Per selection, ``{"order": [...], "seconds": s}``, or None where the
        plan's fits did not need it.
    fits : tuple of dict
        Per fit: ``metrics`` (name -> value), timings and solver state, as
        the cache stores them; :meth:`fit_values` gives them typed
        (:class:`~.tasks.FitValues`).
    """

    plan: Plan
    orders: tuple
    fits: tuple

    def fit_values(self, i: int) -> FitValues:
        """Fit ``i``'s values, typed."""
        return FitValues.from_dict(self.fits[i])

    def selection_values(self, j: int) -> SelectionValues | None:
        """Selection ``j``'s ranking, typed (None where it did not run)."""
        order = self.orders[j]
        return None if order is None else SelectionValues.from_dict(order)


def plan_experiment(
    config: ExperimentConfig,
    *,
    max_tasks: int | None = None,
    max_memory: int | None = None,
) -> Plan:
    """Validate ``config`` and list every task of its experiment.

    Parameters
    ----------
    config : ExperimentConfig
    max_tasks : int, optional
        Refuse a grid of more tasks (selections plus fits), estimated from the
        config before any dataset is loaded; default
        :data:`~.bounds.DEFAULT_MAX_TASKS`.
    max_memory : int, optional
        Refuse a run whose largest allocation is estimated above this many
        bytes, once the datasets are loaded and before the task grid is built;
        default :func:`~.bounds.default_max_memory` (half the physical memory).

    Returns
    -------
    Plan

    Raises
    ------
    ConfigError
        For any invalid part of ``config``, or a run above the limits, with
        the estimate (before any work).
    """
    check_task_count(config, max_tasks)
    datasets, methods = prepare(config)
    check_memory(datasets, methods, config.protocol, max_memory)
    selections = [s for d in datasets for s in _selection_grid(d, methods, config)]
    fits = [FitTask(*f) for f in _fit_grid(selections)]
    return Plan(config, tuple(selections), tuple(fits))


def execute_plan(
    plan: Plan,
    *,
    cache_dir=None,
    n_jobs: int = 1,
    progress: Progress | None = None,
    reuse: bool = True,
) -> Outcome:
    """Run (or fetch from the cache) the selections and fits of ``plan``.

    Parameters
    ----------
    plan : Plan
    cache_dir : path, optional
        Folder of the on-disk task cache (default: no cache).
    n_jobs : int, default=1
        Parallel joblib workers (-1 = all cores); values do not depend on it.
    progress : callable, optional
        ``progress(done, total, message)`` after every task.
    reuse : bool, default=True
        Give a fit whose columns equal an earlier fit's on the same fold that
        fit's values instead of running it (values unchanged; False runs
        every fit, as ``mlfs verify`` does).

    Returns
    -------
    Outcome
    """
    cache = DiskCache(cache_dir)
    needed = plan.needed_selections
    tracker = _Tracker(progress, len(needed) + len(plan.fits))
    done = _run_selections([plan.selections[j] for j in needed], cache, n_jobs, tracker)
    orders: list = [None] * len(plan.selections)
    for j, order in zip(needed, done):
        orders[j] = order
    fit_out = run_fits(
        plan.selections,
        plan.fits,
        orders,
        plan.config,
        cache,
        n_jobs,
        tracker,
        reuse=reuse,
    )
    return Outcome(plan, tuple(orders), tuple(fit_out))


def result_tables(outcome: Outcome) -> ExperimentResult:
    """The tidy tables of an :class:`Outcome`.

    Parameters
    ----------
    outcome : Outcome

    Returns
    -------
    ExperimentResult
        Selections and timings hold the selections the plan's fits needed.
    """
    plan = outcome.plan
    kept = [j for j, o in enumerate(outcome.orders) if o is not None]
    selections = [plan.selections[j] for j in kept]
    orders = [outcome.orders[j] for j in kept]
    return ExperimentResult(
        results=_results_table(
            plan.selections, plan.fits, outcome.fits, plan.config.protocol.name
        ),
        selections=_selections_table(selections, orders),
        timings=_timings_table(
            plan.selections, outcome.orders, plan.fits, outcome.fits, kept
        ),
        config=plan.config,
        environment=environment(plan.config, outcome.fits),
        feature_names=plan_feature_names(plan),
    )


def plan_feature_names(plan: Plan) -> dict:
    """Dataset name -> feature names (tuple of str) of the datasets of ``plan``."""
    out = {}
    for s in plan.selections:
        ds = s.dataset
        if ds.name not in out:
            names = getattr(ds.dataset, "feature_names", None)
            if names is None:
                names = [f"f{i}" for i in range(ds.n_features)]
            out[ds.name] = tuple(str(n) for n in names)
    return out


def run_experiment(
    config: ExperimentConfig,
    *,
    cache_dir=None,
    n_jobs: int = 1,
    progress: Progress | None = None,
) -> ExperimentResult:
    """Run an experiment grid and return its tidy result tables.

    The same as ``result_tables(execute_plan(plan_experiment(config), ...))``,
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
    from ..dense import warn_dense_data

    plan = plan_experiment(config)
    warn_dense_data(plan)
    outcome = execute_plan(plan, cache_dir=cache_dir, n_jobs=n_jobs, progress=progress)
    return result_tables(outcome)


def environment(config: ExperimentConfig, fit_out=()) -> dict:
    """What to record beside an experiment's values: engine version and BLAS.

    Parameters
    ----------
    config : ExperimentConfig
    fit_out : sequence of dict, optional
        The fit tasks' results; their ``blas`` entries give ``fit_kernels``.

    Returns
    -------
    dict
        ``engine``, ``blas`` (:func:`mlfs_core.blas.record`),
        ``kernel_dependent`` (whether the classifier's values follow the BLAS
        kernel) and ``fit_kernels`` (sorted kernel ids of those fits).
    """
    from ... import __version__
    from ...cache import CACHE_VERSION

    c = config.protocol.classifier
    dependent = kernel_dependent(c.name, c.params)
    kernels = {v.get("blas", "unrecorded") for v in fit_out} if dependent else set()
    return {
        "engine": f"{__version__}+cache{CACHE_VERSION}",
        "blas": blas.record(),
        "kernel_dependent": dependent,
        "fit_kernels": sorted(kernels),
    }


def _fit_grid(selections) -> list[tuple[int, int, float | None]]:
    """(selection index, k, pct) triples, ordered by dataset and fold."""
    grid = [(j, k, pct) for j, s in enumerate(selections) for k, pct in _budgets_of(s)]
    position = {}
    for j, s in enumerate(selections):
        position.setdefault((s.dataset.name, s.fold), len(position))
    return sorted(
        grid,
        key=lambda t: position[(selections[t[0]].dataset.name, selections[t[0]].fold)],
    )


class _Tracker:
    def __init__(self, progress: Progress | None, total: int):
        self.progress, self.total, self.done = progress, total, 0

    def step(self, message: str) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total, message)


def _selection_grid(d: PreparedDataset, methods, config: ExperimentConfig):
    k_max = max(b.k for b in d.budgets)
    for m in methods:
        repeats = config.protocol.n_repeats if m.stochastic else 1
        for fold in range(len(d.splits)):
            for r in range(repeats):
                seed = task_seed(config.seed, fold, r) if m.stochastic else None
                k = d.n_features if m.is_all_features else k_max
                desc = {
                    "kind": "selection",
                    "dataset": d.content_hash,
                    "split": d.split_key,
                    "fold": fold,
                    "method": m.name,
                    "params": m.params,
                    "seed": seed,
                    "k": k,
                }
                yield SelectionTask(d, m, fold, r, seed, k, hash_key(desc))


def _budgets_of(s: SelectionTask):
    if s.method.is_all_features:
        return [(s.dataset.n_features, 100.0)]
    return [(b.k, b.pct) for b in s.dataset.budgets]


def _run_selections(selections, cache, n_jobs, tracker) -> list[dict]:
    def label(i):
        s = selections[i]
        return f"select {s.dataset.name} {s.method.label} fold {s.fold} rep {s.repeat}"

    def make_call(i):
        return _selection_call(selections[i])

    def check(i):
        s = selections[i]
        return check_selection(s.dataset.n_features, s.k)

    keys = [s.key for s in selections]
    return execute(keys, make_call, cache, n_jobs, tracker, label, check)


def _selection_call(s: SelectionTask):
    if s.method.is_all_features:
        return _all_features, (s.dataset.n_features,), {}
    train, _ = s.dataset.splits[s.fold]
    ds = s.dataset.dataset
    Y = np.asarray(ds.Y)[train]
    return (
        run_selection,
        (ds.X[train], Y, s.method.name, s.method.params, s.k, s.seed),
        {},
    )


def _all_features(n_features: int) -> dict:
    return {"order": list(range(n_features)), "seconds": 0.0}


def _results_table(selections, fits, fit_out, protocol: str) -> pd.DataFrame:
    rows = []
    for (j, k, pct), out in zip(fits, fit_out):
        s = selections[j]
        for metric, value in out["metrics"].items():
            rows.append(
                (
                    s.dataset.name,
                    protocol,
                    s.method.label,
                    k,
                    pct,
                    s.fold,
                    s.repeat,
                    metric,
                    value,
                )
            )
    table = pd.DataFrame(rows, columns=RESULT_COLUMNS)
    table[BUDGET_PCT] = table[BUDGET_PCT].astype(float)
    table[VALUE] = table[VALUE].astype(float)
    return table


def _selections_table(selections, orders) -> pd.DataFrame:
    rows = [
        (
            s.dataset.name,
            s.method.label,
            s.fold,
            s.repeat,
            s.dataset.n_features,
            np.asarray(o["order"], dtype=np.int64),
        )
        for s, o in zip(selections, orders)
    ]
    return pd.DataFrame(rows, columns=SELECTION_COLUMNS)


def _timings_table(selections, orders, fits, fit_out, kept=None) -> pd.DataFrame:
    none = (np.nan, np.nan, np.nan, np.nan)
    kept = range(len(selections)) if kept is None else kept
    rows = [
        (
            selections[j].dataset.name,
            selections[j].method.label,
            np.nan,
            selections[j].fold,
            selections[j].repeat,
            "selection",
            orders[j]["seconds"],
            *none,
        )
        for j in kept
    ]
    for (j, k, _), out in zip(fits, fit_out):
        s = selections[j]
        base = (s.dataset.name, s.method.label, k, s.fold, s.repeat)
        solver = (
            out.get("n_fitted", np.nan),
            out.get("n_not_converged", np.nan),
            np.nan if out.get("max_n_iter") is None else out["max_n_iter"],
            float(bool(out.get(REUSED, False))),
        )
        rows.append((*base, "fit", out["fit_seconds"], *solver))
        rows.append((*base, "predict", out["predict_seconds"], *none))
        rows.append((*base, "metrics", out.get("metric_seconds", np.nan), *none))
    table = pd.DataFrame(rows, columns=TIMING_COLUMNS)
    for column in (N_FITTED, N_NOT_CONVERGED, MAX_N_ITER, REUSED):
        table[column] = table[column].astype(float)
    return table
