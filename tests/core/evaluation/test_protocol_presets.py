"""The registry of protocol presets: the field's preset, a user's, the papers'."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import (
    ExperimentConfig,
    protocol_preset,
    register_protocol_preset,
    repeated_holdout,
    run_experiment,
    unregister_protocol_preset,
)
from mlfs_core.evaluation.config import (
    FIELD_METRICS,
    PROTOCOL_PRESETS,
    config_from_toml,
    config_to_toml,
    protocol_preset_spec,
)
from mlfs_core.evaluation.metrics import higher_is_better
from tests.fresh import run_fresh


@pytest.fixture
def cleanup():
    """Names registered by a test, removed after it."""
    names: list[str] = []
    yield names
    for name in names:
        if name in PROTOCOL_PRESETS:
            unregister_protocol_preset(name)


def test_the_field_preset_is_the_fields_protocol():
    """Check ML-kNN k = 10, s = 1, top 1..50, 5 x 70/30 splits, six metrics with
    their directions, Bonferroni-Dunn; 10-fold CV is one override away."""
    p = protocol_preset("field")
    assert (p.classifier.name, p.classifier.params) == ("mlknn", {"k": 10, "s": 1.0})
    assert p.budgets == tuple(range(1, 51)) and p.budget_unit == "count"
    assert p.on_large_budget == "clip"
    assert (p.split, p.n_holdouts, p.test_size) == ("repeated_holdout", 5, 0.3)
    assert p.metrics == FIELD_METRICS
    directions = {m: higher_is_better(m) for m in p.metrics}
    assert directions == {
        "hamming_loss": False,
        "ranking_loss": False,
        "one_error": False,
        "coverage_error": False,
        "average_precision": True,
        "macro_f1": True,
    }
    spec = protocol_preset_spec("field")
    assert (spec.control_test, spec.alpha) == ("bonferroni_dunn", 0.05)
    cv = protocol_preset("field", split="cv")
    assert (cv.split, cv.n_folds) == ("cv", 10)


def test_the_engine_alone_knows_only_the_fields_preset():
    """Check a fresh engine without plug-ins ships one preset and names no
    paper's; the papers' presets come from their package's entry points."""
    code = (
        "from mlfs_core.evaluation.config import PROTOCOL_PRESETS\n"
        "print(sorted(PROTOCOL_PRESETS))\n"
        "from mlfs_core.evaluation.config import protocol_preset_names\n"
        "print(sorted(protocol_preset_names()))\n"
        "from mlfs_core.plugins import loaded_plugins\n"
        "print(sorted(n for i in loaded_plugins() for n in i.presets))\n"
    )
    alone, everything, from_plugins = run_fresh(code).splitlines()
    assert alone == "['field']"
    assert {"A", "B", "field"} <= set(eval(everything))  # noqa: S307 - our own output
    assert {"A", "B"} <= set(eval(from_plugins))  # noqa: S307


def test_the_papers_presets_keep_their_settings():
    """Check "A" and "B" (registered by the papers' package) give the settings
    they had in the engine, LinearSVC's C = 3 included."""
    a, b = protocol_preset("A"), protocol_preset("B")
    assert (a.split, a.n_folds, a.budget_unit, a.on_large_budget) == (
        "cv",
        10,
        "percent",
        "error",
    )
    assert a.budgets == (10, 20, 30, 40, 50, 60, 70, 80, 90)
    assert a.classifier.params == {"C": 3.0, "tol": 0.001}
    assert (b.split, b.test_size, b.discretize, b.label_handling) == (
        "own",
        0.4,
        "uniform",
        "drop_constant",
    )


def test_a_user_preset_registers_checks_and_unregisters(cleanup):
    """Check a preset is checked when registered (every problem at once), is
    used by name, refuses removal of the built-in and is removed."""
    with pytest.raises(ConfigError) as info:
        register_protocol_preset("bad", {"folds": 3}, control_test="t", alpha=2)
    message = str(info.value)
    assert "unknown setting(s) ['folds']" in message
    assert "control_test must be one of" in message and "alpha" in message
    with pytest.raises(ConfigError, match="protocol.bins must be an int"):
        register_protocol_preset("bad", {"bins": 1})
    assert "bad" not in PROTOCOL_PRESETS
    cleanup.append("mine")
    register_protocol_preset("mine", {"split": "cv", "n_folds": 3, "budgets": (2,)})
    p = protocol_preset("mine")
    assert (p.name, p.split, p.n_folds, p.budgets) == ("mine", "cv", 3, (2,))
    assert p.classifier.name == "mlknn"  # the default where a preset sets none
    with pytest.raises(ConfigError, match="built-in"):
        unregister_protocol_preset("field")
    unregister_protocol_preset("mine")
    with pytest.raises(ConfigError, match="unknown protocol 'mine'"):
        protocol_preset("mine")


