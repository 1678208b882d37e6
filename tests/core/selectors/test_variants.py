"""The public extension point for criterion variants of the greedy filters."""

from __future__ import annotations

import numpy as np
import pytest

import mlfs_core
from mlfs_core import _code
from mlfs_core.cli import main
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import ExperimentConfig, MethodConfig, protocol_preset
from mlfs_core.explain import greedy_steps
from mlfs_core.selectors import get_method
from mlfs_core.selectors.greedy import rank_discrete
from mlfs_core.selectors.it.criteria import (
    RELEVANCE,
    Criterion,
    subtract,
    subtract_mean,
)
from mlfs_core.selectors.variants import (
    VARIANT_METHODS,
    register_variant,
    unregister_variant,
    variant_names,
    variants,
)

AS_D2F = Criterion((RELEVANCE,), "interaction")  # MDMR computed as D2F


@pytest.fixture
def problem():
    rng = np.random.default_rng(11)
    Y = (rng.random((80, 3)) < 0.4).astype(np.int8)
    codes = rng.integers(0, 3, size=(80, 6))
    codes[:, 1] = Y[:, 0] * 2
    codes[:, 4] = np.where(rng.random(80) < 0.2, 1, Y[:, 1] * 2)
    return codes, Y


@pytest.fixture
def as_d2f():
    """MDMR's variant "test-as-d2f", registered for one test."""
    variant = register_variant("MDMR", "test-as-d2f", AS_D2F, description="D2F.")
    yield variant
    unregister_variant("MDMR", "test-as-d2f")


def test_a_registered_variant_is_what_the_engine_ranks(problem, as_d2f):
    """Check variant="test-as-d2f" ranks as D2F, and the definition does not."""
    codes, Y = problem
    got = rank_discrete(codes, Y, "MDMR", variant="test-as-d2f")
    d2f = rank_discrete(codes, Y, "D2F")
    mdmr = rank_discrete(codes, Y, "MDMR")
    assert got.order.tolist() == d2f.order.tolist()
    np.testing.assert_array_equal(got.criterion_path, d2f.criterion_path)
    assert not np.array_equal(mdmr.criterion_path, d2f.criterion_path)
    assert variants("MDMR")[-1] is as_d2f and as_d2f.description == "D2F."


def test_the_option_allows_definition_and_what_is_registered(problem, as_d2f):
    """Check the variant option lists, checks and forgets variants as registered."""
    option = get_method("MDMR").option("variant")
    assert option.choices[0] == "definition" and "test-as-d2f" in option.choices
    assert option.choices == variant_names("MDMR")
    assert "|test-as-d2f)" in option.describe()
    assert option.check("test-as-d2f") == "test-as-d2f"
    X, Y = problem
    ranked = mlfs_core.compute_ranking(X, Y, "MDMR", variant="test-as-d2f", k=2)
    assert ranked.order.tolist() == rank_discrete(X, Y, "D2F", k=2).order.tolist()
    unregister_variant("MDMR", "test-as-d2f")
    try:
        assert "test-as-d2f" not in option.choices
        with pytest.raises(ConfigError, match="MDMR has no variant 'test-as-d2f'"):
            option.check("test-as-d2f")
    finally:
        register_variant("MDMR", "test-as-d2f", AS_D2F)


def test_an_unknown_variant_names_method_variant_and_the_registered(problem, as_d2f):
    """Check the one error names the method, the value and every registered one."""
    X, Y = problem
    message = "MDMR has no variant 'nope'; registered: definition, .*test-as-d2f"
    with pytest.raises(ConfigError, match=message):
        mlfs_core.compute_ranking(X, Y, "MDMR", variant="nope")
    with pytest.raises(ConfigError, match=message):
        rank_discrete(X, Y, "MDMR", variant="nope")
    with pytest.raises(ConfigError, match="methods: 'MDMR': " + message):
        ExperimentConfig(
            datasets=("sample",),
            methods=(MethodConfig("MDMR", {"variant": "nope"}),),
            protocol=protocol_preset("B", budgets=(1,)),
        )


def test_an_unknown_variant_loads_installed_plugins_once(problem, monkeypatch):
    """Check a name not registered yet asks the plug-in loader, then works."""
    calls = []

    def plugin_loader():
        calls.append(1)
        if "late" not in variant_names("PMU"):
            register_variant("PMU", "late", Criterion((RELEVANCE,), None))

    monkeypatch.setattr(_code, "UNKNOWN_NAME_LOADERS", [plugin_loader])
    codes, Y = problem
    try:
        got = rank_discrete(codes, Y, "PMU", variant="late", k=3)
        assert calls == [1]
        again = rank_discrete(codes, Y, "PMU", variant="late", k=3)
        assert calls == [1]  # known now: no second load
    finally:
        unregister_variant("PMU", "late")
    # R(f) alone, no redundancy: the three most relevant features, in order.
    assert got.order.tolist() == again.order.tolist()
    np.testing.assert_array_equal(np.diff(got.criterion_path) <= 0, True)


