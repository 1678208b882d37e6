"""How long a run will take: a probe measured, then extrapolated; the time left.

:func:`estimate` runs one selection and one classifier fit of a config
without the cache and extrapolates to the whole run; :func:`estimate_text`
says it in a sentence; :func:`eta_text` is the time-left part of a running
experiment's progress text.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ..evaluation.config import ExperimentConfig
from ..evaluation.runner import execute_plan, plan_experiment

LONG_RUN_S = 120.0
"""An estimate above this many seconds offers the quick variant."""


def estimate(config: ExperimentConfig) -> dict:
    """Measure one selection and two fits of ``config``; extrapolate to the run.

    The probe is the first dataset's first fold and the first method that is
    not AF (all features): its selection, and its fits at the smallest and
    the largest budget, computed without the cache so their times are real.
    The run's time is (:func:`extrapolate`) that selection's time for every
    selection, each fit's time read off the line through the two probe fits
    by its number of features, and the probe's one-off costs once: a rough
    figure (methods differ, cached tasks take no time), and said to be one.

    Returns
    -------
    dict
        ``seconds`` (the estimate), ``probe_seconds`` (what the probe took),
        ``selections``, ``fits`` (task counts), ``method``, ``dataset``.
    """
    plan = plan_experiment(config)
    first = next(
        (j for j, s in enumerate(plan.selections) if not s.method.is_all_features),
        0,
    )
    fits = [i for i, f in enumerate(plan.fits) if f.selection == first] or [0]
    probes = sorted({min(fits, key=_k(plan)), max(fits, key=_k(plan))})
    start = time.monotonic()
    outcome = execute_plan(plan.with_fits(probes), cache_dir=None)
    probe_seconds = time.monotonic() - start
    selection = plan.selections[plan.fits[probes[0]].selection]
    order = outcome.selection_values(plan.fits[probes[0]].selection)
    fit_s = [_task_seconds(outcome.fit_values(n)) for n in range(len(probes))]
    seconds = extrapolate(
        selection_seconds=order.seconds if order is not None else 0.0,
        n_selections=len(plan.needed_selections),
        probe_ks=[plan.fits[i].k for i in probes],
        probe_fit_seconds=fit_s,
        fit_ks=[f.k for f in plan.fits],
        probe_seconds=probe_seconds,
    )
    return {
        "seconds": seconds,
        "probe_seconds": probe_seconds,
        "selections": len(plan.needed_selections),
        "fits": len(plan.fits),
        "method": selection.method.name,
        "dataset": selection.dataset.name,
    }


def _k(plan):
    return lambda i: plan.fits[i].k


def _task_seconds(values) -> float:
    """A fit task's own time: its fit, prediction and metrics."""
    return values.fit_seconds + values.predict_seconds + values.metric_seconds


def extrapolate(
    *,
    selection_seconds: float,
    n_selections: int,
    probe_ks: Sequence[int],
    probe_fit_seconds: Sequence[float],
    fit_ks: Sequence[int],
    probe_seconds: float,
) -> float:
    """The run's seconds from a probe's selection and fits.

    Parameters
    ----------
    selection_seconds : float
        The probe selection's time; every selection of the run is charged it.
    n_selections : int
        The selections the run computes.
    probe_ks, probe_fit_seconds : sequence
        The probe fits' numbers of features (one or two values, ascending)
        and each one's own time (fit, prediction and metrics).
    fit_ks : sequence of int
        The number of features of every fit of the run.
    probe_seconds : float
        The probe's wall-clock time. What it holds besides its tasks'
        own times (imports, preparing the fold: one-off costs) is charged
        once, not once per fit.

    Returns
    -------
    float
        ``n_selections * selection_seconds`` + each fit's time + the one-off
        rest. A fit's time grows with its number of features k (a linear
        classifier on 918 of bibtex's features takes about 6 times as long
        as on 184): it is read off the piecewise-linear curve through
        (0, 0) and the probe fits, extended beyond the largest by its last
        segment's slope (a decreasing slope counts as flat), so a run's
        small budgets are not charged the largest budget's time.

    Examples
    --------
    >>> extrapolate(selection_seconds=0.5, n_selections=2, probe_ks=[10, 50],
    ...             probe_fit_seconds=[1.0, 3.0], fit_ks=[10, 30, 50, 100],
    ...             probe_seconds=6.5)
    14.5
    """
    xs = np.concatenate([[0.0], np.asarray(probe_ks, dtype=float)])
    ys = np.concatenate([[0.0], np.asarray(probe_fit_seconds, dtype=float)])
    xs, first = np.unique(xs, return_index=True)  # a single budget: one point
    ys = np.maximum.accumulate(ys[first])
    ks = np.asarray(fit_ks, dtype=float)
    slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
    per_fit = np.where(
        ks <= xs[-1], np.interp(ks, xs, ys), ys[-1] + slope * (ks - xs[-1])
    )
    own = selection_seconds + float(np.sum(probe_fit_seconds))
    return float(
        n_selections * selection_seconds + per_fit.sum() + max(probe_seconds - own, 0.0)
    )


def estimate_text(found: dict) -> str:
    """``about N minutes on this machine`` and what the figure rests on.

    Examples
    --------
    >>> estimate_text({"seconds": 600, "probe_seconds": 1.2, "selections": 30,
    ...                "fits": 90, "method": "MaxCS", "dataset": "emotions"})
    ... # doctest: +NORMALIZE_WHITESPACE
    'About 10 minutes on this machine (30 rankings and 90 classifier fits,
    extrapolated from one of each: MaxCS on emotions, 1.2 s; tasks already
    cached take no time).'
    """
    seconds = found["seconds"]
    if seconds < 60:
        when = "under a minute"
    else:
        minutes = round(seconds / 60)
        when = f"{minutes} minute{'s' if minutes != 1 else ''}"
    return (
        f"About {when} on this machine ({found['selections']} rankings and "
        f"{found['fits']} classifier fits, extrapolated from one of each: "
        f"{found['method']} on {found['dataset']}, {found['probe_seconds']:.1f} s; "
        "tasks already cached take no time)."
    )


def eta_text(elapsed: float, done: int, total: int, recent: float | None) -> str:
    """The time-left part of the progress text.

    ``recent`` is the mean duration of the last few tasks (None before any);
    it, rather than the run's overall mean, predicts the rest, since cached
    tasks finish at once and the slow ones come later. Under 10 s the text
    says "a few seconds", not a number that would stand still while one
    task runs.

    Examples
    --------
    >>> eta_text(2.0, 4, 10, 0.5)
    ' · a few seconds left'
    >>> eta_text(10.0, 5, 10, 30.0)
    ' · about 3 min left'
    """
    if not done or done >= total:
        return ""
    rate = recent if recent is not None else elapsed / done
    left = rate * (total - done)
    if left < 10:
        return " · a few seconds left"
    if left < 90:
        return f" · about {10 * int(left / 10 + 0.5)} s left"
    return f" · about {int(left / 60 + 0.5)} min left"