def test_a_preset_from_a_plugin_file_runs_a_config(tmp_path):
    """Check a plug-in file registering a preset, named by a config's
    ``plugins`` and ``[protocol] name``, runs an experiment under it and the
    config round-trips."""
    plugin = tmp_path / "my_protocol.py"
    plugin.write_text(
        textwrap.dedent(
            """
            from mlfs_core.evaluation import register_protocol_preset

            register_protocol_preset(
                "two-halves",
                {"split": "repeated_holdout", "n_holdouts": 2, "test_size": 0.5,
                 "budgets": (1, 2), "metrics": ("hamming_loss", "macro_f1")},
                classifier_defaults={"mlknn": {"k": 3}},
                description="two 50/50 splits",
            )
            """
        )
    )
    toml = (
        f'plugins = ["{plugin.name}"]\nmethods = ["MaxCS"]\n'
        f'[protocol]\nname = "two-halves"\n[protocol.classifier]\nname = "mlknn"\n'
        '[[datasets]]\npath = "sample"\n'
    )
    (tmp_path / "c.toml").write_text(toml)
    from mlfs_core import plugins
    from mlfs_core.evaluation import load_config

    state = plugins.checkpoint()  # the loaded file is forgotten afterwards
    try:
        config = load_config(tmp_path / "c.toml")
        p = config.protocol
        assert (p.name, p.n_holdouts, p.classifier.params) == (
            "two-halves",
            2,
            {"k": 3},
        )
        result = run_experiment(config)
        table = result.results
        assert set(table["protocol"]) == {"two-halves"}
        assert set(table["fold"]) == {0, 1}
        assert set(table["metric"]) == {"hamming_loss", "macro_f1"}
        assert np.isfinite(table["value"]).all()
        text = config_to_toml(config)
        assert "n_holdouts = 2" in text and "n_folds" not in text
    finally:
        plugins.rollback(state)
        if "two-halves" in PROTOCOL_PRESETS:
            unregister_protocol_preset("two-halves")


def test_repeated_holdout_is_seeded_stratified_and_sized():
    """Check n splits of round(0.3 n) test samples, same seed same splits,
    another seed other splits, and parts that cover every sample once."""
    rng = np.random.default_rng(0)
    Y = (rng.random((50, 3)) < 0.4).astype(int)
    first = repeated_holdout(Y, n_splits=5, test_size=0.3, random_state=7)
    again = repeated_holdout(Y, n_splits=5, test_size=0.3, random_state=7)
    other = repeated_holdout(Y, n_splits=5, test_size=0.3, random_state=8)
    assert len(first) == 5
    for (train, test), (train2, test2) in zip(first, again):
        assert len(test) == 15 and len(train) == 35
        assert np.array_equal(np.union1d(train, test), np.arange(50))
        assert np.intersect1d(train, test).size == 0
        assert np.array_equal(test, test2) and np.array_equal(train, train2)
    assert any(not np.array_equal(a[1], b[1]) for a, b in zip(first, other))
    assert len({tuple(test) for _, test in first}) > 1  # the splits differ
    with pytest.raises(ConfigError, match="n_splits"):
        repeated_holdout(Y, n_splits=0)


def test_a_config_without_a_protocol_name_runs_the_fields():
    """Check the default protocol is the field's, written back as such."""
    config = config_from_toml('methods = ["MaxCS"]\n[[datasets]]\npath = "sample"\n')
    assert config.protocol == protocol_preset("field")
    assert config_from_toml(config_to_toml(config)) == config
    assert ExperimentConfig(("sample",), ("MaxCS",)).protocol.name == "field"


def test_check_plugin_reports_a_plugins_preset(tmp_path):
    """Check ``check_plugin`` checks a preset-only plug-in (it builds its
    protocol, twice the same) and names a preset that cannot be registered."""
    from mlfs_core import plugins
    from mlfs_core.plugin_check import check_plugin

    good = tmp_path / "preset_only.py"
    good.write_text(
        "from mlfs_core.evaluation import register_protocol_preset\n"
        'register_protocol_preset("five-fold", {"split": "cv", "n_folds": 5})\n'
    )
    state = plugins.checkpoint()
    try:
        (row,) = check_plugin(str(good))
        assert (row.kind, row.name, row.ok) == ("preset", "five-fold", True)
        assert row.shape == "cv, mlknn, 50 budgets"
    finally:
        plugins.rollback(state)
    assert "five-fold" not in PROTOCOL_PRESETS
    bad = tmp_path / "bad_preset.py"
    bad.write_text(
        "from mlfs_core.evaluation import register_protocol_preset\n"
        'register_protocol_preset("bad", {"n_folds": 1})\n'
    )
    with pytest.raises(ConfigError, match="protocol preset 'bad'.*n_folds"):
        check_plugin(str(bad))


def test_a_rollback_keeps_the_installed_plugins_presets():
    """Check presets of installed plug-ins loaded inside a checkpoint survive
    its rollback (their modules stay imported and could not register again),
    while a tried plug-in's preset goes."""
    code = (
        "from mlfs_core import plugins\n"
        "from mlfs_core.evaluation import register_protocol_preset\n"
        "from mlfs_core.evaluation.config import PROTOCOL_PRESETS, protocol_preset\n"
        "state = plugins.checkpoint()\n"
        "protocol_preset('A')\n"  # loads the installed plug-ins
        "register_protocol_preset('tried', {'n_folds': 4})\n"
        "plugins.rollback(state)\n"
        "print(sorted(PROTOCOL_PRESETS))\n"
        "print(protocol_preset('B').name)\n"
        "print(sorted(i.kind for i in plugins.loaded_plugins()))\n"
    )
    names, b, kinds = run_fresh(code).splitlines()
    assert {"A", "B", "field"} <= set(eval(names)) and "tried" not in names  # noqa: S307
    assert b == "B" and "entry point" in kinds
