"""The reproduction-study scripts: a tiny study end to end, the claim checks, and
the committed report and app files against the committed study data.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlfs_core._validation import budget_from_percent
from studies import data as report_data
from studies import paper000, paper001, report, run_study, status

from .planted import (
    PAPER_GROUPS,
    max_at_40,
    paper_story,
    planted_results,
    planted_similarity,
    report_methods,
)

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- run_study
@pytest.fixture(scope="module")
def tiny_study(shared_datasets, tmp_path_factory):
    """Paper 000's config on flags with 2 folds, budgets 10/50/90 %, 2 repeats."""
    config = run_study.study_config("paper000")
    protocol = replace(
        config.protocol, n_folds=2, budgets=(10.0, 50.0, 90.0), n_repeats=2
    )
    spec = replace(config.datasets[0], path=str(shared_datasets / "flags"))
    config = replace(config, protocol=protocol, datasets=(spec,))
    tmp = tmp_path_factory.mktemp("study")
    out = run_study.run_one(
        "paper000", config, spec, jobs=1, out_root=tmp / "data", cache_dir=tmp / "cache"
    )
    return config, spec, tmp, out


def test_run_one_writes_compact_files(tiny_study):
    config, _, _, out = tiny_study
    assert out.name == "flags"
    results = pd.read_csv(out / "results.csv.gz")
    # stochastic repeats are averaged away: one row per (method, budget, fold, metric)
    assert "repeat" not in results.columns
    keys = ["method", "budget_pct", "fold", "metric"]
    assert not results.duplicated(keys).any()
    assert set(results["method"]) == {m.name for m in config.methods}
    assert set(results["metric"]) == set(config.protocol.metrics)
    assert set(results["fold"]) == {0, 1}
    assert np.isfinite(results["value"]).all()
    # every selector at every budget; AF once, at all features
    selectors = results[results["method"] != "AF"]
    assert set(selectors["budget_pct"]) == {10.0, 50.0, 90.0}
    assert results.loc[results["method"] == "AF", "budget"].nunique() == 1


def test_timings_count_reused_fits_and_keep_solver_state_on_fits():
    """Check timing_summary sums seconds, fits and reused fits per stage."""
    timings = pd.DataFrame(
        {
            "dataset": ["d"] * 4,
            "method": ["M"] * 4,
            "stage": ["fit", "fit", "fit", "selection"],
            "seconds": [1.0, 2.0, 0.0, 5.0],
            "n_fitted": [3.0, 3.0, 3.0, np.nan],
            "n_not_converged": [1.0, 0.0, 1.0, np.nan],
            "max_n_iter": [1000.0, 20.0, 1000.0, np.nan],
            "reused": [0.0, 0.0, 1.0, np.nan],
        }
    )
    out = run_study.timing_summary(timings).set_index("stage")
    assert out.loc["fit", "seconds"] == 3.0
    assert out.loc["fit", "reused"] == 1.0
    assert out.loc["fit", "n_fitted"] == 9.0
    assert out.loc["fit", "max_n_iter"] == 1000.0
    assert np.isnan(out.loc["selection", "reused"])
    assert out.loc["selection", "seconds"] == 5.0


def test_run_one_selections_cut_at_the_middle_budget(tiny_study):
    _, _, _, out = tiny_study
    selections = pd.read_csv(out / "selections.csv.gz")
    meta = json.loads((out / "meta.json").read_text())
    m = meta["stats"]["M"]
    assert (selections["n_features"] == m).all()
    lengths = selections["features"].str.split().str.len()
    assert (lengths == budget_from_percent(50, m)).all()
    assert 0 < budget_from_percent(50, m) < m
    # one ranking per (method, fold); features are distinct column indices
    assert not selections.duplicated(["method", "fold"]).any()
    for text in selections["features"]:
        feats = [int(f) for f in text.split()]
        assert len(set(feats)) == len(feats) and max(feats) < m
    assert set(selections["repeat"]) == {0}


