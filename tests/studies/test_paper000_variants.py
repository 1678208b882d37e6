"""Study 1's variant sections of the report (``studies.paper000_l2``,
``studies.paper000_secondary``) on planted data: the L2-rows sensitivity check
beside the primary, and the secondary table.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from studies import data as report_data
from studies import paper000_l2, paper000_secondary, report

from . import planted

ROOT = Path(__file__).resolve().parents[2]


def plant(root: Path, study: str, dataset: str, best, not_converged=0) -> None:
    """One dataset's study files, as run_study writes them, current engine."""
    folder = root / "studies" / study / "data" / dataset
    folder.mkdir(parents=True)
    metrics = ("micro_f1", "macro_f1")
    results = planted.planted_results(best, [dataset], metrics=metrics)
    results.to_csv(folder / "results.csv.gz", index=False)
    methods = [m for m in planted.report_methods() if m != "AF"]  # AF: no selection
    similarity = planted.planted_similarity(planted.PAPER_GROUPS, methods)
    similarity.assign(budget=50).to_csv(folder / "similarity.csv", index=False)
    timings = pd.DataFrame(
        {
            "dataset": [dataset],
            "method": ["MaxCS"],
            "stage": ["fit"],
            "seconds": [1.0],
            "n_fitted": [100.0],
            "n_not_converged": [float(not_converged)],
        }
    )
    timings.to_csv(folder / "timings.csv", index=False)
    stats = {"N": 100, "M": 50, "q": 5, "LC": 1.5, "LD": 0.3, "DC": 20}
    meta = {
        "stats": stats,
        "wall_seconds_this_run": 30.0,
        "code_version": {
            "engine": report_data.current_engine(),
            "commit": "abcdef0123",
        },
    }
    (folder / "meta.json").write_text(json.dumps(meta))


@pytest.fixture
def root(tmp_path) -> Path:
    (tmp_path / "configs").mkdir()
    for cfg in (ROOT / "configs").glob("study_paper000*.toml"):
        shutil.copy(cfg, tmp_path / "configs" / cfg.name)
    return tmp_path


def _primary(root: Path, datasets=("medical", "enron")) -> dict:
    for dataset in datasets:
        plant(root, "paper000", dataset, planted.paper_story, not_converged=80)
    return report_data.load_study("paper000", root=root)


# ---------------------------------------------------------------- L2 rows
def test_l2_section_same_verdicts_say_no_conclusion_changes(root):
    primary = _primary(root)
    for dataset in ("medical", "enron", "arts"):  # arts: not in the primary
        plant(root, "paper000-l2", dataset, planted.paper_story)
    lines, summary = paper000_l2.l2_section(primary, root)
    text = "\n".join(lines)
    lines = text.splitlines()
    assert "| medical | done | 1 | 30 (1 worker) | 0% |" in text
    assert "| arts | done |" in text
    assert "| delicious | left out |" in text
    sentence = "On the 2 datasets both studies have (enron, medical), no conclusion"
    assert sentence in text and sentence in "\n".join(summary)
    row = (
        "| Mean is the best CS aggregation | 10-40% | agree (4 of 4) "
        "| agree (4 of 4) | no |"
    )
    assert row in lines
    assert sum(line.endswith("| no |") for line in lines) == 8
    assert "enron 80% -> 0%, medical 80% -> 0%" in text
    saved = pd.read_csv(
        root / "studies" / "paper000-l2" / "tables" / "claims_vs_primary.csv"
    )
    assert not saved["changed"].any() and len(saved) == 8


def test_l2_section_names_the_conclusion_that_changes(root):
    primary = _primary(root)
    for dataset in ("medical", "enron"):
        plant(root, "paper000-l2", dataset, planted.max_at_40)
    lines, _ = paper000_l2.l2_section(primary, root)
    text = "\n".join(lines)
    lines = text.splitlines()
    assert (
        "1 of 8 conclusions change with L2-normalised rows: Mean is the best CS "
        "aggregation: agree -> partly." in text
    )
    row = (
        "| Mean is the best CS aggregation | 10-40% | agree (4 of 4) "
        "| partly (3 of 4) | **yes** |"
    )
    assert row in lines
    # Max best for CS at 50-90 % is untouched by 40 %
    assert any(
        line.startswith("| Max is the best CS aggregation") and line.endswith("| no |")
        for line in lines
    )


