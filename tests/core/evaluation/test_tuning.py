"""Hyper-parameter grids: chosen per dataset and fold on an inner split, reported."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import ExperimentConfig, protocol_preset, run_experiment
from mlfs_core.evaluation.config import (
    MethodConfig,
    TuningConfig,
    config_from_toml,
    config_to_toml,
)
from mlfs_core.evaluation.runner import plan_experiment
from mlfs_core.report import write_outputs
from mlfs_core.selectors._registry import Ranking, register, unregister

SEEN: list[set] = []


def _guided(X, Y, *, k, random_state=None, flip=0):
    """Rank feature 1 (label 0's cause) first with flip = 0, last otherwise;
    record the row ids (feature 0) it was given."""
    X = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
    SEEN.append(set(X[:, 0].astype(int).tolist()))
    m = X.shape[1]
    scores = np.zeros(m)
    scores[1] = 1.0 if flip == 0 else -1.0
    scores[2:] = np.linspace(0.5, 0.1, m - 2)
    return Ranking(order=np.argsort(-scores, kind="stable")[:k], scores=scores)


def _dataset(rng, n=90):
    """Row ids in feature 0; every label a threshold of feature 1."""
    from mlfs_core.data import Dataset

    X = rng.poisson(1.5, size=(n, 8)).astype(float)
    X[:, 0] = np.arange(1, n + 1)
    Y = np.column_stack([X[:, 1] > 0, X[:, 1] > 1, X[:, 1] > 2]).astype(np.int8)
    names = [f"f{i}" for i in range(8)]
    return Dataset(X=X, Y=Y, feature_names=names, label_names=["a", "b", "c"])


@pytest.fixture
def guided():
    register(_guided, name="Guided", score_kind="score")
    SEEN.clear()
    yield "Guided"
    unregister("Guided")


def _config(dataset, params, **tuning):
    protocol = protocol_preset(
        "field",
        split="cv",
        n_folds=3,
        budgets=(1,),
        metrics=("macro_f1", "hamming_loss"),
        classifier={"name": "mlknn", "params": {"k": 3}},
    )
    return ExperimentConfig(
        datasets=(dataset,),
        methods=(MethodConfig("Guided", params),),
        protocol=protocol,
        seed=5,
        tuning=TuningConfig(**tuning) if tuning else None,
    )


def test_a_grid_is_checked_value_by_value_and_round_trips(guided):
    """Check every grid value is checked, a grid brings the default [tuning],
    and the TOML form keeps the grid and the inner split."""
    text = (
        'methods = [{ name = "PMU", params = { bins = [3, 5] } }]\n'
        '[[datasets]]\npath = "sample"\n'
    )
    config = config_from_toml(text)
    assert config.tuning == TuningConfig()
    written = config_to_toml(config)
    assert "bins = [\n    3,\n    5,\n]" in written or "bins = [3, 5]" in written
    assert "[tuning]" in written and "test_size = 0.3" in written
    assert config_from_toml(written) == config
    with pytest.raises(ConfigError, match="bins"):
        config_from_toml(text.replace("[3, 5]", "[3, 1]"))
    with pytest.raises(ConfigError, match="tuning.test_size"):
        config_from_toml(text + "[tuning]\ntest_size = 1.5\n")
    with pytest.raises(ConfigError, match="plan_tuned"):
        plan_experiment(config)


def test_the_grid_is_chosen_on_inner_splits_of_the_training_parts_only(guided, rng):
    """Check every ranking the tuned method computed saw rows of one outer
    training part only (never a test row of that fold), the inner rankings
    fewer rows than the outer, and the informative option won on every fold."""
    dataset = _dataset(rng)
    config = _config(dataset, {"flip": [1, 0]})
    result = run_experiment(config)
    from mlfs_core.evaluation import stratified_kfold

    folds = stratified_kfold(dataset.Y, n_folds=3, random_state=5)
    train_sets = [set((train + 1).tolist()) for train, _ in folds]
    assert SEEN and all(any(seen <= t for t in train_sets) for seen in SEEN)
    sizes = sorted({len(s) for s in SEEN})
    assert sizes[0] < sizes[-1]  # inner parts are smaller than outer parts
    table = result.tuning
    assert list(table.columns) == [
        "dataset",
        "method",
        "fold",
        "option",
        "value",
        "score",
    ]
    assert sorted(table["fold"]) == [0, 1, 2]
    assert (table["option"] == "flip").all() and (table["value"] == 0).all()


def test_the_chosen_value_runs_the_outer_folds(guided, rng):
    """Check the outer results equal a run with the chosen value fixed, and
    the inner scores equal a plain inner experiment of the chosen candidate."""
    dataset = _dataset(rng)
    tuned = run_experiment(_config(dataset, {"flip": [1, 0]}, metric="macro_f1"))
    fixed = run_experiment(_config(dataset, {"flip": 0}))
    pd.testing.assert_frame_equal(
        tuned.results.reset_index(drop=True), fixed.results.reset_index(drop=True)
    )
    from mlfs_core.evaluation import stratified_kfold

    train = stratified_kfold(dataset.Y, n_folds=3, random_state=5)[1][0]
    inner = ExperimentConfig(
        datasets=(dataset.subset(train),),
        methods=(MethodConfig("Guided", {"flip": 0}, label="Guided#1"),),
        protocol=protocol_preset(
            "field",
            split="holdout",
            test_size=0.3,
            budgets=(1,),
            metrics=("macro_f1",),
            classifier={"name": "mlknn", "params": {"k": 3}},
        ),
        seed=5,
    )
    expected = run_experiment(inner).results["value"].mean()
    row = tuned.tuning[tuned.tuning["fold"] == 1].iloc[0]
    assert row["score"] == pytest.approx(expected)


def test_ties_go_to_the_first_candidate_and_the_report_names_the_choice(
    guided, rng, tmp_path
):
    """Check equal candidates choose the first listed, and tuning.csv and
    summary.md report the choices."""
    dataset = _dataset(rng)
    result = run_experiment(_config(dataset, {"flip": [2, 1]}))  # both rank alike
    assert (result.tuning["value"] == 2).all()
    written = {p.name for p in write_outputs(result, tmp_path)}
    assert "tuning.csv" in written
    table = pd.read_csv(tmp_path / "tuning.csv")
    assert len(table) == 3 and set(table["value"]) == {2}
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "Guided: flip chosen per dataset and fold on an inner split" in summary
    assert "2 (3x)" in summary
