"""Tests of mlfs_core.views.runtime: the run-time estimate and the time left.

The estimate's logic is tested on given probe times (no timed test): a
bibtex run's estimate said 5 minutes for a run that took under one, because
every fit was charged the probe's wall-clock time at the largest budget.
"""

from __future__ import annotations

import pytest

from mlfs_core.evaluation.config import ExperimentConfig, protocol_preset
from mlfs_core.views import estimate, eta_text, extrapolate

# A linear SVM's fit, prediction and metrics on bibtex (1836 features) at 10,
# 30 and 50 % of the features, as measured on one machine (seconds).
BIBTEX = {184: 4.6, 551: 17.9, 918: 29.4}


def _oracle_fit(k, points):
    """The piecewise-linear curve through (0, 0) and ``points``, written plainly."""
    points = [(0, 0.0), *sorted(points.items())]
    for (k0, t0), (k1, t1) in zip(points, points[1:]):
        if k <= k1:
            return t0 + (t1 - t0) * (k - k0) / (k1 - k0)
    (k0, t0), (k1, t1) = points[-2], points[-1]
    return t1 + max(t1 - t0, 0.0) / (k1 - k0) * (k - k1)


def test_fits_at_small_budgets_are_not_charged_the_largest_budgets_time():
    """Check the bibtex case: 15 fits at each of three budgets, 3 of AF; the
    estimate follows each fit's budget (within 5 % of the measured total of
    the budget fits), where charging every fit the largest probe's time
    overestimated it by 70 %."""
    fit_ks = [k for k in BIBTEX for _ in range(15)]
    probes = {184: BIBTEX[184], 918: BIBTEX[918]}
    got = extrapolate(
        selection_seconds=0.1,
        n_selections=15,
        probe_ks=list(probes),
        probe_fit_seconds=list(probes.values()),
        fit_ks=fit_ks,
        probe_seconds=0.1 + sum(probes.values()),
    )
    measured = 15 * 0.1 + sum(BIBTEX[k] for k in fit_ks)
    assert got == pytest.approx(measured, rel=0.05)
    old = 15 * 0.1 + len(fit_ks) * BIBTEX[918]
    assert old > 1.6 * measured
    expected = 15 * 0.1 + sum(_oracle_fit(k, probes) for k in fit_ks)
    assert got == pytest.approx(expected)


def test_the_curve_extends_past_the_largest_probe_and_charges_one_offs_once():
    """Check AF's fits (all 1836 features) are read off the last segment's
    slope, and the probe's time beyond its tasks (imports, the fold's set-up)
    counts once, not once per fit."""
    probes = {184: 4.6, 918: 29.4}
    args = {
        "selection_seconds": 0.0,
        "n_selections": 1,
        "probe_ks": list(probes),
        "probe_fit_seconds": list(probes.values()),
        "fit_ks": [1836, 1836, 1836],
    }
    plain = extrapolate(**args, probe_seconds=34.0)
    assert plain == pytest.approx(3 * _oracle_fit(1836, probes))
    with_setup = extrapolate(**args, probe_seconds=34.0 + 12.0)
    assert with_setup == pytest.approx(plain + 12.0)


def test_one_probe_fit_scales_with_the_number_of_features():
    """Check a single budget: the curve is a line through (0, 0) and the fit;
    a slower fit at a larger budget never makes smaller budgets dearer, and a
    faster one counts as flat."""
    one = extrapolate(
        selection_seconds=1.0,
        n_selections=2,
        probe_ks=[20],
        probe_fit_seconds=[2.0],
        fit_ks=[20, 20, 40],
        probe_seconds=3.0,
    )
    assert one == pytest.approx(2 * 1.0 + 2.0 + 2.0 + 4.0)
    flat = extrapolate(
        selection_seconds=0.0,
        n_selections=1,
        probe_ks=[10, 20],
        probe_fit_seconds=[3.0, 2.0],  # noise: the larger fit ran faster
        fit_ks=[10, 20, 40],
        probe_seconds=5.0,
    )
    assert flat == pytest.approx(3.0 + 3.0 + 3.0)


def test_the_estimate_of_a_small_run_counts_its_tasks():
    """Check the estimate's counts and probe on the bundled sample (not its time)."""
    config = ExperimentConfig(
        datasets=("sample",),
        methods=("AF", "MaxCS", "MeanCS"),
        protocol=protocol_preset("A", budgets=(10, 50), n_folds=2),
        seed=0,
    )
    found = estimate(config)
    assert (found["method"], found["dataset"]) == ("MaxCS", "sample")
    assert (found["selections"], found["fits"]) == (6, 10)  # AF too
    assert found["seconds"] >= found["probe_seconds"] - 1e-9 > 0


def test_time_left_is_read_from_recent_tasks_and_never_a_stuck_second():
    """Check the progress text's time left: recent tasks' pace, no "1 s"."""

    # 10 cached tasks in 0.1 s, then slow ones at 20 s each: minutes, not "1 s"
    assert eta_text(40.1, 12, 20, 20.0) == " · about 3 min left"
    assert eta_text(3.0, 9, 10, 0.5) == " · a few seconds left"
    assert eta_text(3.0, 10, 10, 0.5) == ""
    assert eta_text(30.0, 5, 10, None) == " · about 30 s left"
