"""The app's caches: keyed on what matters, bounded (issue 14)."""

from __future__ import annotations

import os

import pytest

from ui import cached
from ui.datasets import DatasetKey
from ui.results import results_ref

from ..conftest import results_csv, selections_csv, spy_rankings


@pytest.fixture
def engine_calls(monkeypatch) -> list[tuple[str, object]]:
    """Record (method, random_state) of every engine ranking."""
    return spy_rankings(monkeypatch, "random_state")


def test_changing_the_seed_does_not_recompute_a_deterministic_method(
    data_dir, engine_calls
):
    key = DatasetKey("path", str(data_dir / "toy"))
    first = cached.ranking(key, "PMU", (), 0, 5)
    again = cached.ranking(key, "PMU", (), 1, 5)
    same = cached.ranking(key, "PMU", (("bins", 3),), 2, 5)  # the default, spelled
    assert engine_calls == [("PMU", None)]
    assert first.equals(again) and first.equals(same)
    cached.ranking(key, "PMU", (("bins", 4),), 0, 5)
    assert len(engine_calls) == 2  # an option that changes the result does


def test_changing_the_seed_recomputes_a_stochastic_method(data_dir, engine_calls):
    key = DatasetKey("path", str(data_dir / "toy"))
    cached.ranking(key, "RaRCS", (), 0, 5)
    cached.ranking(key, "RaRCS", (), 0, 5)
    cached.ranking(key, "RaRCS", (), 1, 5)
    assert engine_calls == [("RaRCS", 0), ("RaRCS", 1)]


def test_selections_are_keyed_on_their_content_not_on_a_time(tmp_path, monkeypatch):
    folder = tmp_path / "res"
    folder.mkdir()
    (folder / "results.csv").write_bytes(results_csv())
    sel = folder / "selections.csv"
    sel.write_bytes(selections_csv(2))
    stamp = os.stat(sel).st_mtime_ns
    reads = []
    inner = cached.read_selections
    monkeypatch.setattr(
        cached, "read_selections", lambda p: reads.append(p) or inner(p)
    )
    before = cached.selections(results_ref(folder))
    cached.selections(results_ref(folder))  # unchanged: served from the cache
    assert len(reads) == 1
    sel.write_bytes(selections_csv(3))  # same size? no matter: same mtime
    os.utime(sel, ns=(stamp, stamp))
    after = cached.selections(results_ref(folder))
    assert len(reads) == 2
    assert after["dataset"].nunique() == 3 and before["dataset"].nunique() == 2


def test_every_cache_is_bounded():
    cached_functions = [
        getattr(cached, name)
        for name in dir(cached)
        if hasattr(getattr(cached, name), "_info")
    ]
    assert len(cached_functions) > 10
    for fn in cached_functions:
        info = fn._info
        assert info.max_entries is not None, fn.__name__
        if type(info).__name__ == "CachedDataFuncInfo":
            assert info.ttl is not None, fn.__name__


def test_messages_lose_the_servers_folders(tmp_path, monkeypatch):
    """Check ui.state.redact: data dir, work dir, project and home are cut."""
    from ui import state

    data = tmp_path / "srv" / "data"
    data.mkdir(parents=True)
    monkeypatch.setenv("MLFS_DATA_DIR", str(data))
    work = state.work_dir()
    text = (
        f"{data}/flags/flags.arff, line 3: bad; {work}/uploads/ab/x.csv: bad; "
        f"{state.ROOT}/sample_data/s.arff: bad"
    )
    assert state.redact(text) == (
        "flags/flags.arff, line 3: bad; uploads/ab/x.csv: bad; sample_data/s.arff: bad"
    )
    assert state.is_allowed_path(data / "flags") and state.is_allowed_path(work / "x")
    assert not state.is_allowed_path(tmp_path / "srv")
    assert not state.is_allowed_path(data / ".." / "other")