def test_run_one_similarity_is_a_symmetric_kuncheva_matrix(tiny_study):
    _, _, _, out = tiny_study
    sim = pd.read_csv(out / "similarity.csv")
    wide = sim.pivot(index="method_a", columns="method_b", values="value")
    values = wide.to_numpy(dtype=float)
    assert np.allclose(np.diag(values), 1.0)
    np.testing.assert_allclose(values, values.T)
    assert np.nanmin(values) >= -1.0 and np.nanmax(values) <= 1.0
    assert set(sim["budget"]) == {50}


def test_run_one_rerun_is_served_from_cache_and_identical(tiny_study, monkeypatch):
    from mlfs_core.evaluation.runner.execute import tasks as _tasks

    calls = []
    rank, make = _tasks.compute_ranking, _tasks.make_classifier
    monkeypatch.setattr(
        _tasks, "compute_ranking", lambda *a, **k: calls.append("rank") or rank(*a, **k)
    )
    monkeypatch.setattr(
        _tasks, "make_classifier", lambda *a, **k: calls.append("fit") or make(*a, **k)
    )
    config, spec, tmp, out = tiny_study
    before = {p.name: p.read_bytes() for p in out.glob("*.csv*")}
    first = json.loads((out / "meta.json").read_text())
    wall = first["wall_seconds_this_run"]
    # a later commit of the same engine only re-reads the cache
    later = dict(run_study.code_version(), commit="a-later-commit")
    run_study.run_one(
        "paper000",
        config,
        spec,
        jobs=1,
        out_root=tmp / "data",
        cache_dir=tmp / "cache",
        code=later,
    )
    assert calls == [], f"the rerun recomputed {len(calls)} tasks"
    after = {p.name: p.read_bytes() for p in out.glob("*.csv*") if p.name in before}
    for name in ("results.csv.gz", "selections.csv.gz", "similarity.csv"):
        assert after[name] == before[name], name
    meta = json.loads((out / "meta.json").read_text())
    # the cached rerun is faster, so the run that computed it stays on record:
    # its wall time, workers and commit
    assert meta["wall_seconds_this_run"] == wall
    assert meta["code_version"] == first["code_version"] != later
    assert meta["versions"]["mlfs_core"]
    assert meta["n_jobs"] == first["n_jobs"] == 1


def test_run_study_rejects_unknown_dataset(capsys):
    with pytest.raises(SystemExit) as exc:
        run_study.main(["paper000", "--datasets", "no-such-dataset"])
    assert exc.value.code == 2
    assert "no-such-dataset" in capsys.readouterr().err


def test_report_reads_a_tiny_study(tiny_study):
    _, _, tmp, _ = tiny_study
    data = report_data.load_study("paper000", base=tmp / "data")
    assert set(data) >= {"results", "similarity", "timings", "meta", "selections"}
    assert list(data["meta"]["dataset"]) == ["flags"]
    table4, table5 = paper000.rank_tables(data["results"])
    assert set(table4["budget_pct"]) == set(table5["budget_pct"]) == {10, 50, 90}
    # the claims are stated for 10-40 %, ..., which 3 budgets do not cover
    assert paper000.claims_paper000(data["results"], data["similarity"]) is None


# ---------------------------------------------------------------- claim logic
def _planted_results(best, n_datasets: int = 4) -> pd.DataFrame:
    """micro-F1 where ``best(pct)`` (first is the best) beat every other method."""
    return planted_results(best, [f"d{d}" for d in range(n_datasets)])


def _planted_similarity(groups: list[list[str]]) -> pd.DataFrame:
    return planted_similarity(groups, report_methods()).assign(dataset="d0")


