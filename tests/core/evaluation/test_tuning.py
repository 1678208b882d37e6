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
from mlfs_core.selectors import Ranking, register, unregister

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


def test_verify_chooses_each_grid_value_again_and_compares_it(guided, rng):
    """Check verify_experiment of a grid config re-runs the inner choices: the
    same choices and values are identical; a stored choice changed, or none
    recorded, is reported and makes the run not identical."""
    from mlfs_core.evaluation.runner.results.verify import verify_experiment

    dataset = _dataset(rng)
    config = _config(dataset, {"flip": [1, 0]})
    result = run_experiment(config)
    check = verify_experiment(config, result.results, tuning=result.tuning)
    assert check.identical and check.max_abs_diff == 0.0
    assert len(check.tuning) == 3 and check.tuning["same"].all()
    assert check.tuning["recomputed"].tolist() == [0, 0, 0]
    changed = result.tuning.copy()
    changed.loc[changed["fold"] == 1, "value"] = 1
    bad = verify_experiment(config, result.results, tuning=changed)
    assert bad.table["abs_diff"].max() == 0.0  # the fits use the choices made again
    assert not bad.identical and not bad.tuning_identical
    assert bad.tuning["same"].tolist() == [True, False, True]
    missing = verify_experiment(config, result.results, sample=1)
    assert not missing.identical and not missing.tuning["same"].any()


def test_cli_verify_of_a_run_with_grids(tmp_path, capsys):
    """Check `mlfs verify` of a folder whose config has grids (two options, a
    number and a text) chooses them again: exit 0 and the choices identical;
    a choice edited in tuning.csv: exit 1, naming it."""
    from mlfs_core.cli import main

    protocol = protocol_preset(
        "field",
        split="cv",
        n_folds=2,
        budgets=(2, 4),
        metrics=("macro_f1",),
        classifier={"name": "mlknn", "params": {"k": 3}},
    )
    config = ExperimentConfig(
        datasets=("sample",),
        methods=(
            MethodConfig(
                "PMU", {"bins": [2, 4], "discretize": ["uniform", "quantile"]}
            ),
        ),
        protocol=protocol,
        seed=1,
        tuning=TuningConfig(test_size=0.3),
    )
    path = tmp_path / "grid.toml"
    path.write_text(config_to_toml(config), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["experiment", str(path), "--out", str(out), "--no-cache"]) == 0
    stored = pd.read_csv(out / "tuning.csv")
    assert set(stored["option"]) == {"bins", "discretize"}
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"chose the values of {len(stored)} grid options again" in said
    assert "inner splits: identical" in said and "; identical" in said
    row = stored.index[(stored["option"] == "bins") & (stored["fold"] == 0)][0]
    was = stored.loc[row, "value"]
    stored.loc[row, "value"] = "4" if str(was) == "2" else "2"
    stored.to_csv(out / "tuning.csv", index=False)
    assert main(["verify", str(out)]) == 1
    said = capsys.readouterr().out
    assert "1 DIFFERENT" in said
    assert f"sample, PMU, fold 0: bins stored {stored.loc[row, 'value']}" in said
