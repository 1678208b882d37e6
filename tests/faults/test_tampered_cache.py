"""Tampered caches: each entry checked (key, checksum, shape); a bad one recomputed."""

from __future__ import annotations

import json
import warnings

import pytest

from mlfs_core._entries import CacheEntryWarning
from mlfs_core.cache import DiskCache
from mlfs_core.cli import main
from mlfs_core.evaluation import ExperimentConfig, run_experiment
from mlfs_core.evaluation.config import protocol_preset

CONFIG = ExperimentConfig(
    datasets=("sample",),
    methods=("MaxCS", "AF"),
    protocol=protocol_preset(
        "A", n_folds=2, budgets=(10,), metrics=("micro_f1", "hamming_loss")
    ),
)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A run's tables and its cache folder (entries listed by kind)."""
    cache = tmp_path_factory.mktemp("cache")
    result = run_experiment(CONFIG, cache_dir=cache)
    return result, cache


def _entries(cache, kind):
    out = []
    for path in sorted(cache.glob("*/*.json")):
        text = path.read_text()
        body = json.loads(text)["value"]
        if ("metrics" in body) == (kind == "fit"):
            out.append((path, text))
    return out


def _copy_cache(src, dst):
    for path in src.glob("*/*.json"):
        target = dst / path.parent.name / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text())
    return dst


def _rerun(cache):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CacheEntryWarning)
        result = run_experiment(CONFIG, cache_dir=cache)
    return result, [w for w in caught if issubclass(w.category, CacheEntryWarning)]


def _tamper_value(text: str, old: str, new: str) -> str:
    head, value = text.split('"value":', 1)
    assert old in value
    return head + '"value":' + value.replace(old, new, 1)


def test_an_entry_carries_its_key_and_a_checksum(fresh):
    """Check the entry layout: key (= file name) and the SHA-256 of its value."""
    import hashlib

    _, cache = fresh
    path, text = _entries(cache, "fit")[0]
    entry = json.loads(text)
    assert entry["key"] == path.stem
    body = text.split('"value":', 1)[1][:-1]
    assert entry["sha256"] == hashlib.sha256(body.encode()).hexdigest()


def _assert_recomputed(fresh, tmp_path, kind, change):
    result, cache = fresh
    copy = _copy_cache(cache, tmp_path / "cache")
    path, text = _entries(copy, kind)[0]
    path = copy / path.parent.name / path.name
    path.write_text(change(text))
    again, caught = _rerun(copy)
    assert len(caught) == 1, [str(w.message) for w in caught]
    assert str(path) in str(caught[0].message)
    assert again.results.equals(result.results)
    assert [list(o) for o in again.selections["features"]] == [
        list(o) for o in result.selections["features"]
    ]
    # recomputed and rewritten: a third run reads it without a word
    _, quiet = _rerun(copy)
    assert quiet == []


def test_a_changed_metric_is_recomputed(fresh, tmp_path):
    """Check that an edited value (valid JSON) is caught by its checksum."""

    def change(text):
        value = json.loads(text)["value"]["metrics"]["micro_f1"]
        return _tamper_value(text, repr(value), repr(value / 2))

    _assert_recomputed(fresh, tmp_path, "fit", change)


@pytest.mark.parametrize(
    "body", ["{}", "[1, 2]", '"text"', '{"metrics": {"micro_f1": "x"}}']
)
def test_a_malformed_bare_entry_is_recomputed(fresh, tmp_path, body):
    """Check {} / a wrong type / a bad metric in place of a fit: recomputed, named."""
    _assert_recomputed(fresh, tmp_path, "fit", lambda text: body)


def test_a_selection_with_minus_one_is_recomputed(fresh, tmp_path):
    """Check an out-of-range feature index under a valid key and checksum."""
    from mlfs_core._entries import encode

    def change(text):
        entry = json.loads(text)
        entry["value"]["order"][0] = -1
        return encode(entry["key"], json.dumps(entry["value"]))

    _assert_recomputed(fresh, tmp_path, "selection", change)


@pytest.mark.parametrize("kind", ["fit", "selection"])
def test_a_bare_entry_is_recomputed_even_when_its_value_is_right(fresh, tmp_path, kind):
    """Check an entry without key and checksum (the format before them): refused."""
    _assert_recomputed(
        fresh, tmp_path, kind, lambda text: json.dumps(json.loads(text)["value"])
    )


def test_an_entry_under_another_key_is_recomputed(fresh, tmp_path):
    """Check that a file copied over another task's entry is refused (its key)."""
    result, cache = fresh
    fits = _entries(cache, "fit")
    other = fits[1][1]
    _assert_recomputed(fresh, tmp_path, "fit", lambda text: other)


def test_a_truncated_entry_is_recomputed(fresh, tmp_path):
    """Check a half-written file."""
    _assert_recomputed(
        fresh, tmp_path, "selection", lambda text: text[: len(text) // 2]
    )


def test_the_command_line_names_the_file_once(tmp_path, capsys):
    """Check mlfs experiment --overwrite after an edit: one line, the true value."""
    config = tmp_path / "c.toml"
    config.write_text(
        'methods = ["MaxCS"]\n[protocol]\nn_folds = 2\nbudgets = [10]\n'
        'metrics = ["micro_f1"]\n[[datasets]]\npath = "sample"\n'
    )
    out = tmp_path / "out"
    assert main(["experiment", str(config), "--out", str(out)]) == 0
    before = (out / "results.csv").read_text()
    capsys.readouterr()
    path = next(
        p for p in (out / "cache").glob("*/*.json") if "metrics" in p.read_text()
    )
    text = path.read_text()
    value = json.loads(text)["value"]["metrics"]["micro_f1"]
    path.write_text(_tamper_value(text, repr(value), "0.123"))
    assert main(["experiment", str(config), "--out", str(out), "--overwrite"]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "cache entry" in line]
    assert len(lines) == 1 and str(path) in lines[0]
    assert lines[0].startswith("mlfs experiment: warning: ")
    assert (out / "results.csv").read_text() == before


def test_a_good_entry_reads_back_without_warning(tmp_path):
    """Check the round trip of DiskCache with a check that passes."""
    from mlfs_core._entries import check_fit

    cache = DiskCache(tmp_path)
    key = "ab" * 32
    value = {"metrics": {"micro_f1": 0.5}, "fit_seconds": 0.1, "predict_seconds": 0.0}
    cache.set(key, value)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.get(key, check_fit(["micro_f1"])) == value
