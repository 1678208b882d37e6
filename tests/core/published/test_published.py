"""The registry of a publication's numbers beside a study (mlfs_core.published)."""

from __future__ import annotations

import pytest

from mlfs_core import published
from mlfs_core.errors import ConfigError
from mlfs_core.published import (
    Published,
    get_published,
    published_for,
    register_published,
    registered_published,
)


@pytest.fixture
def registry(monkeypatch):
    """An empty registry with no installed plug-in to load."""
    monkeypatch.setattr(published, "_REGISTRY", {})
    monkeypatch.setattr(published, "_load_installed_plugins", lambda: None)
    return published._REGISTRY


def test_a_record_is_found_by_name_and_by_its_results_folder(registry, tmp_path):
    study = tmp_path / "study" / "app"
    study.mkdir(parents=True)
    entry = register_published(
        Published(name="smith2020", title="Smith", results=study)
    )
    register_published(Published(name="nowhere", title="None"))
    assert registered_published() == ["nowhere", "smith2020"]
    assert get_published("smith2020") is entry
    # the same folder written another way matches; another folder does not
    assert published_for(tmp_path / "study" / ".." / "study" / "app") == [entry]
    assert published_for(tmp_path) == []


def test_an_unknown_name_is_one_error_listing_the_registered(registry):
    register_published(Published(name="smith2020", title="Smith"))
    with pytest.raises(ConfigError, match=r"'jones'.*registered: smith2020"):
        get_published("jones")


@pytest.mark.parametrize("bad", [None, "smith2020", Published(name="", title="x")])
def test_only_a_named_record_registers(registry, bad):
    with pytest.raises(ConfigError, match="Published record with a name"):
        register_published(bad)
    assert registry == {}


def test_a_lookup_loads_the_installed_plugins_first(monkeypatch):
    """Check an installed plug-in's record is found without importing it by hand."""
    monkeypatch.setattr(published, "_REGISTRY", {})
    loaded = []

    def load():
        loaded.append(True)
        published._REGISTRY["late"] = Published(name="late", title="Late")

    monkeypatch.setattr(published, "_load_installed_plugins", load)
    assert get_published("late").title == "Late" and loaded
