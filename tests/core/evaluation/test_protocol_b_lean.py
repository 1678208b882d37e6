"""Protocol B's lean path gives exactly the per-budget path's values."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import load_dataset
from mlfs_core.evaluation.classifiers import prefix_knn as _prefix_knn
from mlfs_core.evaluation.classifiers.neighbors import neighbour_label_counts
from mlfs_core.evaluation.config import (
    ExperimentConfig,
    MethodConfig,
    protocol_preset,
)
from mlfs_core.evaluation.metrics import METRICS, compute_metrics, lean_metrics
from mlfs_core.evaluation.runner import run_experiment
from mlfs_core.evaluation.runner.execute import fits as _fits
from mlfs_core.evaluation.runner.execute.fits import run_mlknn_budgets
from mlfs_core.evaluation.runner.execute.tasks import run_fit
from mlfs_core.evaluation.runner.results.verify import verify_experiment
from mlfs_core.evaluation.splits import holdout_split
from mlfs_core.measures.discretize import Discretizer
from mlfs_core.report import reuse_line

MLKNN = ("mlknn", {"k": 10, "s": 1.0})


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("block_cells", [7, 4_000_000])
@pytest.mark.parametrize("budgets", [[1, 2, 5, 9], [4, 9], [2, 3, 4, 5, 6, 7, 8, 9]])
def test_prefix_counts_equal_the_per_budget_neighbours(
    seed, block_cells, budgets, monkeypatch
):
    """Check every budget's counts equal a fresh exact search on its columns.

    Consecutive budgets add one column at a time, budgets 4+ apart one matrix
    product; both must give the exact neighbours.
    """
    monkeypatch.setattr(_prefix_knn, "_BLOCK_CELLS", block_cells)
    rng = np.random.default_rng(seed)
    Xt = rng.integers(0, 3, size=(70, 9))
    Xq = rng.integers(0, 3, size=(23, 9))
    Y = (rng.random((70, 4)) < 0.4).astype(np.int64)
    loo, _ = _prefix_knn.prefix_neighbour_counts(
        Xt, Xt, Y, 10, budgets, exclude_self=True
    )
    query, _ = _prefix_knn.prefix_neighbour_counts(Xq, Xt, Y, 10, budgets)
    for b in budgets:
        A, B = Xt[:, :b].astype(float), Xq[:, :b].astype(float)
        want = neighbour_label_counts(A, A, Y, 10, exclude_self=True)
        assert np.array_equal(loo[b], want)
        assert np.array_equal(query[b], neighbour_label_counts(B, A, Y, 10))


def test_prefix_counts_with_wide_codes_use_exact_int64_keys():
    """Check codes too wide for int32 keys still give the exact neighbours."""
    rng = np.random.default_rng(3)
    Xt = rng.integers(0, 40_000, size=(30, 3))
    Y = (rng.random((30, 2)) < 0.5).astype(np.int64)
    got, _ = _prefix_knn.prefix_neighbour_counts(Xt, Xt, Y, 4, [3], exclude_self=True)
    A = Xt.astype(float)
    assert np.array_equal(got[3], neighbour_label_counts(A, A, Y, 4, exclude_self=True))


@pytest.mark.parametrize("seed", range(40))
def test_lean_metrics_equal_compute_metrics_bit_for_bit(seed):
    """Check every metric equals compute_metrics exactly (ties, empty rows, masks)."""
    rng = np.random.default_rng(seed)
    n, q = int(rng.integers(1, 50)), int(rng.integers(1, 9))
    Y = (rng.random((n, q)) < rng.random()).astype(np.int8)
    scores = rng.integers(0, 4, (n, q)) / 3.0 if seed % 2 else rng.random((n, q))
    P = (scores > 0.5).astype(np.int8)
    mask = rng.random(q) < 0.7 if seed % 3 == 0 else None
    names = list(METRICS)
    got = lean_metrics(Y, P, scores, metrics=names, label_mask=mask)
    want = compute_metrics(Y, P, scores, metrics=names, label_mask=mask)
    assert got.keys() == want.keys()
    for name in names:
        assert got[name] == want[name] or (np.isnan(got[name]) and np.isnan(want[name]))


@pytest.fixture(scope="module")
def emotions_fold(shared_datasets):
    ds = load_dataset(shared_datasets / "emotions")
    train, test = holdout_split(np.asarray(ds.Y), test_size=0.4, random_state=0)
    Y = np.asarray(ds.Y)
    cols = np.arange(ds.X.shape[1])[::-1]  # a ranking that is not index order
    return ds.X[train][:, cols], Y[train], ds.X[test][:, cols], Y[test]


def test_budgets_together_equal_one_fit_per_budget(emotions_fold, monkeypatch):
    """Check all budgets at once equal run_fit per budget on emotions, exactly.

    Budget 60 exceeds a lowered prefix width, so the wide-budget path is
    checked too.
    """
    monkeypatch.setattr(_fits, "PREFIX_MAX_WIDTH", 50)
    X_train, Y_train, X_test, Y_test = emotions_fold
    budgets = [1, 2, 3, 7, 20, 50, 60]
    metrics = tuple(METRICS)
    together = run_mlknn_budgets(
        X_train, Y_train, X_test, Y_test, budgets, classifier=MLKNN, seed=0,
        metrics=metrics, drop_constant=True, discretize="uniform", bins=3,
    )  # fmt: skip
    disc = Discretizer(bins=3).fit(X_train)
    A = disc.transform(X_train).astype(float)
    B = disc.transform(X_test).astype(float)
    for b, got in zip(budgets, together):
        want = run_fit(
            A[:, :b], Y_train, B[:, :b], Y_test, classifier=MLKNN, seed=0,
            metrics=metrics, drop_constant=True,
        )  # fmt: skip
        assert got["metrics"] == want["metrics"], b
        assert got["n_fitted"] == want["n_fitted"] == Y_train.shape[1]


def _b_config(shared_datasets, methods):
    return ExperimentConfig(
        datasets=[str(shared_datasets / "emotions")],
        methods=methods,
        protocol=protocol_preset("B", budgets=(1, 2, 5, 10, 30, 72)),
    )


def test_runner_grouped_path_equals_per_fit_path(shared_datasets, monkeypatch):
    """Check a protocol-B run grouped by ranking equals one task per fit."""
    config = _b_config(shared_datasets, ["PPT-MI", "MDMR", "AF"])
    grouped = run_experiment(config)
    monkeypatch.setattr(_fits, "GROUP_BUDGETS", False)
    per_fit = run_experiment(config)
    assert grouped.results.equals(per_fit.results)
    assert grouped.selections.equals(per_fit.selections)


def test_identical_column_sets_are_fitted_once(shared_datasets, tmp_path):
    """Check fits on an already fitted column set are reused, values unchanged.

    On emotions (72 features) every method's budget 72 and AF fit the same
    set. Every reused fit must have an earlier fit on the same set and fold,
    its values must equal a run where every fit really runs (verify), and the
    reuse flags must survive the cache.
    """
    config = _b_config(shared_datasets, ["PPT-MI", "MDMR", "AF"])
    result = run_experiment(config, cache_dir=tmp_path)
    fits = result.timings[result.timings["stage"] == "fit"]
    reused = fits[fits["reused"] == 1]
    assert {"AF", "MDMR"} <= set(reused["method"]) and len(reused) >= 2
    assert (reused["seconds"] == 0).all()
    order = result.selections.set_index("method")["features"]
    for _, row in reused.iterrows():
        k = int(row["budget"])
        own = set(order[row["method"]][:k])
        assert own == set(order["PPT-MI"][:k])
    cached = run_experiment(config, cache_dir=tmp_path)
    assert cached.results.equals(result.results)
    assert cached.timings["reused"].equals(result.timings["reused"])
    check = verify_experiment(config, result.results)
    assert check.n_fits == len(fits) and check.identical
    line = reuse_line(result.timings)
    assert line.startswith(f"{len(reused)} of {len(fits)} fits reused")


def test_one_method_under_two_labels_is_one_task(shared_datasets, tmp_path):
    """Check a method listed twice runs its fits once, the same with the cache."""
    methods = ["PPT-MI", MethodConfig("PPT-MI", label="copy")]
    config = _b_config(shared_datasets, methods)
    result = run_experiment(config, cache_dir=tmp_path)
    values = result.results.set_index(["method", "budget", "metric"])["value"]
    assert values.loc["copy"].equals(values.loc["PPT-MI"])
    cached = run_experiment(config, cache_dir=tmp_path)
    assert cached.timings["reused"].equals(result.timings["reused"])
    assert (result.timings["reused"].fillna(0) == 0).all()


def test_protocol_a_reuse_needs_the_same_column_order(toy):
    """Check protocol A reuses a fit only for the same ordered columns."""
    methods = ["MaxCS", "MaxBNS", "MeanCS"]
    config = ExperimentConfig(
        datasets=[toy], methods=methods, protocol=protocol_preset("A", n_folds=2)
    )
    result = run_experiment(config)
    fits = result.timings[result.timings["stage"] == "fit"]
    sel = result.selections.set_index(["method", "fold"])["features"]
    n_reused = 0
    for _, row in fits[fits["method"] != "MaxCS"].iterrows():
        k, fold = int(row["budget"]), int(row["fold"])
        earlier = ["MaxCS"] if row["method"] == "MaxBNS" else ["MaxCS", "MaxBNS"]
        own = list(sel[row["method"], fold][:k])
        same = any(own == list(sel[m, fold][:k]) for m in earlier)
        assert row["reused"] == float(same)
        n_reused += same
    assert n_reused > 0  # the toy data make some top-k lists coincide
    check = verify_experiment(config, result.results)
    assert check.identical
