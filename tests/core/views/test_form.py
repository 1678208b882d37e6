"""Tests of mlfs_core.views.form: the Experiment form's parsing and its config."""

from __future__ import annotations

import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.config import MethodConfig
from mlfs_core.views import (
    FOLDS,
    build_config,
    parse_budgets,
    quick_budgets,
    settings_text,
    split_options,
    whole_number,
)


def test_budgets_are_read_as_lists_ranges_and_mixes():
    """Check "10, 30, 50", "1-5", "2; 4.5" and duplicates: sorted, whole
    numbers as ints, fractions kept for the engine to judge."""
    assert parse_budgets("10, 30, 50") == (10, 30, 50)
    assert parse_budgets("1-5") == (1, 2, 3, 4, 5)
    assert parse_budgets("7; 2, 4.5, 7.0, 3-4") == (2, 3, 4, 4.5, 7)
    assert all(type(b) is int for b in parse_budgets("3, 1-2"))


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "at least one budget"),
        (" , ", "at least one"),
        ("ten", "'ten'"),
        ("1-x", "'1-x'"),
    ],
)
def test_a_bad_budget_is_a_config_error_naming_it(text, match):
    """Check an empty box or an unreadable part is one ConfigError naming it."""
    with pytest.raises(ConfigError, match=match):
        parse_budgets(text)


def test_whole_numbers_accept_what_the_box_may_hold_and_nothing_else():
    """Check "4", 4.0 and "1e0"-style values within range, and refusals."""
    assert whole_number("4", FOLDS) == 4
    assert whole_number(" 3.0 ", FOLDS) == 3
    for bad in ("2.5", "11", "1", "", "inf", "nan", "three"):
        with pytest.raises(ConfigError, match="Folds"):
            whole_number(bad, FOLDS)


def test_the_config_refuses_a_seed_past_64_bits_naming_it():
    """Check the seed's range: 0 to 2**63 - 1 (what a saved TOML config holds);
    10**25 is a ConfigError naming the seed, never a run with another seed."""

    common = {"protocol": "A", "budgets": "10", "folds": "2", "repeats": "1"}
    config = build_config(["sample"], ["MaxCS"], split="cv", seed=2**63 - 1, **common)
    assert config.seed == 2**63 - 1
    with pytest.raises(ConfigError, match=r"Seed \(sidebar\) must be a whole number"):
        build_config(["sample"], ["MaxCS"], split="cv", seed=10**25, **common)
    with pytest.raises(ConfigError, match=r"Folds \(CV\) .* from 2 to 10, not 11"):
        build_config(
            ["sample"], ["MaxCS"], split="cv", seed=0, **{**common, "folds": 11}
        )


def test_the_config_carries_binarize_only_to_methods_that_take_it():
    """Check binarize="median" reaches MaxCS (a CS/BNS method) and not PMU,
    and a preset that fixes CV ignores the split given."""
    config = build_config(
        ["sample"],
        ["MaxCS", "PMU"],
        protocol="A",
        budgets="10, 30",
        folds="3",
        repeats="1",
        split="cv",
        seed=1,
        binarize="median",
    )
    assert config.methods[0] == MethodConfig("MaxCS", {"binarize": "median"})
    assert config.methods[1].name == "PMU" and not config.methods[1].params
    assert config.protocol.budgets == (10, 30)
    assert "seed 1." in settings_text(config)


def test_quick_budgets_keep_the_first_middle_and_last():
    """Check the quick variant's budgets."""
    assert quick_budgets((1, 2, 3, 4)) == "1, 3, 4"
    assert quick_budgets((10.5,)) == "10.5"


def test_split_options_offer_the_presets_own_split_first():
    """Check every preset's own split comes first (none when it fixes CV)."""
    from mlfs_core.evaluation.config import protocol_preset, protocol_preset_names

    for name in protocol_preset_names():
        own = protocol_preset(name).split
        options = split_options(name)
        assert options == [] if own == "cv" else options[0] == own


def test_the_forms_first_preset_does_not_depend_on_import_order():
    """Check the taught presets come by name whatever order they were
    registered in (a test importing a plug-in's module directly once put "B"
    before "A", and the Experiment page opened on "B")."""
    from mlfs_core.evaluation import PROTOCOL_PRESETS
    from mlfs_core.views import protocol_choices

    before = list(protocol_choices())
    saved = dict(PROTOCOL_PRESETS)
    try:
        reordered = dict(reversed(list(saved.items())))
        PROTOCOL_PRESETS.clear()
        PROTOCOL_PRESETS.update(reordered)
        after = list(protocol_choices())
    finally:
        PROTOCOL_PRESETS.clear()
        PROTOCOL_PRESETS.update(saved)
    taught = [n for n in before if n in ("A", "B")]
    assert taught == ["A", "B"] and before[:2] == taught
    assert after[:2] == before[:2]
