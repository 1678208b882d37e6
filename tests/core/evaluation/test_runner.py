"""Tests of mlfs_core.evaluation.runner."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import CLASSIFIERS, make_classifier, register_classifier
from mlfs_core.evaluation.config import ExperimentConfig, protocol_a, protocol_b
from mlfs_core.evaluation.runner import run_experiment
from mlfs_core.evaluation.splits import stratified_kfold


def _config(datasets, methods, **protocol):
    defaults = {
        "n_folds": 3,
        "budgets": (20, 50),
        "n_repeats": 2,
        "metrics": ("micro_f1", "hamming_loss"),
    }
    return ExperimentConfig(
        datasets=datasets,
        methods=methods,
        protocol=protocol_a(**{**defaults, **protocol}),
        seed=3,
    )


def test_selection_never_sees_the_test_fold(rng, spy, make_dataset):
    """Check that the method only ever receives the training rows of each fold."""
    ds = make_dataset(rng, row_ids=True)  # feature 0 = row number + 1
    run_experiment(_config([ds], ["Spy"]))
    folds = stratified_kfold(ds.Y, n_folds=3, random_state=3)  # the config's seed
    assert len(spy) == 3
    unseen = []
    for call, (train, test) in zip(spy, folds):
        seen = call["X"][:, [0]].toarray().ravel().astype(int) - 1
        assert np.array_equal(np.sort(seen), train)
        assert np.intersect1d(seen, test).size == 0
        unseen.append(set(range(ds.X.shape[0])) - set(seen))
    # the rows withheld from the three calls partition the dataset
    assert sorted(i for u in unseen for i in u) == list(range(ds.X.shape[0]))


def test_ranking_computed_once_at_max_budget_and_sliced(toy, spy):
    """Check one selection per fold at the largest budget, with nested budgets."""
    result = run_experiment(_config([toy], ["Spy"], budgets=(10, 30, 50)))
    assert [c["k"] for c in spy] == [5, 5, 5]
    budgets = sorted(result.results["budget"].unique())
    assert budgets == [1, 3, 5]
    assert set(result.results["budget_pct"]) == {10.0, 30.0, 50.0}


def test_grid_shape_repeats_and_af(toy):
    """Check repeats for stochastic methods only and AF at budget M only."""
    result = run_experiment(_config([toy], ["MaxCS", "Random", "AF"]))
    res = result.results
    assert set(res.loc[res["method"] == "MaxCS", "repeat"]) == {0}
    assert set(res.loc[res["method"] == "Random", "repeat"]) == {0, 1}
    af = res[res["method"] == "AF"]
    assert set(af["budget"]) == {10} and set(af["budget_pct"]) == {100.0}
    # 3 folds x (MaxCS 2 budgets + Random 2 repeats x 2 budgets + AF 1) x 2 metrics
    assert len(res) == 3 * (2 + 4 + 1) * 2
    assert np.isfinite(res["value"]).all()
    assert set(result.timings["stage"]) == {"selection", "fit", "predict", "metrics"}


def test_stochastic_repeats_differ_and_are_reproducible(toy):
    """Check that Random repeats differ and a rerun gives the same rankings."""
    a = run_experiment(_config([toy], ["Random"])).selections
    b = run_experiment(_config([toy], ["Random"])).selections
    first = a[a["fold"] == 0]["features"].tolist()
    assert not np.array_equal(first[0], first[1])
    assert all(np.array_equal(x, y) for x, y in zip(a["features"], b["features"]))


def test_results_identical_for_one_and_two_jobs(toy):
    """Check that n_jobs = 2 gives exactly the results of n_jobs = 1."""
    config = _config([toy], ["MaxCS", "RaRBNS", "AF"])
    one = run_experiment(config, n_jobs=1)
    two = run_experiment(config, n_jobs=2)
    pd.testing.assert_frame_equal(one.results, two.results)
    assert all(
        np.array_equal(x, y)
        for x, y in zip(one.selections["features"], two.selections["features"])
    )


@pytest.fixture
def counted_classifier():
    fits = []

    def factory(*, random_state, **params):
        fits.append(1)
        return make_classifier("linear_svc", {}, random_state=random_state)

    register_classifier("counted", factory)
    yield fits
    del CLASSIFIERS["counted"]


def test_cache_hit_on_rerun_recomputes_nothing(toy, spy, counted_classifier, tmp_path):
    """Check that a rerun with the same cache runs no selection and no fit."""
    config = _config([toy], ["Spy"], classifier={"name": "counted", "params": {}})
    first = run_experiment(config, cache_dir=tmp_path)
    n_sel, n_fit = len(spy), len(counted_classifier)
    assert n_sel == 3 and n_fit > 3  # validation builds one classifier too
    progress = []
    second = run_experiment(
        config, cache_dir=tmp_path, progress=lambda d, t, m: progress.append((d, t, m))
    )
    assert len(spy) == n_sel
    assert len(counted_classifier) == n_fit + 1  # only the validation build
    pd.testing.assert_frame_equal(first.results, second.results)
    assert progress[-1][0] == progress[-1][1] == 3 + 6
    assert all("(cached)" in m for _, _, m in progress)


def test_interrupted_run_resumes_from_cache(toy, spy, tmp_path):
    """Check that tasks finished before an interrupt are not recomputed."""
    config = _config([toy], ["Spy"])

    def stop_after_two(done, total, message):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_experiment(config, cache_dir=tmp_path, progress=stop_after_two)
    assert len(spy) == 2
    run_experiment(config, cache_dir=tmp_path)
    assert len(spy) == 3  # only the third fold's selection was left


def test_protocol_b_own_split_clipped_budgets_and_mlknn(rng, make_dataset):
    """Check protocol B: the dataset's own split, budgets clipped to M, ML-kNN."""
    split = np.array([0] * 24 + [1] * 12, dtype=np.int8)
    ds = make_dataset(rng, split=split)
    config = ExperimentConfig(
        datasets=[ds],
        methods=["MaxCS"],
        protocol=protocol_b(budgets=(1, 2, 50), metrics=("hamming_loss",)),
    )
    with pytest.warns(UserWarning, match=r"larger than the 10 features .*: 50"):
        result = run_experiment(config)
    assert sorted(result.results["budget"]) == [1, 2]
    assert set(result.results["fold"]) == {0}
    assert result.results["budget_pct"].isna().all()


