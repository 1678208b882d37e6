"""Protocol B under evaluation = "reference-code": config, split, fits."""

from __future__ import annotations

import numpy as np
import pytest

from mlfs_core import load_dataset
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.config import (
    ClassifierConfig,
    ExperimentConfig,
    config_from_toml,
    config_to_toml,
    protocol_preset,
)
from mlfs_core.evaluation.runner import run_experiment
from mlfs_core.evaluation.runner.plan.prepare import prepare
from mlfs_core.measures.discretize import Discretizer
from mlfs_papers.paper001.conventions import (
    REFERENCE_CODE_METRICS,
    REFERENCE_METRICS,
    ReferenceMLkNN,
    lean_reference_metrics,
)

from .oracles import reference_evaluate

BUDGETS = (1, 2, 4, 8)


def test_reference_metric_names_match_the_module():
    """Check the config's list of reference metrics is the module's."""
    assert REFERENCE_CODE_METRICS == tuple(REFERENCE_METRICS)


def test_config_round_trips_and_rejects_what_the_variant_cannot_do(tmp_path):
    """Check TOML round trip, default metrics, and clear errors for bad combos."""
    protocol = protocol_preset("B", evaluation="reference-code")
    assert protocol.metrics == REFERENCE_CODE_METRICS
    config = ExperimentConfig(datasets=["sample"], methods=["PMU"], protocol=protocol)
    text = config_to_toml(config)
    assert '[protocol.evaluation]\npreset = "reference-code"' in text
    assert config_from_toml(text) == config
    assert config_from_toml(config_to_toml(config)).protocol.evaluation == (
        "reference-code"
    )
    with pytest.raises(ConfigError, match="evaluation"):
        protocol_preset("B", evaluation="authors")
    with pytest.raises(ConfigError, match="mlknn"):
        protocol_preset(
            "B", evaluation="reference-code", classifier=ClassifierConfig("linear_svc")
        )
    with pytest.raises(ConfigError, match="micro_f1"):
        protocol_preset("B", evaluation="reference-code", metrics=("micro_f1",))


def _config(data, evaluation: str):
    return ExperimentConfig(
        datasets=[data],
        methods=["PPT-MI"],
        protocol=protocol_preset("B", budgets=BUDGETS, evaluation=evaluation),
    )


def test_reference_code_uses_mulans_predefined_split(shared_datasets):
    """Check emotions is split as Mulan publishes it (391 / 202), not 60/40."""
    path = str(shared_datasets / "emotions")
    (ours,), _ = prepare(_config(path, "definition"))
    (theirs,), _ = prepare(_config(path, "reference-code"))
    train, test = theirs.splits[0]
    assert (len(train), len(test)) == (391, 202)
    assert len(ours.splits[0][0]) != 391
    assert theirs.n_features == ours.n_features == 72


def test_reference_fits_equal_the_reference_module(shared_datasets):
    """Check the runner's reference-code values equal ReferenceMLkNN + its metrics.

    And that the two evaluations differ where the conventions say they must:
    ranking loss and coverage on 0/1 predictions vs on scores.
    """
    path = str(shared_datasets / "emotions")
    config = _config(path, "reference-code")
    result = run_experiment(config)
    (d,), _ = prepare(config)
    train, test = d.splits[0]
    X, Y = d.dataset.X, np.asarray(d.dataset.Y)
    order = np.asarray(result.selections["features"].iloc[0])
    cols = order[: max(BUDGETS)]
    disc = Discretizer(bins=3).fit(X[train][:, cols])
    A = disc.transform(X[train][:, cols]).astype(float)
    B = disc.transform(X[test][:, cols]).astype(float)
    got = result.results.set_index(["budget", "metric"])["value"]
    for b in BUDGETS:
        P = ReferenceMLkNN(k=10).fit(A[:, :b], Y[train]).predict(B[:, :b])
        want = reference_evaluate(Y[train], Y[test], P)
        for metric, value in want.items():
            assert got[b, metric] == value, (b, metric)
    ours = run_experiment(_config(path, "definition")).results
    assert not set(ours["metric"]) >= {"weighted_f1", "weighted_jaccard"}
    ours_loss = ours[ours["metric"] == "ranking_loss"]["value"].to_numpy()
    theirs_loss = got.xs("ranking_loss", level="metric").to_numpy()
    assert not np.array_equal(ours_loss, theirs_loss)


