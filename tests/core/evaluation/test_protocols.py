"""Tests of mlfs_core.evaluation.config (config dataclasses and TOML)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.config import (
    DatasetSpec,
    ExperimentConfig,
    MethodConfig,
    config_from_toml,
    config_to_toml,
    load_config,
    protocol_preset,
    save_config,
)

HEAD = 'methods = ["MaxCS"]\n[[datasets]]\npath = "x"\n'
CONFIGS = Path(__file__).resolve().parents[3] / "configs"


def test_toml_round_trip(tmp_path):
    """Check that a config written to TOML and read back is equal to the original."""
    config = ExperimentConfig(
        datasets=[DatasetSpec("data/x.arff", name="x", labels=("a", "b")), "sample"],
        methods=[
            "MaxCS",
            MethodConfig("RaRCS", {"weighting": "uniform"}, label="RaRu"),
        ],
        protocol=protocol_preset("B", n_repeats=2),
        seed=11,
        name="rt",
    )
    path = tmp_path / "c.toml"
    save_config(config, path)
    assert load_config(path) == config
    assert config_from_toml(config_to_toml(config)) == config


def test_paper_protocol_defaults():
    """Check the defaults of protocols A and B against METHODS.md section 5."""
    a, b = protocol_preset("A"), protocol_preset("B")
    assert (a.split, a.n_folds, a.n_repeats) == ("cv", 10, 3)
    assert a.budgets == tuple(range(10, 100, 10)) and a.budget_unit == "percent"
    assert a.classifier.name == "linear_svc"
    assert a.classifier.params == {"C": 3.0, "tol": 0.001}
    assert a.label_handling == "keep"
    assert (b.split, b.test_size, b.budgets) == ("own", 0.4, tuple(range(1, 51)))
    assert b.classifier.name == "mlknn" and b.classifier.params == {"k": 10, "s": 1.0}
    assert (b.discretize, b.bins, b.label_handling) == ("uniform", 3, "drop_constant")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            'methods = ["MaxCS"]\n[[datasets]]\npath = "x"\n[protocol]\nfolds = 3',
            "unknown key",
        ),
        (
            'methods = ["MaxCS"]\n[[datasets]]\npath = "x"\n[protocol]\nsplit = "loo"',
            "protocol.split",
        ),
        (
            HEAD + '[protocol]\nbudget_unit = "percent"\nbudgets = [120]',
            "above 100",
        ),
        ('methods = []\n[[datasets]]\npath = "x"', "at least one method"),
        ('methods = ["MaxCS", "MaxCS"]\n[[datasets]]\npath = "x"', "unique"),
        ("methods = [", "not valid TOML"),
    ],
)
def test_bad_config_text_raises(text, match):
    """Check that malformed configs raise ConfigError naming the problem."""
    with pytest.raises(ConfigError, match=match):
        config_from_toml(text)


def test_in_memory_dataset_cannot_be_written(toy):
    """Check that a config holding an in-memory dataset refuses to become TOML."""
    config = ExperimentConfig(datasets=[toy], methods=["MaxCS"])
    with pytest.raises(ConfigError, match="in-memory"):
        config_to_toml(config)


@pytest.mark.parametrize("name", ["protocol_a", "protocol_b", "sample_a", "sample_b"])
def test_example_configs_load(name):
    """Check that the example configs in configs/ parse and round-trip."""
    config = load_config(CONFIGS / f"{name}.toml")
    assert config_from_toml(config_to_toml(config)) == config
    assert config.protocol.name == ("A" if name.endswith("a") else "B")


def test_clipped_budgets_warn_and_error_mode_names_the_budget():
    """Check on_large_budget = "clip" drops budgets above M with a warning
    naming them, and "error" raises naming the budget and the dataset.
    """
    from mlfs_core.evaluation.config import protocol_preset
    from mlfs_core.evaluation.runner.plan.prepare import resolve_budgets

    protocol = protocol_preset("B", budgets=(1, 5, 12, 40))
    with pytest.warns(UserWarning, match=r"2 budget\(s\) larger than the 10 .*12, 40"):
        kept = resolve_budgets(protocol, 10, "toy")
    assert [b.k for b in kept] == [1, 5]
    strict = protocol_preset("B", budgets=(1, 12), on_large_budget="error")
    with pytest.raises(ConfigError, match="12 is larger .* toy"):
        resolve_budgets(strict, 10, "toy")


def test_a_classifier_named_without_params_gets_its_own_defaults():
    """Check naming ML-kNN in a TOML without params does not inherit LinearSVC's
    C and tol, LinearSVC keeps the papers' C = 3, and both round-trip.
    """
    from mlfs_core.evaluation.config import (
        ClassifierConfig,
        ExperimentConfig,
        config_from_toml,
        config_to_toml,
    )

    text = (
        'methods = ["MaxCS"]\n[protocol]\nname = "B"\n[protocol.classifier]\n'
        'name = "mlknn"\n[[datasets]]\npath = "sample"\n'
    )
    config = config_from_toml(text)
    assert config.protocol.classifier.params == {}
    assert ClassifierConfig().params is None  # not given: the protocol fills it
    svc = {"name": "linear_svc"}
    # the preset's parameters for a classifier named without them (A and B
    # state LinearSVC's), else the classifier's own defaults; given ones win
    assert protocol_preset("A", classifier=svc).classifier.params == {
        "C": 3.0,
        "tol": 0.001,
    }
    assert protocol_preset("field", classifier=svc).classifier.params == {}
    given = {"name": "linear_svc", "params": {"C": 0.5}}
    assert protocol_preset("B", classifier=given).classifier.params == {
        "C": 0.5,
        "tol": 0.001,
    }
    assert config_from_toml(config_to_toml(config)) == config
    assert isinstance(config, ExperimentConfig)


def test_the_protocol_defaults_come_from_its_constraint_table():
    """Check the one place: a protocol's scalar settings are its preset's,
    else those of PROTOCOL_OPTIONS, and every preset value is allowed by its
    Option."""
    from mlfs_core.evaluation.config import (
        PROTOCOL_DEFAULTS,
        PROTOCOL_OPTIONS,
        PROTOCOL_PRESETS,
        ProtocolConfig,
        protocol_preset_names,
    )

    assert {"field", "A", "B"} <= set(protocol_preset_names())
    for preset in PROTOCOL_PRESETS.values():
        made = ProtocolConfig(name=preset.name)
        for option in PROTOCOL_OPTIONS:
            if option.name in preset.settings:
                value = preset.settings[option.name]
                assert option.check(value) == value
                assert getattr(made, option.name) == value
            elif option.name not in ("n_folds", "test_size", "n_holdouts"):
                assert getattr(made, option.name) == PROTOCOL_DEFAULTS[option.name]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"test_size": 1.0}, "protocol.test_size must be a number in (0, 1), got 1.0"),
        ({"test_size": True}, "test_size must be a number in (0, 1), got True"),
        ({"budgets": 5}, "protocol.budgets must be a list of numbers, got 5"),
        ({"budgets": ()}, "protocol.budgets must not be empty"),
    ],
)
def test_a_bad_protocol_value_is_one_clear_error(overrides, message):
    """Check the range of test_size (from the constraint table) and budgets
    that are not a list (a TypeError before) are named."""
    with pytest.raises(ConfigError) as caught:
        protocol_preset("B", **overrides)
    assert message in str(caught.value)


def test_a_bad_evaluation_does_not_hide_the_other_problems():
    """Check an unknown evaluation and bad settings come in one message (the
    evaluation's error used to stop the check before the settings')."""
    with pytest.raises(ConfigError) as caught:
        protocol_preset("B", evaluation="no-such-convention", bins=1, split="loo")
    message = str(caught.value)
    assert "protocol.evaluation must be 'definition'" in message
    assert "protocol.bins must be an int in [2, 1000], got 1" in message
    split = "protocol.split must be one of cv, holdout, own, repeated_holdout; got"
    assert f"{split} 'loo'" in message


def test_budgets_may_be_any_sequence_and_are_stored_as_plain_numbers():
    import numpy as np

    p = protocol_preset("B", budgets=range(1, 4))
    assert p.budgets == (1, 2, 3)
    q = protocol_preset("A", budgets=np.array([10.0, 25.5]))
    assert q.budgets == (10.0, 25.5) and type(q.budgets[0]) is float


def test_a_method_the_config_did_not_know_is_checked_before_any_work(toy):
    """Check a method registered after its config was built (a plug-in loaded
    later) has its option values checked by the same factory before anything
    runs (only its unknown names were, before)."""
    from mlfs_core.evaluation.runner import run_experiment
    from mlfs_core.options import Option
    from mlfs_core.selectors import register, unregister

    calls = []

    def LateH5(X, Y, *, k, random_state, alpha=1.0):
        calls.append(alpha)
        return list(range(k))

    config = ExperimentConfig(
        datasets=[toy],
        methods=[{"name": "LateH5", "params": {"alpha": -1.0}}],
        protocol=protocol_preset("A", n_folds=2, budgets=(50,)),
    )
    register(LateH5, options=(Option("alpha", 1.0, low=0.0),))
    try:
        with pytest.raises(ConfigError) as caught:
            run_experiment(config)
    finally:
        unregister("LateH5")
    assert "methods: 'LateH5': alpha must be a number >= 0, got -1.0" in str(
        caught.value
    )
    assert calls == []
