"""A plug-in's code and version are part of its cache keys; built-in keys are not."""

from __future__ import annotations

import hashlib
import json

from mlfs_core.cache import CACHE_VERSION
from mlfs_core.evaluation.runner.identity import code_identity, task_key

from .conftest import run_mlfs


def _old_hash_key(description):
    """A task key as it was before code identities (built-in keys must equal it)."""
    payload = {"cache_version": CACHE_VERSION, **description}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_built_in_keys_are_unchanged():
    """Check keys naming built-in methods, classifiers and metrics are the old ones."""
    for desc in (
        {"kind": "selection", "method": "MaxCS", "params": {}, "k": 5},
        {"kind": "selection", "method": "PPT-MI", "params": {"bins": 3}},
        {"kind": "fit", "classifier": ["mlknn", {"k": 10}], "metrics": ["micro_f1"]},
    ):
        assert code_identity(desc) == {}
        assert task_key(desc) == _old_hash_key(desc)


def test_a_plugin_key_follows_its_file_and_version(fresh_plugins, plugin_file):
    """Check a plug-in method's, classifier's and metric's keys include the
    file's digest and the version."""
    fresh_plugins.load_plugins([plugin_file], entry_points=False)
    digest = fresh_plugins.file_digest(plugin_file)
    desc = {
        "method": "SumPearson",
        "classifier": ["ridge_br", {}],
        "metrics": ["micro_f1", "cardinality_error"],
    }
    identity = code_identity(desc)
    assert identity == {
        "method": {"version": "1", "code": digest},
        "classifier": {"version": "1", "code": digest},
        "metrics": {"cardinality_error": {"version": "1", "code": digest}},
    }
    assert task_key(desc) != _old_hash_key(desc)


def _cached_keys(folder):
    return {p.stem for p in folder.glob("*/*.json")}


def test_the_version_alone_changes_the_key():
    """Check that the same code registered under another version gets new keys."""
    from mlfs_core.selectors import register, unregister

    def Same(X, Y, *, k, random_state):
        return list(range(k))

    desc = {"kind": "selection", "method": "Same"}
    keys = []
    for version in ("1", "2", "1"):
        register(Same, version=version)
        keys.append(task_key(desc))
        unregister("Same")
    assert keys[0] != keys[1] and keys[0] == keys[2]


def test_changing_the_plugin_invalidates_its_cached_tasks(study):
    """Check a rerun after editing the plug-in file computes the tasks that
    depend on it again (and only those), while an unchanged rerun is cached."""
    args = ["experiment", "study.toml", "--cache", "cache", "--jobs", "1"]
    first = run_mlfs([*args, "--out", "one"], cwd=study, timeout=900)
    assert first.returncode == 0, first.stderr
    keys_one = _cached_keys(study / "cache")
    again = run_mlfs([*args, "--out", "same"], cwd=study, timeout=900)
    assert again.returncode == 0, again.stderr
    assert _cached_keys(study / "cache") == keys_one  # nothing new: all cached
    plugin = study / "example_plugin.py"
    text = plugin.read_text()
    edited = text.replace("order = np.argsort(", "order = np.argsort(  # x\n")
    assert edited != text
    plugin.write_text(edited)
    second = run_mlfs([*args, "--out", "two"], cwd=study, timeout=900)
    assert second.returncode == 0, second.stderr
    new = _cached_keys(study / "cache") - keys_one
    # SumPearson: 2 selections + 2 folds x 2 budgets of fits; the file also
    # defines the classifier and the metric, so MaxCS's 4 fits run again too,
    # but not MaxCS's 2 selections (their keys name no plug-in code).
    assert len(new) == 10
    assert "(cached)" in second.stderr
