"""Tests of mlfs_core.cache."""

from __future__ import annotations

import numpy as np

from mlfs_core.cache import DiskCache, hash_key


def test_hash_key_stable_and_sensitive():
    """Check that keys ignore dict order and change with any value."""
    a = hash_key({"method": "MaxCS", "fold": 1, "params": {"x": 1, "y": 2}})
    b = hash_key({"params": {"y": 2, "x": 1}, "fold": 1, "method": "MaxCS"})
    c = hash_key({"method": "MaxCS", "fold": 2, "params": {"x": 1, "y": 2}})
    assert a == b != c
    assert hash_key({"v": np.int64(3)}) == hash_key({"v": 3})


def test_disk_cache_round_trip_and_atomic_files(tmp_path):
    """Check that values survive a new cache object and no temporary file is left."""
    key = hash_key({"t": 1})
    DiskCache(tmp_path).set(key, {"order": [3, 1], "seconds": 0.5, "m": float("nan")})
    value = DiskCache(tmp_path).get(key)
    assert value["order"] == [3, 1] and np.isnan(value["m"])
    assert len(DiskCache(tmp_path)) == 1
    assert not list(tmp_path.rglob("*.tmp"))


def test_disk_cache_none_stores_nothing_and_corrupt_is_a_miss(tmp_path):
    """Check that DiskCache(None) never hits and an unreadable entry is a miss."""
    cache = DiskCache(None)
    cache.set("ab", 1)
    assert cache.get("ab") is None
    disk = DiskCache(tmp_path)
    key = hash_key({"t": 2})
    disk.set(key, 1)
    next(tmp_path.rglob("*.json")).write_text("{broken")
    assert disk.get(key) is None
