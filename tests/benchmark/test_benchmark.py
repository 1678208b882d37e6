"""Tests of :mod:`mlfs_core.benchmark`: what is reused, what runs, what is written."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from mlfs_core.benchmark import (
    MANIFEST,
    QuickPlan,
    find_benchmarks,
    get_suite,
    list_suites,
    read_manifest,
    run_benchmark,
)
from mlfs_core.cache import DiskCache
from mlfs_core.errors import ConfigError

from ..fresh import imported_after
from .conftest import BUILT_INS

KEYS = ["dataset", "method", "budget", "fold", "metric"]


def _merged(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    return a.merge(b, on=KEYS, suffixes=("_a", "_b"), validate="one_to_one")


def test_committed_values_are_reused_exactly(tiny_suite, mine, tmp_path):
    """Check that reused committed values equal recomputing every method.

    With reuse only the method's tasks run (no built-in task is computed);
    the run that recomputes the built-ins gives the same value, to the bit,
    for every (dataset, method, budget, fold, metric).
    """
    reused = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c1")
    assert all(c.usable for c in reused.checks), reused.checks
    assert reused.timings["n_builtin_tasks"] == 0
    assert reused.timings["n_method_tasks"] > 0
    again = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c2", reuse=False)
    assert not any(c.usable for c in again.checks)
    assert again.timings["n_builtin_tasks"] > 0
    both = _merged(reused.results, again.results)
    assert len(both) == len(reused.results) == len(again.results)
    assert np.array_equal(both["value_a"], both["value_b"])
    assert set(reused.results["method"]) == {*BUILT_INS, mine}


def test_only_the_method_tasks_enter_the_cache(tiny_suite, mine, tmp_path):
    """Check that the cache holds the method's tasks and the probes, nothing else."""
    cache = tmp_path / "cache"
    result = run_benchmark(tiny_suite, mine, cache_dir=cache)
    n_probe = 2 * len(result.checks)  # one selection and one fit per dataset
    # protocol B runs a ranking's budgets in one task but caches each fit
    assert len(DiskCache(cache)) == result.timings["n_method_tasks"] + n_probe


def test_quick_keeps_its_budgets_and_folds(tiny_suite, mine, tmp_path):
    """Check that --quick restricts the plan to the quick budgets, for every method."""
    result = run_benchmark(tiny_suite, mine, quick=True, cache_dir=tmp_path / "c")
    assert sorted(result.results["budget"].unique()) == [2, 4, 8]
    full = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c")
    assert sorted(full.results["budget"].unique()) == list(range(1, 9))
    both = _merged(result.results, full.results)
    assert len(both) == len(result.results)
    assert np.array_equal(both["value_a"], both["value_b"])


def test_quick_on_cross_validation_keeps_folds_of_the_same_split(mine):
    """Check that a quick fold subset is a subset of the full plan's own folds."""
    from mlfs_core.benchmark._plan import kept_fits
    from mlfs_core.evaluation import plan_experiment
    from mlfs_core.evaluation.config import ExperimentConfig, protocol_preset

    config = ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS", "AF", mine),
        protocol=protocol_preset("A", n_folds=4, budgets=(10, 50, 90), n_repeats=1),
    )
    plan = plan_experiment(config)
    kept = kept_fits(plan, folds=(0, 2), budgets=(10, 90))
    rows = [(plan.selections[plan.fits[i].selection], plan.fits[i]) for i in kept]
    assert {s.fold for s, _ in rows} == {0, 2}
    assert {f.pct for s, f in rows if not s.method.is_all_features} == {10.0, 90.0}
    af = [f for s, f in rows if s.method.is_all_features]
    assert len(af) == 2 and {f.pct for f in af} == {100.0}  # AF keeps its budget
    assert len(kept) == 2 * (2 + 2 + 1)


def _edit_meta(suite, dataset, **changes):
    path = suite.data_dir / dataset / "meta.json"
    meta = json.loads(path.read_text())
    for key, value in changes.items():
        meta[key] = value
    path.write_text(json.dumps(meta))