def test_claims_agree_when_the_paper_story_is_planted():
    results = _planted_results(paper_story)
    checks = paper000.claims_paper000(results, _planted_similarity(PAPER_GROUPS))
    assert len(checks) == 8
    assert list(checks["verdict"]) == ["agree"] * 8
    assert list(checks["fails"]) == [0] * 8 and list(checks["ties"]) == [0] * 8
    # each claim is checked over its stated range only
    assert list(checks["holds"]) == [4, 5, 5, 4, 9, 9, 6, 3]


def test_claims_partly_and_the_summary_use_the_one_rule():
    # Max beats Mean (CS) at 40 %: 3 of the 4 stated budgets
    sim = _planted_similarity(PAPER_GROUPS)
    data = {
        "results": _planted_results(max_at_40),
        "similarity": pd.concat([sim.assign(dataset=f"d{d}") for d in range(4)]),
    }
    checks = paper000.claims_paper000(data["results"], data["similarity"])
    assert checks.loc[0, "verdict"] == "partly" and checks.loc[0, "holds"] == 3
    lines = paper000.summary_lines(data)
    # four alike datasets: leaving any one out changes nothing
    same = "; one dataset left out: same in 4 of 4."
    assert f"- Mean is the best CS aggregation (10-40%): partly (3 of 4){same}" in lines
    assert f"- Max is the best CS aggregation (50-90%): agree (5 of 5){same}" in lines
    assert not any("text" in line for line in lines)


def test_claims_disagree_when_the_opposite_is_planted():
    results = _planted_results(lambda pct: ["AF", "Random", "MaxBNS", "RaRCS"])
    # every pair at 0.1: no pair above 0.7, and MeanBNS ties the others
    checks = paper000.claims_paper000(results, _planted_similarity([]))
    assert list(checks["verdict"]) == ["disagree"] * 7 + ["tie"]
    assert "10%: fails" in checks.loc[0, "outcomes"]
    assert checks.loc[7, "ties"] == 3 and checks.loc[7, "holds"] == 0


def test_atr_wins_counts_datasets_and_ranks():
    it_methods = report_data.IT_METHODS
    rows = []
    for d in range(3):
        for i, m in enumerate(it_methods):
            mean = 0.5 + 0.01 * i
            if m == "ATR":
                mean = 0.9 if d < 2 else 0.1  # best on two of three datasets
            rows.append(
                {"dataset": f"d{d}", "method": m, "metric": "micro_f1", "mean": mean}
            )
    table = paper001.atr_wins(pd.DataFrame(rows)).iloc[0]
    assert table["datasets"] == 3
    assert table["ATR best on"] == 2
    assert table["ATR avg rank"] == pytest.approx((1 + 1 + len(it_methods)) / 3)
    # the last-listed method is 2nd, 2nd, then 1st: the best average rank
    assert table["best avg rank"] == f"{it_methods[-1]} ({5 / 3:.2f})"


# ---------------------------------------------------------------- committed outputs
def _copy_inputs(dst: Path) -> None:
    for data in (ROOT / "studies").glob("*/data"):  # the variants' too
        shutil.copytree(data, dst / "studies" / data.parent.name / "data")
    for part in (ROOT / "studies").glob("*/partial"):  # datasets in progress
        shutil.copytree(part, dst / "studies" / part.parent.name / "partial")
    (dst / "configs").mkdir()
    for cfg in (ROOT / "configs").glob("study_*.toml"):
        shutil.copy(cfg, dst / "configs" / cfg.name)
    shutil.copy(ROOT / "studies" / "reproduction_intro.md", dst / "studies")
    # the papers' published results the report sets beside ours
    for study, name in (("paper000", "published.csv"), ("paper001", "statements.csv")):
        shutil.copy(ROOT / "studies" / study / name, dst / "studies" / study / name)
    shutil.copytree(ROOT / "docs" / "figures", dst / "docs" / "figures")


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    """The report, tables and app files rebuilt from the committed study data."""
    dst = tmp_path_factory.mktemp("regen")
    _copy_inputs(dst)
    assert report.main(["--no-png", "--root", str(dst)]) == 0
    return dst