def test_dataset_without_a_predefined_split_keeps_the_holdout(shared_datasets):
    """Check flags (no Mulan pair) keeps the seeded hold-out split."""
    path = str(shared_datasets / "flags")
    (ours,), _ = prepare(_config(path, "definition"))
    (theirs,), _ = prepare(_config(path, "reference-code"))
    assert np.array_equal(ours.splits[0][0], theirs.splits[0][0])
    assert ours.content_hash == theirs.content_hash
    assert load_dataset(path).X.shape[0] == len(ours.splits[0][0]) + len(
        ours.splits[0][1]
    )


@pytest.mark.parametrize("seed", range(30))
def test_lean_reference_metrics_equal_the_modules_bit_for_bit(seed):
    """Check the runner's reference metrics equal REFERENCE_METRICS exactly
    (ties everywhere: the scores are the 0/1 predictions).
    """
    rng = np.random.default_rng(seed)
    n, q = int(rng.integers(1, 40)), int(rng.integers(2, 8))
    Y = (rng.random((n, q)) < rng.random()).astype(np.int8)
    P = (rng.random((n, q)) < rng.random()).astype(np.int8)
    got = lean_reference_metrics(Y, P, REFERENCE_CODE_METRICS)
    for name, spec in REFERENCE_METRICS.items():
        assert got[name] == spec.function(Y, P, P), name


# ------------------------------------------------- one convention at a time
from mlfs_core.evaluation.classifiers.mlknn import MLkNN  # noqa: E402
from mlfs_core.evaluation.conventions import PRESETS  # noqa: E402

CONVENTIONS = PRESETS["reference-code"]
from mlfs_core.evaluation.conventions import (  # noqa: E402
    names_of as evaluation_conventions,
)
from mlfs_papers.paper001.conventions import (  # noqa: E402
    Conventions,
    paper001_metrics,
)

BOTH_METRICS = (
    "hamming_loss",
    "ranking_loss",
    "coverage_error",
    "micro_f1",
    "jaccard_samples",
    "subset_accuracy",
    "weighted_f1",
    "weighted_jaccard",
)


def test_convention_sets_parse_validate_and_round_trip():
    """Check every convention set parses, keeps its order, and bad ones fail."""
    assert evaluation_conventions("definition") == ()
    assert evaluation_conventions("reference-code") == CONVENTIONS
    assert evaluation_conventions("split+ranking_on_predictions") == (
        "split",
        "ranking_on_predictions",
    )
    for name in CONVENTIONS:
        protocol = protocol_preset("B", evaluation=name)
        assert Conventions.from_evaluation(name) == Conventions.only(name)
        assert Conventions.only(name).label() == name
        want = REFERENCE_CODE_METRICS if name == "weighted_and_drop" else None
        if want is not None:
            assert protocol.metrics == want
        else:
            assert "micro_f1" in protocol.metrics
        config = ExperimentConfig(
            datasets=["sample"], methods=["PMU"], protocol=protocol
        )
        assert config_from_toml(config_to_toml(config)).protocol.evaluation == name
    assert Conventions.from_evaluation("reference-code") == Conventions()
    assert Conventions.from_evaluation("definition") == Conventions.none()
    for bad in ("mlknn+split", "mlknn+mlknn", "split+", "weights"):
        with pytest.raises(ConfigError, match="in that order"):
            protocol_preset("B", evaluation=bad)
    with pytest.raises(ConfigError, match="scaling"):
        protocol_preset(
            "B",
            evaluation="mlknn",
            classifier=ClassifierConfig("mlknn", {"k": 10, "scaling": "minmax"}),
        )
    with pytest.raises(ConfigError, match="macro_auc|not among"):
        protocol_preset("B", evaluation="mlknn", metrics=("no_such_metric",))


