"""Paper 001 under both evaluations and each convention alone
(studies/report_paper001_ref.py), on planted study data.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from studies import data as report_data
from studies import paper001_ref

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ("emotions", "birds")
HIGHER = {"micro_f1", "jaccard_samples", "subset_accuracy"}
HIGHER |= {"weighted_f1", "weighted_jaccard"}


def _methods() -> list[str]:
    return [*report_data.IT_METHODS, "PMU-ref", "MDMR-ref"]


def _results(dataset: str, atr_place: int, weighted: bool = False) -> pd.DataFrame:
    """Every metric: methods in registry order, ATR at ``atr_place`` (0 = best)."""
    methods = [m for m in _methods() if m != "ATR"]
    methods.insert(atr_place, "ATR")
    f1, jac = ("weighted_f1", "weighted_jaccard") if weighted else (
        "micro_f1", "jaccard_samples")  # fmt: skip
    metrics = ["hamming_loss", "ranking_loss", "coverage_error", f1, jac]
    rows = []
    for metric in [*metrics, "subset_accuracy"]:
        for i, m in enumerate(methods):
            quality = 0.9 - 0.05 * i
            for k in (1, 2):
                rows.append(
                    {
                        "dataset": dataset,
                        "protocol": "B",
                        "method": m,
                        "budget": k,
                        "budget_pct": None,
                        "fold": 0,
                        "metric": metric,
                        "value": quality if metric in HIGHER else 1 - quality,
                    }
                )
    return pd.DataFrame(rows)


def plant(
    root: Path, study: str, atr_place: int, weighted: bool = False, datasets=None
) -> None:
    """A study config and its current-engine data on both datasets (or ``datasets``)."""
    config = root / "configs" / f"study_{study}.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text(
        "".join(f'[[datasets]]\npath = "../shared/datasets/{d}"\n' for d in DATASETS)
    )
    engine = report_data.current_engine()
    for dataset in DATASETS if datasets is None else datasets:
        folder = root / "studies" / study / "data" / dataset
        folder.mkdir(parents=True)
        _results(dataset, atr_place, weighted).to_csv(
            folder / "results.csv.gz", index=False
        )
        pd.DataFrame({"method_a": [], "method_b": [], "value": []}).to_csv(
            folder / "similarity.csv", index=False
        )
        pd.DataFrame(
            {"dataset": [dataset], "method": ["ATR"], "stage": ["selection"],
             "seconds": [0.1]}
        ).to_csv(folder / "timings.csv", index=False)  # fmt: skip
        meta = {
            "stats": {},
            "wall_seconds_this_run": 12.0,
            "code_version": {"engine": engine, "commit": "abcdef0"},
        }
        (folder / "meta.json").write_text(json.dumps(meta))


@pytest.fixture
def root(tmp_path) -> Path:
    (tmp_path / "studies" / "paper001").mkdir(parents=True)
    shutil.copy(
        ROOT / "studies" / "paper001" / "statements.csv",
        tmp_path / "studies" / "paper001" / "statements.csv",
    )
    return tmp_path


def _definition_means(root: Path) -> pd.DataFrame:
    plant(root, "paper001", atr_place=0)  # ATR best everywhere
    data = report_data.load_study("paper001", root=root)
    return report_data.paper001_tables(data["results"])


def test_without_reference_data_the_section_says_pending(root):
    means = _definition_means(root)
    text = "\n".join(paper001_ref.evaluations_section(means, root))
    assert "**Pending:** `configs/study_paper001-ref.toml`" in text
    assert "| definition | definition | 2 |" in text
    assert not any(r.startswith("| reference-code |") for r in text.splitlines())
    # ATR first on every (dataset, metric) cell: 2 datasets x 6 metrics
    assert "| 12 of 12 | 1.00 | ATR (1.00) |" in text
    conventions = text.split("#### Which convention moves ATR most")[1]
    assert "**Pending:** needs protocol B run with each of the four" in conventions
    (summary, _) = paper001_ref.evaluation_summary(means, root)
    assert "ATR first in 12 of 12 (dataset, metric) cells" in summary
    assert summary.endswith("; reference-code evaluation: pending.")
    assert "`paper001-ref-mlknn`" in conventions


def test_reference_and_convention_studies_are_rendered(root):
    means = _definition_means(root)
    plant(root, "paper001-ref", atr_place=11, weighted=True)  # ATR last
    plant(root, "paper001-ref-mlknn", atr_place=5)
    plant(root, "paper001-ref-split", atr_place=1)
    lines = paper001_ref.evaluations_section(means, root)
    text = "\n".join(lines)
    # the reference study's status: task seconds, then wall time and workers
    assert "| emotions | done | 0 | 12 (1 worker) |" in text
    assert "**Pending:** `configs" not in text
    row = [
        r for r in text.splitlines() if r.startswith("| reference-code | definition")
    ]
    # ATR last of the ten on every cell (PMU-ref/MDMR-ref are not among the ten)
    assert len(row) == 1 and "| 0 of 12 | 10.00 |" in row[0]
    conventions = text.split("#### Which convention moves ATR most")[1]
    assert "Alone, **mlknn** moves ATR most: average rank 6.00 against 1.00" in (
        conventions
    )
    assert "Pending: ranking_on_predictions, weighted_and_drop." in conventions
    summary, _, moved, _, whole, _ = paper001_ref.evaluation_summary(means, root)
    # split (ATR 2nd) and mlknn (ATR 6th) run; ATR 1st under the definition
    assert "(2 of 4 run, on 2 datasets): **mlknn** moves ATR most" in moved
    assert "average rank 6.00 against 1.00 under ours (others: split 2.00)" in moved
    assert "reference-code evaluation (2 datasets)" in summary
    assert "ATR first in 0 of 12" in summary and "pending" not in summary
    # their evaluation and their PMU/MDMR: ATR last of the ten
    assert whole.startswith("The authors' whole setting")
    assert "ATR average rank 10.00" in whole
    table = [r for r in conventions.splitlines() if r.startswith("| split |")]
    assert table and "| 2 | 2.00 | 1.00 |" in table[0]


def test_conventions_compare_common_datasets_and_name_the_missing(root):
    """Check a convention study lacking a dataset restricts the comparison to the
    common datasets and the text names the dataset and the evaluation.
    """
    means = _definition_means(root)
    plant(root, "paper001-ref", atr_place=11, weighted=True)
    plant(root, "paper001-ref-mlknn", atr_place=5, datasets=DATASETS[:1])
    text = "\n".join(paper001_ref.evaluations_section(means, root))
    conventions = text.split("#### Which convention moves ATR most")[1]
    assert f"not yet {DATASETS[1]} under mlknn." in conventions
    row = [r for r in conventions.splitlines() if r.startswith("| mlknn |")]
    assert row and row[0].startswith("| mlknn | 1 |")