def test_data_of_another_engine_is_not_reused(tiny_suite, mine, tmp_path):
    """Check that committed data of another engine version is recomputed, and said."""
    _edit_meta(tiny_suite, "flags", code_version={"engine": "0.0.1+cache1"})
    result = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c")
    by = {c.dataset: c for c in result.checks}
    assert by["emotions"].usable
    assert not by["flags"].usable and "engine 0.0.1+cache1" in by["flags"].reason
    assert result.timings["n_builtin_tasks"] > 0
    flags = result.results[result.results["dataset"] == "flags"]
    assert set(flags["method"]) == {*BUILT_INS, mine}


def test_data_of_another_config_is_not_reused(tiny_suite, mine, tmp_path):
    """Check that data committed from another config is not reused."""
    _edit_meta(tiny_suite, "emotions", config="configs/study_other.toml")
    result = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c")
    check = next(c for c in result.checks if c.dataset == "emotions")
    assert not check.usable and "study_other.toml" in check.reason


def test_a_changed_committed_value_fails_the_probe(tiny_suite, mine, tmp_path):
    """Check that the probe recomputes a committed value and rejects a changed one.

    Changing every committed value of the cheapest deterministic method
    (a protocol computed differently would) makes the probe fail, so the
    dataset's built-ins are computed here, and their values are the true ones.
    """
    path = tiny_suite.data_dir / "emotions" / "results.csv.gz"
    true = pd.read_csv(path)
    changed = true.assign(value=true["value"] + 1e-6)
    changed.to_csv(path, index=False)
    result = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c")
    check = next(c for c in result.checks if c.dataset == "emotions")
    assert not check.usable and "probe" in check.reason and "differ" in check.reason
    got = result.results[result.results["method"] != mine]
    both = got.merge(true, on=KEYS, suffixes=("_got", "_true"))
    both = both[both["dataset"] == "emotions"]
    assert len(both) and np.array_equal(both["value_got"], both["value_true"])


def test_a_changed_committed_ranking_fails_the_probe(tiny_suite, mine, tmp_path):
    """Check that a committed ranking unlike the recomputed one is not reused."""
    path = tiny_suite.data_dir / "flags" / "selections.csv.gz"
    table = pd.read_csv(path, dtype={"features": str})
    table["features"] = [" ".join(reversed(f.split())) for f in table["features"]]
    table.to_csv(path, index=False)
    result = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c")
    check = next(c for c in result.checks if c.dataset == "flags")
    assert not check.usable and "ranking differs" in check.reason


def test_missing_committed_rows_are_not_reused(tiny_suite, mine, tmp_path):
    """Check that committed data without every needed budget is not reused."""
    path = tiny_suite.data_dir / "flags" / "results.csv.gz"
    table = pd.read_csv(path)
    table[table["budget"] != 3].to_csv(path, index=False)
    result = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c")
    check = next(c for c in result.checks if c.dataset == "flags")
    assert not check.usable and "missing" in check.reason and "budget 3" in check.reason
    quick = run_benchmark(tiny_suite, mine, quick=True, cache_dir=tmp_path / "c")
    assert all(c.usable for c in quick.checks)  # the quick subset has no budget 3


def test_outputs_and_the_app_source(tiny_suite, mine, tmp_path, monkeypatch):
    """Check the written files: tables with finite ranks, CD diagrams, the manifest."""
    out = tmp_path / "benchmarks" / "mine"
    result = run_benchmark(
        tiny_suite, mine, out=out, cache_dir=tmp_path / "c", all_figures=True
    )
    assert result.folder == out
    assert sorted(p.name for p in out.glob("cd_*.html")) == [
        "cd_hamming_loss.html",
        "cd_micro_f1.html",
        "cd_ranking_loss.html",
    ]
    ranks = pd.read_csv(out / "average_ranks.csv")
    assert set(ranks["metric"]) == {"hamming_loss", "micro_f1", "ranking_loss"}
    assert set(ranks["method"]) == {*BUILT_INS, mine}
    assert np.isfinite(ranks["mean"]).all()
    for metric, group in ranks.groupby("metric"):  # ranks of 4 methods sum to 10
        assert group["mean"].sum() == pytest.approx(10.0)
    friedman = pd.read_csv(out / "friedman.csv")
    assert list(friedman["n_methods"].unique()) == [4]
    assert (friedman["n_datasets"] == 2).all()
    assert ((friedman["pvalue"] >= 0) & (friedman["pvalue"] <= 1)).all()
    html = (out / "cd_micro_f1.html").read_text()
    assert mine in html and (out / "plotly.min.js").is_file()
    assert "cdn.plot.ly" not in html  # viewable offline
    manifest = read_manifest(out)
    assert manifest["method"] == mine and manifest["suite"] == tiny_suite.name
    assert {v["from"] for v in manifest["builtin_values"].values()} == {"committed"}
    assert manifest["seconds"]["wall"] > 0
    results = pd.read_csv(out / "results.csv.gz")
    assert len(results) == len(result.results)
    selections = pd.read_csv(out / "selections.csv.gz")
    assert set(selections["method"]) == {*BUILT_INS, mine}
    found = find_benchmarks(tmp_path / "benchmarks")
    assert found == {f"Benchmark: {mine} on {tiny_suite.name}": out}
    monkeypatch.setenv("MLFS_BENCHMARKS", str(tmp_path / "benchmarks"))
    assert find_benchmarks() == {}  # the engine reads no variable: the app does


