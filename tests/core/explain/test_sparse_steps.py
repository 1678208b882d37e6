"""The sparse-regression steps of the Learn page, against the engine's ranking."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import compute_ranking
from mlfs_core.explain import sparse_steps
from mlfs_core.plots import (
    objective_path_figure,
    ranking_settles_figure,
    shrinkage_figure,
)


def _data(n=30, m=14, q=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m)) * (rng.random((n, m)) < 0.7)
    Y = (rng.random((n, q)) < 0.4).astype(np.int8)
    Y[0] = 1
    return X, Y


@pytest.mark.parametrize("method", ["RFS", "LLSF", "MIFS"])
def test_steps_end_on_the_engines_ranking_and_objective(method):
    """Check the recorded objective is compute_ranking's objective path, the
    followed features are its top, at positions 1..top at the last iteration."""
    X, Y = _data()
    steps = sparse_steps(X, Y, method, top=5, max_iter=40)
    ranking = compute_ranking(X, Y, method, k=5, max_iter=40)
    np.testing.assert_array_equal(steps.objective["objective"], ranking.objective_path)
    assert steps.top == ranking.order.tolist()
    last = steps.positions[steps.positions["iteration"] == steps.objective.iloc[-1, 0]]
    assert last["position"].tolist() == [1, 2, 3, 4, 5]
    assert last["feature"].tolist() == steps.top
    assert steps.positions["iteration"].min() == 0
    assert sorted(steps.shrinkage["penalty"].unique()) == pytest.approx(
        [v * {"LLSF": 2**-3}.get(method, 1.0) for v in (0.1, 0.3, 1.0, 3.0, 10.0)]
    )


def test_rfs_row_norms_shrink_as_gamma_grows():
    """Check the penalty term's optimum falls as its weight grows (RFS is
    convex): the summed row norms of the followed features, over the grid."""
    X, Y = _data(seed=1)
    steps = sparse_steps(X, Y, "RFS", top=14, tol=1e-10)
    total = steps.shrinkage.groupby("penalty")["norm"].sum().to_numpy()
    assert np.all(np.diff(total) <= 1e-6 * total[0])
    assert total[-1] < 0.5 * total[0]


def test_recorded_iterations_are_thinned_but_keep_the_first_and_last():
    """Check at most 60 recorded iterations, the start and the last among them."""
    X, Y = _data(seed=2)
    steps = sparse_steps(X, Y, "MIFS", top=3, tol=0.0, max_iter=150)
    recorded = sorted(steps.positions["iteration"].unique())
    assert len(recorded) <= 60 and recorded[0] == 0 and recorded[-1] == 150
    assert len(steps.objective) == 151


def test_figures_draw_one_trace_per_followed_feature():
    """Check the three figures: one objective trace, a trace per feature,
    the ranking's axis reversed, the penalty's axis logarithmic."""
    X, Y = _data(seed=3)
    steps = sparse_steps(X, Y, "LLSF", top=4, tol=0.0, max_iter=10)
    names = [f"w{j}" for j in range(X.shape[1])]
    fig = objective_path_figure(steps.objective, method="LLSF")
    assert len(fig.data) == 1 and list(fig.data[0].x) == list(range(11))
    settles = ranking_settles_figure(
        steps.positions, feature_names=names, top=steps.top
    )
    assert [t.name for t in settles.data] == [f"#{j} w{j}" for j in steps.top]
    assert settles.layout.yaxis.autorange == "reversed"
    shrink = shrinkage_figure(
        steps.shrinkage, penalty="beta", feature_names=names, top=steps.top
    )
    assert len(shrink.data) == 4 and shrink.layout.xaxis.type == "log"
    assert shrink.layout.xaxis.title.text == "beta (log scale)"
