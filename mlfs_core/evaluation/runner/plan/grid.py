"""Planning an experiment: every task of the grid, listed before any runs.

:func:`plan_experiment` validates the config (a bad config raises
:class:`~mlfs_core.errors.ConfigError` before any work), loads and prepares
its datasets and methods (:mod:`.prepare`), checks the run against its bounds
(:mod:`.bounds`) and lists the tasks of a :class:`Plan`: one
:class:`SelectionTask` per (dataset, method, fold, repeat) and one
:class:`FitTask` per selection and budget, each with its cache key
(:mod:`~mlfs_core.evaluation.runner.identity`). Deterministic methods run
once (repeat 0), stochastic ones ``n_repeats`` times with different seeds;
``AF`` (all features) runs no selection and is evaluated at budget M only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from ....errors import ConfigError
from ...config import ExperimentConfig
from ...dense import warn_dense_data
from ..identity import fit_key, selection_key, task_seed
from .bounds import check_memory, check_task_count
from .prepare import PreparedDataset, PreparedMethod, prepare


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
    tuning : DataFrame or None
        The options chosen for each grid, per dataset and fold
        (:func:`~.tuning.plan_tuned`); None without grids.
    reuse_unidentified : bool
        Whether the tasks of code without an identity keep their keys across
        processes (:func:`~mlfs_core.evaluation.runner.identity.code_identity`).
    """

    config: ExperimentConfig
    selections: tuple
    fits: tuple
    tuning: object = None
    reuse_unidentified: bool = False

    def fit_key(self, i: int) -> str:
        """The cache key of fit ``i``
        (:func:`~mlfs_core.evaluation.runner.identity.fit_key`)."""
        f = self.fits[i]
        s = self.selections[f.selection]
        return fit_key(s, f.k, self.config, reuse_unidentified=self.reuse_unidentified)

    def with_fits(self, indices) -> Plan:
        """The same plan restricted to the fits at ``indices`` (in that order).

        The selections stay as they are (so indices into them keep their
        meaning); :func:`execute_plan` runs only those the kept fits need.
        """
        kept = tuple(self.fits[i] for i in indices)
        return replace(self, fits=kept)

    @property
    def needed_selections(self) -> list[int]:
        """Indices of the selections the plan's fits use, ascending."""
        return sorted({f.selection for f in self.fits})


def plan_experiment(
    config: ExperimentConfig,
    *,
    max_tasks: int | None = None,
    max_memory: int | None = None,
    reuse_unidentified: bool = False,
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
    reuse_unidentified : bool, default=False
        Key the tasks of code without an identity (a lambda typed in a
        notebook) as in any other process, so their cached values are reused;
        by default their keys are new in every process, with a warning
        (:func:`~mlfs_core.evaluation.runner.identity.code_identity`).

    Returns
    -------
    Plan

    Raises
    ------
    ConfigError
        For any invalid part of ``config``, or a run above the limits, with
        the estimate (before any work).

    Warns
    -----
    DenseDataWarning
        Presence-based scores on dense numeric data, one per dataset
        (:func:`~mlfs_core.evaluation.dense.warn_dense_data`; the message says
        what to do).
    """
    check_task_count(config, max_tasks)
    if config.tuning is not None and any(
        isinstance(v, (list, tuple)) for m in config.methods for v in m.params.values()
    ):
        raise ConfigError(
            "a method's option is a grid: plan the experiment with "
            "mlfs_core.evaluation.runner.plan_tuned (run_experiment and the "
            "mlfs experiment command do), which chooses each grid's value first"
        )
    datasets, methods = prepare(config)
    check_memory(datasets, methods, config.protocol, max_memory)
    reuse = reuse_unidentified
    selections = [
        s for d in datasets for s in _selection_grid(d, methods, config, reuse)
    ]
    fits = [FitTask(*f) for f in _fit_grid(selections)]
    plan = Plan(config, tuple(selections), tuple(fits), reuse_unidentified=reuse)
    warn_dense_data(plan)
    return plan


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


def _selection_grid(d: PreparedDataset, methods, config: ExperimentConfig, reuse):
    k_max = max(b.k for b in d.budgets)
    for m in methods:
        repeats = config.protocol.n_repeats if m.stochastic else 1
        for fold in range(len(d.splits)):
            for r in range(repeats):
                seed = task_seed(config.seed, fold, r) if m.stochastic else None
                k = d.n_features if m.is_all_features else k_max
                yield selection_task(d, m, fold, r, seed, k, reuse=reuse)


def selection_task(
    d: PreparedDataset,
    m: PreparedMethod,
    fold: int,
    repeat: int,
    seed,
    k: int,
    *,
    reuse: bool = False,
) -> SelectionTask:
    """The :class:`SelectionTask` of method ``m`` on fold ``fold`` of ``d``,
    with its cache key (:func:`~mlfs_core.evaluation.runner.identity.selection_key`;
    ``reuse``: its ``reuse_unidentified``)."""
    key = selection_key(d, m, fold, seed, k, reuse_unidentified=reuse)
    return SelectionTask(d, m, fold, repeat, seed, k, key)


def _budgets_of(s: SelectionTask):
    if s.method.is_all_features:
        return [(s.dataset.n_features, 100.0)]
    return [(b.k, b.pct) for b in s.dataset.budgets]