def _convention_config(path: str, evaluation: str, metrics=BOTH_METRICS):
    return ExperimentConfig(
        datasets=[path],
        methods=["PPT-MI"],
        protocol=protocol_preset(
            "B", budgets=BUDGETS, evaluation=evaluation, metrics=metrics
        ),
    )


def test_all_four_conventions_joined_equal_reference_code(shared_datasets):
    """Check the '+'-joined set of all four gives reference-code's values exactly."""
    path = str(shared_datasets / "emotions")
    joined = "+".join(CONVENTIONS)
    a = run_experiment(_convention_config(path, joined, REFERENCE_CODE_METRICS))
    b = run_experiment(
        _convention_config(path, "reference-code", REFERENCE_CODE_METRICS)
    )
    key = ["budget", "metric"]
    got = a.results.set_index(key)["value"].sort_index()
    want = b.results.set_index(key)["value"].sort_index()
    assert got.index.equals(want.index)
    np.testing.assert_array_equal(got.to_numpy(), want.to_numpy())


@pytest.mark.parametrize("name", CONVENTIONS)
def test_one_convention_alone_equals_paper001_metrics(shared_datasets, name):
    """Check the runner under one convention equals a direct fit scored by
    ``paper001_metrics(conventions=Conventions.only(name))``, and that the
    split convention alone changes the split while the others keep ours.
    """
    path = str(shared_datasets / "emotions")
    config = _convention_config(path, name)
    result = run_experiment(config)
    (d,), _ = prepare(config)
    (ours,), _ = prepare(_convention_config(path, "definition", ("micro_f1",)))
    train, test = d.splits[0]
    assert (len(train) == 391) == (name == "split")
    if name != "split":
        assert np.array_equal(train, ours.splits[0][0])
    conventions = Conventions.only(name)
    X, Y = d.dataset.X, np.asarray(d.dataset.Y)
    cols = np.asarray(result.selections["features"].iloc[0])[: max(BUDGETS)]
    disc = Discretizer(bins=3).fit(X[train][:, cols])
    A = disc.transform(X[train][:, cols]).astype(float)
    B = disc.transform(X[test][:, cols]).astype(float)
    got = result.results.set_index(["budget", "metric"])["value"]
    weighted = conventions.weighted_and_drop
    names = {
        "hamming_loss": "hamming_loss",
        "ranking_loss": "ranking_loss",
        "coverage_error": "coverage_error",
        "f1": "weighted_f1" if weighted else "micro_f1",
        "jaccard": "weighted_jaccard" if weighted else "jaccard_samples",
        "accuracy": "subset_accuracy",
    }
    for b in BUDGETS:
        kind = ReferenceMLkNN if conventions.mlknn else MLkNN
        model = kind(k=10).fit(A[:, :b], Y[train])
        P, S = model.predict(B[:, :b]), model.predict_proba(B[:, :b])
        want = paper001_metrics(Y[train], Y[test], P, S, conventions=conventions)
        for paper, ours_name in names.items():
            assert got[b, ours_name] == pytest.approx(want[paper], abs=1e-12), (
                name,
                b,
                paper,
            )


def test_protocol_numbers_accept_numpy_integers_and_refuse_bools():
    """Check numpy ints pass as ints (stored as Python ints, TOML-writable)
    and bools are refused, for counts, seeds and budgets.
    """
    protocol = protocol_preset(
        "B", bins=np.int64(4), n_repeats=np.int32(2), budgets=(np.int64(1), np.int16(3))
    )
    assert (protocol.bins, protocol.n_repeats, protocol.budgets) == (4, 2, (1, 3))
    assert all(type(v) is int for v in (protocol.bins, *protocol.budgets))
    config = ExperimentConfig(
        datasets=["sample"], methods=["PMU"], protocol=protocol, seed=np.int64(7)
    )
    assert config.seed == 7 and type(config.seed) is int
    assert config_from_toml(config_to_toml(config)) == config
    for bad in ({"bins": True}, {"n_folds": np.bool_(True)}, {"budgets": (True,)}):
        with pytest.raises(ConfigError):
            protocol_preset("B", **bad)
