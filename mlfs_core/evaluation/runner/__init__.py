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
:func:`mlfs_core.evaluation.cluster.dask_backend` (or ``mlfs experiment
--scheduler ADDRESS``); this process still writes the cache. Fits on a column
set already fitted for the same fold are reused, and protocol B runs all
budgets of a ranking in one task (:mod:`mlfs_core.evaluation._fits`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import blas
from ..cache import DiskCache, hash_key
from ..columns import (
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
from ._fits import execute, run_fits, task_seed
from ._prepare import PreparedDataset, PreparedMethod, prepare
from ._tasks import run_selection
from .classifiers import kernel_dependent
from .protocols import ExperimentConfig

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
    """

    results: pd.DataFrame
    selections: pd.DataFrame
    timings: pd.DataFrame
    config: ExperimentConfig
    environment: dict = field(default_factory=dict)


@dataclass(frozen=True)
class _Selection:
    dataset: PreparedDataset
    method: PreparedMethod
    fold: int
    repeat: int
    seed: int | None
    k: int
    key: str


def run_experiment(
    config: ExperimentConfig,
    *,
    cache_dir=None,
    n_jobs: int = 1,
    progress: Progress | None = None,
) -> ExperimentResult:
    """Run an experiment grid and return its tidy result tables.

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
    """
    datasets, methods = prepare(config)
    cache = DiskCache(cache_dir)
    selections = [s for d in datasets for s in _selection_grid(d, methods, config)]
    fits = _fit_grid(selections)
    tracker = _Tracker(progress, len(selections) + len(fits))
    orders = _run_selections(selections, cache, n_jobs, tracker)
    fit_out = _run_fits(selections, fits, orders, config, cache, n_jobs, tracker)
    return ExperimentResult(
        results=_results_table(selections, fits, fit_out, config.protocol.name),
        selections=_selections_table(selections, orders),
        timings=_timings_table(selections, orders, fits, fit_out),
        config=config,
        environment=environment(config, fit_out),
    )


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
    from .. import __version__
    from ..cache import CACHE_VERSION

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
                yield _Selection(d, m, fold, r, seed, k, hash_key(desc))


def _budgets_of(s: _Selection):
    if s.method.is_all_features:
        return [(s.dataset.n_features, 100.0)]
    return [(b.k, b.pct) for b in s.dataset.budgets]


def _run_selections(selections, cache, n_jobs, tracker) -> list[dict]:
    def label(i):
        s = selections[i]
        return f"select {s.dataset.name} {s.method.label} fold {s.fold} rep {s.repeat}"

    def make_call(i):
        return _selection_call(selections[i])

    keys = [s.key for s in selections]
    return execute(keys, make_call, cache, n_jobs, tracker, label)


def _selection_call(s: _Selection):
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


def _run_fits(
    selections, fits, orders, config, cache, n_jobs, tracker, *, reuse: bool = True
) -> list[dict]:
    return run_fits(
        selections, fits, orders, config, cache, n_jobs, tracker, reuse=reuse
    )


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


def _timings_table(selections, orders, fits, fit_out) -> pd.DataFrame:
    none = (np.nan, np.nan, np.nan, np.nan)
    rows = [
        (
            s.dataset.name,
            s.method.label,
            np.nan,
            s.fold,
            s.repeat,
            "selection",
            o["seconds"],
            *none,
        )
        for s, o in zip(selections, orders)
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
