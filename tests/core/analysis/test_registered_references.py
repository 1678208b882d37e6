"""The all-features baselines come from the registry, not from a name.

A plug-in registered with ``reference="all"`` is treated as the built-in AF
is: the runner evaluates it once at 100 % without calling it, and by
default the rank tables and tests set it beside every budget, Similarity
leaves it out, Metric vs budget draws it as a reference line and the
measure panels hold it in every panel.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core.analysis import (
    all_features_references,
    friedman_nemenyi,
    rank_table,
    select,
    similarity_matrix,
)
from mlfs_core.columns import METHOD
from mlfs_core.errors import IncompleteTableError
from mlfs_core.evaluation import (
    ExperimentConfig,
    plan_experiment,
    protocol_preset,
    run_experiment,
)
from mlfs_core.plots import metric_vs_budget
from mlfs_core.selectors import register, unregister
from mlfs_core.views import measure_panels

NAME = "EveryFeature"


def _never_called(X, Y, *, k, random_state):
    raise AssertionError("an all-features baseline's rank function is not called")


@pytest.fixture
def full_baseline():
    register(_never_called, name=NAME, reference="all", version="1")
    try:
        yield NAME
    finally:
        unregister(NAME)


def _table(reference: str) -> pd.DataFrame:
    """Three datasets, methods A, B at budgets 10/50 %, ``reference`` at 100 %."""
    rows = []
    for d, (a, b, full) in enumerate(
        [(0.5, 0.4, 0.45), (0.6, 0.3, 0.7), (0.2, 0.1, 0.9)]
    ):
        for pct in (10.0, 50.0):
            rows += [
                {"dataset": f"d{d}", "method": "A", "budget_pct": pct, "value": a},
                {"dataset": f"d{d}", "method": "B", "budget_pct": pct, "value": b},
            ]
        rows.append(
            {
                "dataset": f"d{d}",
                "method": reference,
                "budget_pct": 100.0,
                "value": full,
            }
        )
    return pd.DataFrame(rows).assign(metric="micro_f1")


def test_the_default_references_follow_the_registry(full_baseline):
    """Check that None means every method registered with reference="all",
    the plug-in included, and that an explicit list is kept as given."""
    assert all_features_references(None) == ["AF", full_baseline]
    assert all_features_references(()) == []
    assert all_features_references(["X"]) == ["X"]


def test_a_plugin_baseline_is_set_beside_every_budget_by_default(full_baseline):
    """Check that the Friedman test and the rank table compare the plug-in's
    single 100 % row at each budget, as they do AF's, with no argument."""
    table = _table(full_baseline)
    result = friedman_nemenyi(select(table, metric="micro_f1", budget=10.0))
    assert set(result.ranks.index) == {"A", "B", full_baseline}
    ranks = rank_table(select(table, metric="micro_f1", by=["budget_pct"]))
    assert set(ranks[METHOD]) == {"A", "B", full_baseline}
    assert set(ranks["budget_pct"]) == {10.0, 50.0}
    # the same table with AF gives the same ranks, method for method
    af = rank_table(select(_table("AF"), metric="micro_f1", by=["budget_pct"]))

    def keyed(frame):
        return frame.sort_values(["budget_pct", METHOD]).reset_index(drop=True)

    pd.testing.assert_frame_equal(
        keyed(ranks.replace({full_baseline: "AF"})), keyed(af), check_exact=True
    )


def test_without_the_registration_the_plugin_rows_are_refused():
    """Check the default really comes from the registry: unregistered, the
    same 100 % rows are a budget of their own and the test needs budget=."""
    table = _table(NAME)
    with pytest.raises(IncompleteTableError, match=f"'{NAME}', 10.0"):
        select(table, metric="micro_f1", budget=10.0)


def test_similarity_leaves_the_plugin_baseline_out(full_baseline):
    """Check that similarity_matrix excludes a registered all-features method
    by default (keeping every feature is no subset) and compares it when
    exclude=() says so."""
    features = np.arange(20)
    rows = []
    for method, order in (
        ("A", features),
        ("B", features[::-1]),
        (full_baseline, features),
    ):
        rows.append(
            {
                "dataset": "d",
                "method": method,
                "fold": 0,
                "repeat": 0,
                "n_features": 20,
                "features": order.tolist(),
            }
        )
    selections = pd.DataFrame(rows)
    assert list(similarity_matrix(selections, budget=5).index) == ["A", "B"]
    assert full_baseline in similarity_matrix(selections, budget=5, exclude=()).index


def test_metric_vs_budget_draws_the_plugin_baseline_as_a_line(full_baseline):
    """Check that the plug-in's one 100 % point becomes a flat line over the
    other methods' budgets, and the x axis stops at their last budget."""
    table = _table(full_baseline).rename(columns={"budget_pct": "budget"})
    curves = table.groupby(["method", "budget"], as_index=False)["value"].mean()
    fig = metric_vs_budget(
        curves.rename(columns={"value": "mean"}), metric_label="micro_f1"
    )
    (line,) = [t for t in fig.data if t.legendgroup == full_baseline]
    assert list(line.x) == [10.0, 50.0] and len(set(line.y)) == 1


def test_measure_panels_hold_every_registered_baseline(full_baseline):
    """Check that a registered baseline joins every measure panel by default."""
    panels = measure_panels(["MaxCS", "RaRCS", "MaxBNS", "MeanBNS", full_baseline])
    assert panels == {
        "CS": ["MaxCS", "RaRCS", full_baseline],
        "BNS": ["MaxBNS", "MeanBNS", full_baseline],
    }


def test_the_runner_evaluates_a_plugin_baseline_once_on_all_features(full_baseline):
    """Check that the runner plans the plug-in as it plans AF (one selection
    per fold, one fit at 100 %), never calls it, and gets AF's values."""
    config = ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS", "AF", full_baseline),
        protocol=protocol_preset("A", n_folds=2, budgets=(10, 50)),
        seed=1,
    )
    plan = plan_experiment(config)
    mine = [f for f in plan.fits if plan.selections[f.selection].method.name == NAME]
    assert len(mine) == 2  # one fit per fold, at one budget
    results = run_experiment(config).results
    full = results[results[METHOD] == full_baseline]
    af = results[results[METHOD] == "AF"]
    assert set(full["budget_pct"]) == {100.0}
    np.testing.assert_array_equal(
        full.sort_values(["fold", "metric"])["value"].to_numpy(),
        af.sort_values(["fold", "metric"])["value"].to_numpy(),
    )