def test_holdout_split_without_own_split(toy):
    """Check that protocol B falls back to a 60/40 split on a dataset without one."""
    config = ExperimentConfig(
        datasets=[toy],
        methods=["MaxCS"],
        protocol=protocol_b(budgets=(3,), metrics=("hamming_loss",), discretize="none"),
    )
    result = run_experiment(config)
    assert len(result.results) == 1 and len(result.selections) == 1


@pytest.mark.parametrize(
    ("methods", "protocol", "match"),
    [
        (["NoSuchMethod"], {}, "unknown method"),
        (["MaxCS"], {"metrics": ("f3",)}, "unknown metric"),
        (
            ["MaxCS"],
            {"budgets": (11,), "budget_unit": "count"},
            "larger than the number",
        ),
        (["MaxCS"], {"n_folds": 40}, "larger than the number of samples"),
        (["RaRCS"], {}, None),
    ],
)
def test_bad_configs_fail_before_any_work(
    toy, spy, make_dataset, methods, protocol, match
):
    """Check that config errors are raised before any selection runs."""
    datasets = [toy, make_dataset(np.random.default_rng(1), name="other")]
    with pytest.raises(ConfigError, match=match or "unknown parameter"):
        if match is None:  # unknown method parameter: refused by the config itself
            methods = [{"name": "RaRCS", "params": {"bins": 3}}]
            config = ExperimentConfig(datasets=datasets, methods=methods)
        else:
            config = _config(datasets, ["Spy", *methods], **protocol)
        run_experiment(config)
    assert spy == []


def test_missing_dataset_path_is_a_config_error(tmp_path):
    """Check that a dataset path that does not exist names the parameter."""
    config = ExperimentConfig(datasets=[str(tmp_path / "nope.arff")], methods=["MaxCS"])
    with pytest.raises(ConfigError, match=r"datasets\[0\].path"):
        run_experiment(config)