def test_l2_section_without_common_datasets_compares_nothing(root):
    primary = _primary(root)
    plant(root, "paper000-l2", "arts", planted.paper_story)
    lines, _ = paper000_l2.l2_section(primary, root)
    assert "No dataset is done in both studies yet: nothing to compare." in lines
    assert not (root / "studies" / "paper000-l2" / "tables").exists()


def test_l2_section_without_data_still_shows_the_status(root):
    lines, summary = paper000_l2.l2_section({}, root)
    text = "\n".join(lines)
    assert "0 of 14 datasets done" in text
    assert "| arts | not run yet | | queued |" in text
    assert "No dataset of the L2 study is done with this engine yet." in text
    assert "Sensitivity check (L2 rows)" in summary[0]


# ---------------------------------------------------------------- secondary
def test_secondary_section_has_its_own_labelled_tables(root):
    _primary(root)
    plant(root, "paper000-secondary", "flags", planted.paper_story)
    plant(root, "paper000-secondary", "emotions", planted.max_at_40)
    lines, summary = paper000_secondary.secondary_section(False, root)
    text = "\n".join(lines)
    lines = text.splitlines()
    assert summary[0].startswith("Secondary table (2 shared datasets, not paper")
    assert "(not the paper's datasets)" in lines[0]
    assert "| flags | done | 1 | 30 (1 worker) |" in text
    assert "| yeast | not run yet |" in text
    assert "Datasets done (2): emotions, flags." in text
    headings = [line for line in lines if line.startswith("### ")]
    assert len(headings) == 7  # Tables 4 (CS, BNS) and 5 per metric, Table 6
    assert all(h.endswith(", not the paper's datasets") for h in headings)
    # MeanCS best at 40 % on flags only: ranks 1.5 each for MaxCS and MeanCS
    cs = lines[lines.index(headings[0]) + 4 :][:9]
    assert cs[3].startswith("| 40% | **1.50 (0.50)** | **1.50 (0.50)** |")
    assert cs[0].startswith("| 10% | 2.00 (0.00) | **1.00 (0.00)** |")
    tables = root / "studies" / "paper000-secondary" / "tables"
    t6 = pd.read_csv(tables / "table6_kuncheva_50pct.csv", index_col=0)
    assert t6.loc["MaxCS", "MeanCS"] == pytest.approx(0.8)
    assert {p.name for p in tables.glob("*.csv")} == {
        "table4_micro_f1.csv",
        "table5_micro_f1.csv",
        "table4_macro_f1.csv",
        "table5_macro_f1.csv",
        "table6_kuncheva_50pct.csv",
    }
    assert not (root / "studies" / "paper000" / "tables").exists()


def test_secondary_section_without_data_still_shows_the_status(root):
    lines, summary = paper000_secondary.secondary_section(False, root)
    assert summary == []
    assert "| flags | not run yet | | queued | | |" in lines
    assert "No dataset of this table is done with this engine yet." in lines


def test_report_keeps_the_secondary_out_of_study_1(root):
    _primary(root)
    for name in ("reproduction_intro.md", "paper000/published.csv"):
        shutil.copy(ROOT / "studies" / name, root / "studies" / name)
    plant(root, "paper000-secondary", "flags", planted.max_at_40)
    text = report.build_report(root, png=False)
    study1 = text[text.index("## Study 1: paper 000") : text.index("## Study 1, sens")]
    assert "Datasets done (2): enron, medical." in study1 and "flags" not in study1
    # Study 1's Table 4 is the story alone: MeanCS best at 40 %
    t4 = pd.read_csv(root / "studies" / "paper000" / "tables" / "table4_micro_f1.csv")
    at40 = t4[(t4["budget_pct"] == 40) & (t4["measure"] == "CS")].set_index("method")
    assert at40.loc["MeanCS", "mean"] == 1.0
    assert text.index("## Study 1, sens") < text.index("## Secondary table")
    assert "Datasets done (1): flags." in text[text.index("## Secondary table") :]


