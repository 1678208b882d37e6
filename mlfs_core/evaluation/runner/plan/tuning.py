"""Choosing grid options on an inner split: nested, never on a test part.

For a config whose methods give options as grids
(:mod:`mlfs_core.evaluation.config._tuning`), :func:`plan_tuned` plans the
experiment, then, for every dataset and outer split (fold), takes the split's
training part only, draws a seeded stratified hold-out of it
(``tuning.test_size`` for validation, :func:`~mlfs_core.evaluation.holdout_split`),
ranks the features with every candidate on the inner training part and
evaluates them with the protocol's classifier, budgets and label handling on
the inner validation part (every inner task goes through the task cache). The
candidate with the best mean over the budgets of ``tuning.metric`` (its
registry direction; ties: the first candidate of the grid) is the method's
options on that fold's outer training part. The outer test parts never take
part; the choices are reported (:attr:`Plan.tuning`, the run's ``tuning.csv``).
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from ....columns import METHOD, METRIC, VALUE
from ...config import ExperimentConfig, MethodConfig
from ..execute.run import execute_plan
from ..results.tables import result_tables
from .grid import Plan, plan_experiment, selection_task

TUNING_COLUMNS = ("dataset", "method", "fold", "option", "value", "score")
"""The columns of a tuning table, in order."""


def _grids(config: ExperimentConfig) -> dict[str, list[dict]]:
    """Method label -> its candidates, for the methods with a grid."""
    from ....selectors import get_method
    from ...config._tuning import candidates, grid_options

    out = {}
    for m in config.methods:
        spec = get_method(m.name)
        if grid_options(m, spec):
            out[m.display] = candidates(m, spec)
    return out


def plan_tuned(
    config: ExperimentConfig,
    *,
    cache_dir=None,
    n_jobs: int = 1,
    progress=None,
    max_tasks: int | None = None,
    max_memory: int | None = None,
    reuse_unidentified: bool = False,
) -> Plan:
    """:func:`~.grid.plan_experiment`, each grid's value chosen first.

    Without grids this is ``plan_experiment(config, ...)``. With grids, the
    inner experiments run (or are read from the cache at ``cache_dir``) before
    the plan is returned; ``progress`` sees their tasks too.
    ``reuse_unidentified`` is :func:`~.grid.plan_experiment`'s, for the inner
    plans and the outer one.

    Returns
    -------
    Plan
        The outer plan, each tuned method's selection tasks with the options
        chosen for their dataset and fold, and :attr:`Plan.tuning`.

    Raises
    ------
    ConfigError
        As :func:`~.grid.plan_experiment`; for an unknown tuning metric.
    """
    grids = _grids(config)
    limits = {"max_tasks": max_tasks, "max_memory": max_memory}
    reuse = {"reuse_unidentified": reuse_unidentified}
    if not grids:
        return plan_experiment(config, **limits, **reuse)
    first = tuple(
        replace(m, params=grids[m.display][0]) if m.display in grids else m
        for m in config.methods
    )
    plan = plan_experiment(
        replace(config, methods=first, tuning=None), **limits, **reuse
    )
    run = {"cache_dir": cache_dir, "n_jobs": n_jobs, "progress": progress}
    chosen, rows = {}, []
    folds = dict.fromkeys((s.dataset.name, s.fold) for s in plan.selections)
    datasets = {s.dataset.name: s.dataset for s in plan.selections}
    for name, fold in folds:
        picks, table = _choose(config, grids, datasets[name], fold, run, reuse)
        chosen.update({(label, name, fold): p for label, p in picks.items()})
        rows.append(table)
    tuning = pd.concat(rows, ignore_index=True)[list(TUNING_COLUMNS)]
    return _with_choices(plan, config, chosen, tuning)


def _inner_config(config, grids, inner_dataset) -> ExperimentConfig:
    """The inner experiment: every candidate of every grid on one inner split."""
    tuning = config.tuning
    protocol = config.protocol
    metric = tuning.metric or protocol.metrics[0]
    methods = [
        MethodConfig(m.name, params, label=_candidate_label(m.display, i))
        for m in config.methods
        if m.display in grids
        for i, params in enumerate(grids[m.display])
    ]
    inner = replace(
        protocol, split="holdout", test_size=tuning.test_size, metrics=(metric,)
    )
    return ExperimentConfig(
        datasets=(inner_dataset,),
        methods=tuple(methods),
        protocol=inner,
        seed=config.seed,
        name=f"{config.name}-tuning",
    )


def _candidate_label(label: str, i: int) -> str:
    return f"{label}#{i}"


def _choose(config, grids, d, fold: int, run: dict, reuse: dict):
    """The candidate each grid method takes on ``fold`` of ``d``, and the table
    (``run``: :func:`execute_plan`'s options, ``reuse``: the plans')."""
    from ...metrics import higher_is_better

    train = d.splits[fold][0]
    inner = d.dataset.subset(train)
    inner_config = _inner_config(config, grids, inner)
    metric = inner_config.protocol.metrics[0]
    outcome = execute_plan(plan_experiment(inner_config, **reuse), **run)
    results = result_tables(outcome).results
    results = results[results[METRIC] == metric]
    scores = results.groupby(METHOD)[VALUE].mean()
    sign = 1.0 if higher_is_better(metric) else -1.0
    picks, rows = {}, []
    for label, points in grids.items():
        values = [sign * scores[_candidate_label(label, i)] for i in range(len(points))]
        best = max(range(len(points)), key=lambda i: (values[i], -i))
        picks[label] = points[best]
        for option, value in _grid_values(points, best).items():
            rows.append((d.name, label, fold, option, value, sign * values[best]))
    return picks, pd.DataFrame(rows, columns=list(TUNING_COLUMNS))


def _grid_values(points: list[dict], best: int) -> dict:
    """The options that vary across ``points``, at the chosen one."""
    varying = [k for k in points[0] if len({repr(p[k]) for p in points}) > 1]
    return {k: points[best][k] for k in varying}


def _with_choices(plan: Plan, config, chosen: dict, tuning) -> Plan:
    """``plan`` with each tuned selection task's options set to its choice."""
    from ....selectors import get_method

    selections = []
    for s in plan.selections:
        params = chosen.get((s.method.label, s.dataset.name, s.fold))
        if params is not None:
            spec = get_method(s.method.name)
            method = replace(s.method, params={**spec.defaults, **params})
            s = selection_task(
                s.dataset,
                method,
                s.fold,
                s.repeat,
                s.seed,
                s.k,
                reuse=plan.reuse_unidentified,
            )
        selections.append(s)
    return replace(plan, config=config, selections=tuple(selections), tuning=tuning)
