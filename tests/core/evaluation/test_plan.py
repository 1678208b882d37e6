"""The runner's public plan -> execute -> tables API."""

from __future__ import annotations

import warnings

import pandas as pd

from mlfs_core.evaluation import (
    ExperimentConfig,
    FitTask,
    execute_plan,
    plan_experiment,
    protocol_preset,
    result_tables,
    run_experiment,
)


def _config() -> ExperimentConfig:
    return ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS", "RaRBNS", "AF"),
        protocol=protocol_preset("A", n_folds=2, budgets=(10, 50), n_repeats=2),
        seed=2,
    )


def test_plan_lists_every_task_before_any_runs():
    """Check the plan's counts: selections per fold/repeat, fits per budget."""
    plan = plan_experiment(_config())
    # MaxCS 2 folds, RaRBNS 2 folds x 2 repeats, AF 2 folds
    assert len(plan.selections) == 2 + 4 + 2
    assert len(plan.fits) == 2 * 2 + 4 * 2 + 2 * 1
    assert all(isinstance(f, FitTask) for f in plan.fits)
    assert len({plan.fit_key(i) for i in range(len(plan.fits))}) == len(plan.fits)


def test_run_experiment_is_plan_execute_tables():
    """Check run_experiment equals the three public steps, value for value."""
    config = _config()
    whole = run_experiment(config)
    steps = result_tables(execute_plan(plan_experiment(config)))
    pd.testing.assert_frame_equal(whole.results, steps.results, check_exact=True)
    pd.testing.assert_frame_equal(
        whole.selections.drop(columns="features"),
        steps.selections.drop(columns="features"),
    )


def test_a_plan_of_some_fits_runs_only_their_selections():
    """Check with_fits: the chosen fits' values, only the selections they need."""
    config = _config()
    plan = plan_experiment(config)
    whole = result_tables(execute_plan(plan)).results
    part = plan.with_fits([0, len(plan.fits) - 1])
    outcome = execute_plan(part, reuse=False)
    ran = [j for j, o in enumerate(outcome.orders) if o is not None]
    assert ran == part.needed_selections and len(ran) <= 2
    values = result_tables(outcome).results
    typed = outcome.fit_values(0)
    assert typed.metrics == outcome.fits[0]["metrics"] and typed.n_fitted > 0
    assert typed.blas is not None  # LinearSVC: a kernel-dependent fit
    assert outcome.selection_values(ran[0]).order == outcome.orders[ran[0]]["order"]
    keys = ["method", "budget", "fold", "repeat", "metric"]
    merged = values.merge(whole, on=keys, suffixes=("", "_whole"))
    assert len(merged) == len(values) > 0
    assert (merged["value"] == merged["value_whole"]).all()


def test_an_engine_warning_points_at_the_users_line(tmp_path):
    """Check the sparse-label warning of planning is located at the caller's
    line (this file), not at the engine's ``check_n_folds(`` call."""
    from mlfs_core.evaluation import ExperimentConfig, plan_experiment
    from mlfs_core.evaluation.config import protocol_preset

    rows = "\n".join(
        f"{int(i < 2)},{int(i % 2 == 0)},{i % 3},{(i * 7) % 5}" for i in range(30)
    )  # label y: 2 positives < 5 folds; label z: 15
    path = tmp_path / "tiny.arff"
    path.write_text(
        "@relation 'tiny: -C 2'\n@attribute y {0,1}\n@attribute z {0,1}\n"
        "@attribute a numeric\n@attribute b numeric\n"
        f"@data\n{rows}\n"
    )
    config = ExperimentConfig(
        datasets=[str(path)],
        methods=["MaxCS"],
        protocol=protocol_preset("A", n_folds=5, budgets=(50,)),
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plan_experiment(config)
    sparse = [w for w in caught if "fewer positive samples" in str(w.message)]
    assert sparse, [str(w.message) for w in caught]
    assert sparse[0].filename == __file__