def test_committed_tables_match_the_committed_data(regenerated):
    studies = {p.parent.name for p in (ROOT / "studies").glob("*/tables")}
    assert {"paper000", "paper001"} <= studies
    for study in sorted(studies):
        committed = sorted((ROOT / "studies" / study / "tables").glob("*.csv"))
        assert committed, study
        for path in committed:
            new = regenerated / "studies" / study / "tables" / path.name
            assert new.exists(), f"{path} is no longer produced"
            pd.testing.assert_frame_equal(
                pd.read_csv(new), pd.read_csv(path), check_exact=False, rtol=1e-9
            )


def test_committed_app_files_match_the_committed_data(regenerated):
    for study in ("paper000", "paper001", "paper001-ref", "paper000-secondary"):
        for name in ("results.csv.gz", "selections.csv.gz"):
            committed = ROOT / "studies" / study / "app" / name
            new = regenerated / "studies" / study / "app" / name
            with gzip.open(committed) as a, gzip.open(new) as b:
                assert a.read() == b.read(), f"{committed} is stale"


_NUMBER = re.compile(r"\d+(?:\.(\d+))?")


def _number_mismatches(new: str, committed: str) -> list[str]:
    """Lines whose text differs, or whose numbers differ by more than one unit
    in the last printed digit (rounding noise across library versions).
    Integers must be equal.
    """
    a_lines, b_lines = new.splitlines(), committed.splitlines()
    if len(a_lines) != len(b_lines):
        return [f"{len(a_lines)} lines instead of {len(b_lines)}"]
    bad = []
    for n, (a, b) in enumerate(zip(a_lines, b_lines), 1):
        a_nums, b_nums = list(_NUMBER.finditer(a)), list(_NUMBER.finditer(b))
        same_text = _NUMBER.sub("#", a) == _NUMBER.sub("#", b)
        close = len(a_nums) == len(b_nums) and all(
            x.group(1) is not None
            and y.group(1) is not None
            and len(x.group(1)) == len(y.group(1))
            and abs(float(x.group()) - float(y.group()))
            <= 1.000001 * 10.0 ** -len(y.group(1))
            if x.group() != y.group()
            else True
            for x, y in zip(a_nums, b_nums)
        )
        if not (same_text and close):
            bad.append(f"line {n}: {a!r} != {b!r}")
    return bad


def test_number_comparison_catches_a_changed_number():
    committed = "| MaxCS | 2.35 (0.41) | 13 of 16 |"
    assert _number_mismatches(committed, committed) == []
    # one unit in the last digit is rounding noise
    assert _number_mismatches("| MaxCS | 2.36 (0.40) | 13 of 16 |", committed) == []
    for changed in (
        "| MaxCS | 2.45 (0.41) | 13 of 16 |",  # a real change
        "| MaxCS | 2.35 (0.41) | 12 of 16 |",  # a count
        "| MaxCS | 2.35 (0.41) | 13 of 16 |x",  # the text
        "| MaxCS | 2.350 (0.41) | 13 of 16 |",  # the precision
    ):
        assert _number_mismatches(changed, committed), changed


def test_committed_report_matches_the_committed_data(regenerated):
    committed = (ROOT / "docs" / "reproduction.md").read_text(encoding="utf-8")
    new = (regenerated / "docs" / "reproduction.md").read_text(encoding="utf-8")
    assert _number_mismatches(new, committed) == [], (
        "docs/reproduction.md is stale: run python -m studies.report"
    )
    # every figure the report shows is committed
    for link in re.findall(r"\]\((figures/[^)]+\.png)\)", committed):
        assert (ROOT / "docs" / link).is_file(), link


def test_report_checks_paper000_claims_by_one_rule(regenerated):
    text = (regenerated / "docs" / "reproduction.md").read_text(encoding="utf-8")
    assert text.count("The paper's claims over the ranges it states them for") == 1
    assert "agree = holds at every stated budget" in text  # the summary's rule
    assert "text only" not in text and "disagrees" not in text


