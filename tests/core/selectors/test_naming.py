"""Tests of mlfs_core.selectors.naming (measure + aggregation method names)."""

from __future__ import annotations

import pytest

import mlfs_core
from mlfs_core.aggregation import AGGREGATION_LABELS
from mlfs_core.errors import ConfigError
from mlfs_core.measures import MEASURE_LABELS
from mlfs_core.selectors.filter import rank_filter_methods
from mlfs_core.selectors.naming import (
    is_filter_name,
    method_name,
    parse_method_name,
    split_name,
)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("MaxCS", ("max", "chi2")),
        ("MeanBNS", ("mean", "bns")),
        ("RoROR", ("ror", "odds_ratio")),
        ("RaRDF", ("rar", "df")),
    ],
)
def test_parse_method_name_gives_registry_keys(name, expected):
    """Check that a method name splits into its aggregation and measure keys."""
    assert parse_method_name(name) == expected


@pytest.mark.parametrize(
    "name", ["PPT-MI", "Random", "AF", "Max", "MaxMI", "maxcs", ""]
)
def test_parse_method_name_rejects_other_names(name):
    """Check that names that are not measure+aggregation raise a ConfigError."""
    with pytest.raises(ConfigError, match="is not a measure\\+aggregation method"):
        parse_method_name(name)


def test_method_name_round_trips_every_pair():
    """Check that building then parsing a name returns the same keys for all pairs."""
    for aggregation in AGGREGATION_LABELS:
        for measure in MEASURE_LABELS:
            name = method_name(aggregation, measure)
            assert parse_method_name(name) == (aggregation, measure)


def test_method_name_unknown_key_raises():
    """Check that an unknown measure key raises a ConfigError naming it."""
    with pytest.raises(ConfigError, match="'mi'"):
        method_name("max", "mi")


def test_split_name_gives_display_labels():
    """Check that split_name returns the labels shown in the app's pickers."""
    assert split_name("RaRBNS") == ("RaR", "BNS")
    assert split_name("MeanIG") == ("Mean", "IG")
    with pytest.raises(ConfigError):
        split_name("PMU")


def test_registered_filter_names_all_parse_and_others_do_not():
    """Check that the registry and the parser agree on which methods are filters."""
    for name in mlfs_core.list_methods():
        family = mlfs_core.get_method(name).family
        assert is_filter_name(name) == (family in ("score-aggregation", "extra")), name


def test_rank_filter_methods_uses_the_shared_parser():
    """Check that rank_filter_methods rejects a non-filter name (shared parser)."""
    with pytest.raises(ConfigError, match="'PMU' is not a measure\\+aggregation"):
        rank_filter_methods([[1, 0], [0, 1]], [[1], [0]], ["MaxCS", "PMU"])
