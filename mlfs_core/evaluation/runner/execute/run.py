"""Executing a plan: its selections, then its fits, each cached on disk.

:func:`execute_plan` runs (or fetches from the task cache) the selections a
:class:`~mlfs_core.evaluation.Plan`'s fits need (through the task pool,
:mod:`.pool`), then the fits (:func:`~.fits.run_fits`), and returns an
:class:`Outcome`. Each task's result is written to the cache as soon as it
finishes, so a rerun or an interrupted run resumes without recomputing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...._entries import check_selection
from ....cache import DiskCache
from ..plan.grid import Plan, SelectionTask
from .fits import run_fits
from .pool import execute
from .tasks import FitValues, SelectionValues, run_selection

Progress = Callable[[int, int, str], None]
"""``progress(done, total, message)``, called after every task."""


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
    fit_out = run_fits(plan, orders, cache, n_jobs, tracker, reuse=reuse)
    return Outcome(plan, tuple(orders), tuple(fit_out))


class _Tracker:
    def __init__(self, progress: Progress | None, total: int):
        self.progress, self.total, self.done = progress, total, 0

    def step(self, message: str) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total, message)


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
        (ds.X[train], Y, s.method.name, s.method.params, s.k, s.seed, _place(s)),
        {},
    )


def _place(s: SelectionTask) -> str:
    """Where a selection task runs, for the messages of its errors."""
    return f"dataset {s.dataset.name!r}, fold {s.fold}, repeat {s.repeat}"


def _all_features(n_features: int) -> dict:
    return {"order": list(range(n_features)), "seconds": 0.0}