def test_status_section_names_done_left_out_and_pending(monkeypatch):
    meta = pd.DataFrame(
        {
            "dataset": ["medical", "enron"],
            "wall_seconds": [60, 120],
            "engine": ["e1", "e1"],
            "commit": ["abcdef0123", "abcdef0123"],
            "n_jobs": [1, 2],
        }
    )
    timings = pd.DataFrame(
        {
            "dataset": ["medical", "medical", "enron"],
            "stage": ["fit", "predict", "fit"],
            "seconds": [3000.0, 600.0, 3600.0],
            "n_fitted": [100.0, None, 40.0],
            "n_not_converged": [25.0, None, 0.0],
        }
    )
    monkeypatch.setitem(status.LEFT_OUT, ("paper000", "bibtex"), "too slow here")
    monkeypatch.setitem(status.PENDING_NOTES, ("paper000", "arts"), "running now")
    lines = status.status_section("paper000", {"meta": meta, "timings": timings})
    text = "\n".join(lines)
    # compute is the tasks' summed time (core-seconds), not the wall time
    assert "2 of 14 datasets done with engine" in text
    assert "2.0 core-hours of compute" in text
    assert "left out: bibtex" in text
    assert "| medical | done | 3600 | 60 (1 worker) | 25% | e1 @ abcdef0 |" in lines
    assert "| enron | done | 3600 | 120 (2 workers) | 0% | e1 @ abcdef0 |" in lines
    assert "| bibtex | left out | | too slow here | | |" in lines
    assert "| arts | not run yet | | running now | | |" in lines
    assert "| science | not run yet | | queued | | |" in lines


# ---------------------------------------------------------------- the configs
def test_study_configs_follow_the_issue_protocols(shared_datasets):
    a = run_study.study_config("paper000")
    assert a.protocol.name == "A" and a.protocol.n_folds == 10
    assert list(a.protocol.budgets) == [10, 20, 30, 40, 50, 60, 70, 80, 90]
    assert a.protocol.budget_unit == "percent" and a.protocol.n_repeats == 3
    assert a.protocol.classifier.params == {"C": 3.0, "tol": 0.001}
    assert {m.name for m in a.methods} == set(report_data.CS + report_data.BNS) | {
        "Random",
        "AF",
    }
    assert {"micro_f1", "macro_f1"} <= set(a.protocol.metrics)
    # paper 000's 14 text datasets with a public copy, each folder present
    names = {run_study.dataset_key(s) for s in a.datasets}
    shared = {p.name for p in shared_datasets.iterdir() if p.is_dir()}
    assert names <= shared and names == {
        "arts", "business", "education", "health", "reference", "science",
        "rcv1subset1", "ohsumed", "bibtex", "delicious", "enron", "medical",
        "slashdot", "tmc2007-500",
    }  # fmt: skip
    assert a.protocol.scaling == "none"
    l2 = run_study.study_config("paper000-l2")
    assert l2.protocol.scaling == "l2-rows"
    assert replace(l2.protocol, scaling="none") == a.protocol
    assert {run_study.dataset_key(s) for s in l2.datasets} == names

    b = run_study.study_config("paper001")
    assert b.protocol.name == "B" and b.protocol.classifier.name == "mlknn"
    assert list(b.protocol.budgets) == list(range(1, 51))
    assert {run_study.dataset_key(s) for s in b.datasets} == {
        "emotions", "birds", "yeast", "scene", "enron", "medical", "genbase",
        "tmc2007-500", "bibtex", "GnegativePseAAC", "PlantPseAAC",
    }  # fmt: skip
    labels = [m.label or m.name for m in b.methods]
    assert set(report_data.IT_METHODS) | {"PMU-ref", "MDMR-ref"} == set(labels)
    assert {"hamming_loss", "ranking_loss", "coverage_error", "micro_f1"} <= set(
        b.protocol.metrics
    )