def test_find_benchmarks_skips_broken_folders(tmp_path):
    """Check that folders without a readable manifest or results are not listed."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / MANIFEST).write_text("{not json")
    (tmp_path / "a" / "results.csv.gz").write_bytes(b"")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / MANIFEST).write_text("{}")
    assert find_benchmarks(tmp_path, tmp_path / "missing") == {}


def test_unknown_method_suite_and_datasets_are_one_clear_error(tiny_suite, mine):
    """Check each bad input's message names what is wrong."""
    with pytest.raises(ConfigError, match="'NoSuchMethod'"):
        run_benchmark(tiny_suite, "NoSuchMethod")
    where = r"installed plug-ins.*mlfs_explorer\.plugins"
    with pytest.raises(ConfigError, match=rf"unknown suite 'nope'.*paper001.*{where}"):
        get_suite("nope")
    with pytest.raises(ConfigError, match="label 'IGMF' is one of"):
        run_benchmark(tiny_suite, {"name": mine, "label": "IGMF"})
    with pytest.raises(ConfigError, match=r"\['yeast'\] are not in suite"):
        run_benchmark(tiny_suite, mine, datasets=["yeast"])
    with pytest.raises(ConfigError, match="at least 2 datasets"):
        run_benchmark(tiny_suite, mine, datasets=["flags"])
    with pytest.raises(ConfigError, match="'colour'"):
        run_benchmark(tiny_suite, {"name": mine, "colour": "red"})
    missing = replace(tiny_suite, config=tiny_suite.data_dir / "none.toml")
    with pytest.raises(ConfigError, match="none.toml is not there"):
        run_benchmark(missing, mine)
    other = replace(tiny_suite, methods=("IGMF", "MaxCS"))
    with pytest.raises(ConfigError, match=r"\['MaxCS'\] are not in"):
        run_benchmark(other, mine)


def test_the_papers_suites_come_from_the_plugin_entry_point():
    """Check that the two studies are registered suites, each naming its config."""
    assert {"paper000", "paper001"} <= set(list_suites())
    for name, protocol in (("paper000", "A"), ("paper001", "B")):
        suite = get_suite(name)
        config = suite.load_config()
        assert config.protocol.name == protocol
        assert suite.config.name == f"study_{name}.toml"
        assert set(suite.quick.datasets) <= {
            d.path.split("/")[-1] for d in config.datasets
        }


def test_quick_paper000_reuses_its_committed_folds(shared_datasets, mine, tmp_path):
    """Check paper 000's quick subset on two datasets: committed folds 0-2 reused.

    Protocol A's quick run keeps folds 0-2 of the study's 10-fold split and
    budgets 10, 50 and 90 %; the probe recomputes one LinearSVC fit exactly.
    """
    from mlfs_core.evaluation import SparseLabelWarning

    with pytest.warns(SparseLabelWarning, match="fewer positive samples"):
        result = run_benchmark(
            "paper000",
            mine,
            quick=True,
            datasets=["slashdot", "medical"],
            cache_dir=tmp_path / "c",
        )
    assert all(c.usable for c in result.checks), result.checks
    res = result.results
    assert sorted(res["fold"].unique()) == [0, 1, 2]
    assert sorted(res["budget_pct"].dropna().unique()) == [10.0, 50.0, 90.0, 100.0]
    assert set(res["method"]) == {*get_suite("paper000").methods, mine}
    ranks = result.average_ranks
    assert np.isfinite(ranks["mean"]).all() and mine in set(ranks["method"])


