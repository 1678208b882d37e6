"""Collecting an experiment's results: the tidy tables of an outcome.

:func:`result_tables` turns an :class:`~mlfs_core.evaluation.Outcome` into an
:class:`ExperimentResult`: the results (one row per dataset, method, budget,
fold, repeat and metric), the rankings, the timings and the
:func:`environment` the values were computed in. Writing them to disk is
:mod:`mlfs_core.evaluation.outputs`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .... import blas
from ....cache import engine_id
from ....columns import (
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
from ...classifiers import kernel_dependent
from ...config import ExperimentConfig
from ..execute.run import Outcome
from ..identity import code_records
from ..plan.grid import plan_feature_names

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
_SELECTION_COLUMNS = [DATASET, METHOD, FOLD, REPEAT, N_FEATURES, FEATURES]
_TIMING_COLUMNS = [
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
        (``"unrecorded"`` for cached fits from before kernels were recorded),
        and ``plugins``, the code identity of the plug-ins it ran
        (:func:`~mlfs_core.evaluation.runner.identity.code_records`).
    feature_names : dict
        Dataset name -> its feature names (a tuple of str), so the indices of
        ``selections`` can be named (``selections.csv``'s ``feature_names``).
    tuning : DataFrame or None
        The value chosen for each grid option, per dataset and fold:
        ``dataset, method, fold, option, value, score`` (``score``: the
        tuning metric on the inner validation part); None without grids.
    """

    results: pd.DataFrame
    selections: pd.DataFrame
    timings: pd.DataFrame
    config: ExperimentConfig
    environment: dict = field(default_factory=dict)
    feature_names: dict = field(default_factory=dict)
    tuning: pd.DataFrame | None = None


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
        tuning=plan.tuning,
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
        kernel), ``fit_kernels`` (sorted kernel ids of those fits) and
        ``plugins``, the code identity of every method, variant, classifier
        and metric the config runs that is not built in
        (:func:`~mlfs_core.evaluation.runner.identity.code_records`: kind,
        name, file, version, digest), which ``mlfs verify`` compares with the
        code it finds.
    """
    c = config.protocol.classifier
    dependent = kernel_dependent(c.name, c.params)
    kernels = {v.get("blas", "unrecorded") for v in fit_out} if dependent else set()
    return {
        "engine": engine_id(),
        "blas": blas.record(),
        "kernel_dependent": dependent,
        "fit_kernels": sorted(kernels),
        "plugins": code_records(config),
    }


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
    return pd.DataFrame(rows, columns=_SELECTION_COLUMNS)


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
    table = pd.DataFrame(rows, columns=_TIMING_COLUMNS)
    for column in (N_FITTED, N_NOT_CONVERGED, MAX_N_ITER, REUSED):
        table[column] = table[column].astype(float)
    return table