def test_variant_notes_count_mdmr_ref_equal_to_d2f():
    means = pd.DataFrame(
        {
            "dataset": ["a", "a", "b", "b"],
            "metric": ["micro_f1"] * 4,
            "method": ["D2F", "MDMR-ref"] * 2,
            "mean": [0.5, 0.5, 0.4, 0.41],
        }
    )
    text = " ".join(paper001.variant_notes(means))
    assert "1 of 2 (dataset, metric) means" in text
    assert paper001.variant_notes(means[means["method"] == "D2F"]) == []


def test_leaving_one_dataset_out_keeps_a_shared_story():
    results = _planted_results(paper_story)
    sim = pd.concat(
        [_planted_similarity(PAPER_GROUPS).assign(dataset=f"d{d}") for d in range(4)]
    )
    loo = paper000.claims_without_each_dataset(results, sim)
    assert list(loo["verdict"]) == ["agree"] * 8
    assert list(loo["n_subsets"]) == [4] * 8 and list(loo["n_same"]) == [4] * 8
    assert list(loo["changes"]) == [""] * 8
    assert paper000.stability_cells(loo, 8) == ["same in 4 of 4"] * 8
    assert paper000.stability_cells(None, 8) == [None] * 8
    # without d0 nothing is left of a Table 6 known on d0 only: that subset
    # cannot be checked and is not counted
    only_d0 = paper000.claims_without_each_dataset(results, sim[sim["dataset"] == "d0"])
    assert list(only_d0["n_subsets"]) == [3] * 8
    assert list(only_d0["n_same"]) == [3] * 8


def test_leaving_one_dataset_out_names_the_dataset_a_verdict_hangs_on():
    # d0-d2 tell the paper's story (Mean 1st, Max 2nd up to 40 %); d3-d5 put
    # Max 1st and Mean 2nd at every budget: on all six, Mean and Max tie at
    # 1.5; leaving out a story dataset makes Max best, an odd one Mean
    def maxfirst(pct):
        return ["MaxCS", "MeanCS", "MaxBNS", "MeanBNS"]

    story = _planted_results(paper_story, n_datasets=3)
    odd = _planted_results(maxfirst, n_datasets=3)
    odd["dataset"] = odd["dataset"].map({"d0": "d3", "d1": "d4", "d2": "d5"})
    results = pd.concat([story, odd], ignore_index=True)
    sim = pd.concat(
        [_planted_similarity(PAPER_GROUPS).assign(dataset=f"d{d}") for d in range(6)]
    )
    full = paper000.claims_paper000(results, sim)
    loo = paper000.claims_without_each_dataset(results, sim)
    assert list(loo["verdict"]) == list(full["verdict"])
    mean_cs = loo.iloc[0]
    assert mean_cs["claim"] == "Mean is the best CS aggregation"
    assert mean_cs["verdict"] == "tie"
    assert mean_cs["n_subsets"] == 6 and mean_cs["n_same"] == 0
    assert mean_cs["changes"] == "; ".join(
        [f"without d{d}: disagree" for d in range(3)]
        + [f"without d{d}: agree" for d in range(3, 6)]
    )
    lines = paper000.summary_lines({"results": results, "similarity": sim})
    line = next(x for x in lines if x.startswith("- Mean is the best CS"))
    assert line.startswith("- Mean is the best CS aggregation (10-40%): tie (0 of 4")
    assert "; one dataset left out: same in 0 of 6 (without d0: disagree;" in line


def test_leaving_one_dataset_out_needs_three_datasets():
    results = _planted_results(paper_story, n_datasets=2)
    sim = pd.concat(
        [_planted_similarity(PAPER_GROUPS).assign(dataset=f"d{d}") for d in range(2)]
    )
    assert paper000.claims_without_each_dataset(results, sim) is None
    lines = paper000.summary_lines({"results": results, "similarity": sim})
    assert "- Mean is the best CS aggregation (10-40%): agree (4 of 4)." in lines