def test_plans_name_the_quick_subsets():
    """Check the quick subsets of the two studies are proper restrictions."""
    for name in ("paper000", "paper001"):
        quick = get_suite(name).quick
        assert isinstance(quick, QuickPlan) and len(quick.datasets) >= 2
        config = get_suite(name).load_config()
        assert set(quick.budgets) < set(config.protocol.budgets)


def test_the_docs_example_plugin_benchmarks(tiny_suite, mine, tmp_path):
    """Check the how-to page's plug-in file: it registers and benchmarks.

    Its method is the test plug-in's written as a plain function, so the two
    give the same values on every task.
    """
    import re
    from pathlib import Path

    from mlfs_core.selectors import list_methods, unregister

    page = Path(__file__).resolve().parents[2] / "docs" / "user-guide"
    text = (page / "benchmark.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n# mine.py\n(.*?)```", text, flags=re.S).group(1)
    code = code.replace('name="SumPearson"', 'name="SumPearsonDoc"')
    exec(compile(code, "mine.py", "exec"), {})
    try:
        assert "SumPearsonDoc" in list_methods()
        doc = run_benchmark(tiny_suite, "SumPearsonDoc", cache_dir=tmp_path / "c")
        ours = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c")
    finally:
        unregister("SumPearsonDoc")
    a = doc.results[doc.results["method"] == "SumPearsonDoc"]
    b = ours.results[ours.results["method"] == mine]
    both = a.drop(columns="method").merge(
        b.drop(columns="method"), on=[k for k in KEYS if k != "method"]
    )
    assert len(both) == len(a) > 0
    assert np.array_equal(both["value_x"], both["value_y"])


def test_two_workers_give_the_same_benchmark(tiny_suite, mine, tmp_path):
    """Check that worker processes load the plug-in and give the same values."""
    one = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c1")
    two = run_benchmark(tiny_suite, mine, cache_dir=tmp_path / "c2", n_jobs=2)
    both = _merged(one.results, two.results)
    assert len(both) == len(one.results)
    assert np.array_equal(both["value_a"], both["value_b"])
    pd.testing.assert_frame_equal(one.average_ranks, two.average_ranks)


def test_a_dataset_without_committed_data_is_left_out_or_read_from_cache(
    tiny_suite, mine, tmp_path
):
    """Check a dataset with no committed data (a study in progress).

    Its built-in methods are not computed behind the user's back: with the
    other dataset only, the benchmark stops with one error naming it. Once the
    cache holds its built-in tasks, they are read from there (nothing computed).
    """
    import shutil

    shutil.rmtree(tiny_suite.data_dir / "flags")
    cache = tmp_path / "c"
    with pytest.raises(ConfigError, match=r"flags: no committed data .* left out"):
        run_benchmark(tiny_suite, mine, cache_dir=cache)
    run_benchmark(tiny_suite, mine, cache_dir=cache, reuse=False)  # fills the cache
    result = run_benchmark(tiny_suite, mine, cache_dir=cache)
    flags = next(c for c in result.checks if c.dataset == "flags")
    assert flags.missing and not flags.left_out and not flags.usable
    assert result.timings["n_builtin_tasks"] > 0
    assert result.timings["n_builtin_computed"] == 0
    assert result.timings["n_method_computed"] == 0
    assert set(result.results["dataset"]) == {"emotions", "flags"}


def test_listing_benchmark_folders_imports_neither_the_runner_nor_sklearn():
    """Check the package's names load on first use: the app's results sources
    (find_benchmarks) and a plug-in's register_suite cost no runner import."""
    code = "from mlfs_core.benchmark import QuickPlan, find_benchmarks, register_suite"
    heavy = [
        "sklearn",
        "joblib",
        "mlfs_core.evaluation.runner",
        "mlfs_core.benchmark._run",
    ]
    assert imported_after(code, heavy) == []