def test_best_counts_names_the_leader_and_counts_ties():
    def ranks(best_per_budget):
        rows = []
        for pct, best in zip(planted.PCTS[:4], best_per_budget, strict=True):
            for m in ("MaxCS", "MeanCS", "RoRCS"):
                rows.append({"budget_pct": pct, "method": m, "best": m in best})
        return pd.DataFrame(rows)

    one = ranks([{"RoRCS"}, {"RoRCS"}, {"MaxCS"}, {"MaxCS", "MeanCS"}])
    assert paper000_secondary.best_counts(one) == "RoRCS at 2 of 4 budgets (1 tied)"
    level = ranks([{"RoRCS"}, {"MaxCS"}, {"MaxCS"}, {"RoRCS"}])
    assert paper000_secondary.best_counts(level) == "MaxCS, RoRCS at 2 of 4 budgets"
    tied = ranks([{"MaxCS", "RoRCS"}] * 4)
    assert (
        paper000_secondary.best_counts(tied)
        == "no single best at any of 4 budgets (4 tied)"
    )


def test_summary_line_of_the_secondary_table(root):
    assert (
        paper000_secondary.secondary_summary(
            report_data.load_study("paper000-secondary", root=root)
        )
        == []
    )
    plant(root, "paper000-secondary", "flags", planted.paper_story)
    data = report_data.load_study("paper000-secondary", root=root)
    (line, blank) = paper000_secondary.secondary_summary(data)
    assert line.startswith("Secondary table (1 shared dataset, not paper 000's,")
    # the story: MeanCS best at 10-40 %, MaxCS at 50-90 %; MeanBNS first at 10-50 %
    assert "CS aggregations MaxCS at 5 of 9 budgets;" in line
    assert "BNS aggregations MeanBNS at 5 of 9 budgets;" in line
    assert line.endswith("Table 5 methods MaxCS at 5 of 9 budgets.") and blank == ""


def _l2_text(root, primary, stories):
    """The L2 section's text and summary after planting ``{dataset: story}``."""
    for dataset, story in stories.items():
        plant(root, "paper000-l2", dataset, story)
    lines, summary = paper000_l2.l2_section(primary, root)
    return "\n".join(lines), summary


def test_l2_section_counts_changes_with_one_dataset_left_out(root):
    three = ("medical", "enron", "slashdot")
    primary = _primary(root, three)  # the paper's story
    text, _ = _l2_text(root, primary, dict.fromkeys(three, planted.max_at_40))
    # Max beats Mean at 40 % on every dataset: every subset of two sees it too
    assert (
        "1 of 8 conclusions change with L2-normalised rows: Mean is the best CS "
        "aggregation: agree -> partly (changes in 3 of 3 subsets with one dataset "
        "left out)." in text
    )
    assert "other conclusions change" not in text  # none did in any subset
    saved = pd.read_csv(
        root / "studies" / "paper000-l2" / "tables" / "claims_vs_primary.csv"
    )
    assert list(saved["changed_one_left_out"]) == [3] + [0] * 7
    assert set(saved["subsets_one_left_out"]) == {3}


def test_l2_section_names_a_change_only_some_subsets_see(root):
    primary = _primary(root, ("medical", "enron", "slashdot"))
    # L2 moves Max ahead at 40 % on slashdot only: Mean keeps the lead on the
    # three (ranks 1, 1, 2), ties without medical or enron (1, 2), leads without
    # slashdot
    stories = {
        "medical": planted.paper_story,
        "enron": planted.paper_story,
        "slashdot": planted.max_at_40,
    }
    text, summary = _l2_text(root, primary, stories)
    assert (
        "On the 3 datasets both studies have (enron, medical, slashdot), no "
        "conclusion changes: every claim gets the same verdict with and without "
        "L2-normalised rows. With one dataset left out in turn, some subsets do "
        "change a conclusion: Mean is the best CS aggregation in 2 of 3." in text
    )
    assert "in 2 of 3." in "\n".join(summary)