@pytest.mark.parametrize(
    ("method", "name", "criterion", "message"),
    [
        ("D2F", "x", AS_D2F, "only PMU, MDMR take criterion variants"),
        ("MDMR", "definition", AS_D2F, "already has a variant called 'definition'"),
        ("MDMR", "", AS_D2F, "non-empty text"),
        ("MDMR", "x", "D2F", "must be a Criterion, got str"),
        ("MDMR", "x", Criterion((RELEVANCE,), "triples"), "unknown redundancy"),
        ("MDMR", "x", Criterion((RELEVANCE,), "mi", np.subtract), "combine must be"),
    ],
)
def test_register_variant_refuses_what_it_cannot_run(method, name, criterion, message):
    """Check each refusal names its problem and registers nothing."""
    before = {m: variant_names(m) for m in VARIANT_METHODS}
    with pytest.raises(ConfigError, match=message):
        register_variant(method, name, criterion)
    assert {m: variant_names(m) for m in VARIANT_METHODS} == before


def test_a_name_is_registered_once(as_d2f):
    """Check a second registration of a name is refused, the first kept."""
    with pytest.raises(ConfigError, match="already has a variant"):
        register_variant("MDMR", "test-as-d2f", Criterion((RELEVANCE,), "mi"))
    assert variants("MDMR")[-1].criterion is AS_D2F
    with pytest.raises(ConfigError, match="no registered variant 'other'"):
        unregister_variant("MDMR", "other")


def test_a_variant_is_explained_term_by_term(problem):
    """Check the Learn pages' steps of a variant follow its ranking and add up."""
    X, Y = problem
    mean_mi = Criterion((RELEVANCE,), "mi", subtract_mean)
    register_variant("PMU", "test-mean-mi", mean_mi)
    try:
        steps = greedy_steps(X, Y, "PMU", k=3, variant="test-mean-mi")
        ranked = mlfs_core.compute_ranking(X, Y, "PMU", k=3, variant="test-mean-mi")
    finally:
        unregister_variant("PMU", "test-mean-mi")
    assert steps.path["feature"].tolist() == ranked.order.tolist()
    assert steps.terms == [RELEVANCE[0], "- (1/|S|) sum_s I(f; s)"]
    total = steps.path[steps.terms].sum(axis=1).to_numpy()
    np.testing.assert_allclose(total, steps.path["criterion"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(steps.path["criterion"], ranked.criterion_path, atol=0)
    assert AS_D2F.combine is subtract


def test_mlfs_rank_takes_a_variant_a_plugin_registers_late(monkeypatch, capsys):
    """Check `mlfs rank --variant` loads the plug-ins for a name it does not know."""

    def plugin_loader():
        if "cli-late" not in variant_names("MDMR"):
            register_variant("MDMR", "cli-late", AS_D2F)

    monkeypatch.setattr(_code, "UNKNOWN_NAME_LOADERS", [plugin_loader])
    args = ["rank", "sample", "--k", "4", "--method"]
    try:
        assert main([*args, "MDMR", "--variant", "cli-late"]) == 0
        late = capsys.readouterr().out
    finally:
        unregister_variant("MDMR", "cli-late")
    assert main([*args, "D2F"]) == 0
    assert late == capsys.readouterr().out and len(late.splitlines()) == 5
    monkeypatch.setattr(_code, "UNKNOWN_NAME_LOADERS", [])  # no plug-in has it now
    assert main([*args, "MDMR", "--variant", "cli-late"]) == 2
    assert "method 'MDMR': MDMR has no variant 'cli-late'" in capsys.readouterr().err


def test_a_variant_s_code_is_part_of_its_tasks_keys(tmp_path, monkeypatch):
    """Check editing a variant's plug-in file gives its tasks new cache keys.

    The variant's term is defined in a plug-in file; after the file changes
    (and the process forgets the identities it computed), the same task
    description gets another key, while the definition's key stays as it was.
    """
    import importlib.util

    from mlfs_core.evaluation.runner.identity import task_key
    from mlfs_core.selectors.variants import unregister_variant

    def load(text):
        path = tmp_path / "my_variant.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location("my_variant", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    source = (
        "from mlfs_core.selectors.it.criteria import RELEVANCE, Criterion\n"
        "from mlfs_core.selectors.variants import register_variant\n"
        "def half(ctx):\n    return {body}\n"
        "register_variant('PMU', 'halved', "
        "Criterion((RELEVANCE, ('- R/2', half)), 'interaction'))\n"
    )
    description = {
        "kind": "selection",
        "method": "PMU",
        "params": {"variant": "halved"},
    }
    definition = {**description, "params": {"variant": "definition"}}
    try:
        load(source.format(body="-0.5 * ctx.statics.relevance"))
        first = task_key(description)
        unregister_variant("PMU", "halved")
        _code.forget()
        load(source.format(body="-0.25 * ctx.statics.relevance"))
        second = task_key(description)
    finally:
        if "halved" in variant_names("PMU"):
            unregister_variant("PMU", "halved")
        _code.forget()
    assert first != second
    assert task_key(definition) == task_key(definition) != first
