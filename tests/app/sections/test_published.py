"""AppTests: paper 000 as published beside the Paper 000 study (issue 11 item 4) on
the Average ranks (Tables 4 and 5) and Similarity (Table 6) pages, found through
the engine's registry (mlfs_core.published) the papers' package registers on;
without that package no study is a source and the pages say how to install it
(issue 45).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from mlfs_core.analysis.similarity import similarity_matrix
from mlfs_core.evaluation.io import read_selections
from mlfs_papers.paper000.published import (
    BNS_METHODS,
    CS_METHODS,
    kuncheva_comparison,
    rank_comparison,
    reproduction_ranks,
)
from ui import results
from ui.results import INSTALL
from ui.sections.published import NOT_SHOWN

from ..conftest import charts, new_app, open_page

STUDY = Path(__file__).resolve().parents[3] / "studies" / "paper000"


@pytest.fixture(scope="module")
def published() -> pd.DataFrame:
    return pd.read_csv(STUDY / "published.csv", dtype=str, keep_default_na=False)


@pytest.fixture(scope="module")
def expected_ranks(published):
    results = pd.read_csv(STUDY / "app" / "results.csv.gz")
    return rank_comparison(published, *reproduction_ranks(results))


def _ranks_page(choice: str):
    at = open_page(new_app(), "average_ranks")
    assert at.radio(key="results_source_widget").value == "Paper 000 study"
    at.radio(key="ranks_published").set_value(choice).run()
    assert not at.exception and not at.error
    return at


def test_average_ranks_shows_the_published_tables_beside_ours(expected_ranks):
    at = _ranks_page("published beside ours")
    assert [t.label for t in at.tabs] == ["Table 4 BNS", "Table 4 CS", "Table 5"]
    tables = [t.value for t in at.table]
    # the summary's rows are labelled by table and ranks: no stray 0, 2, 1 index
    (summary,) = [t for t in tables if "ranks" in t.index.names]
    assert list(summary.index.names) == ["table", "ranks"]
    want = expected_ranks.summary
    want = want.assign(table=(want["table"] + " " + want["measure"]).str.strip())
    shown = summary["mean |diff|"]
    # ours and the constant-rank floor, for every table, ours first
    assert list(shown.index) == [
        (t, r) for t in ("Table 4 BNS", "Table 4 CS", "Table 5")
        for r in ("ours", "constant")
    ]  # fmt: skip
    for row in want.itertuples():
        assert shown[(row.table, row.ranks)] == pytest.approx(row.mean_abs_diff)
    cells = expected_ranks.cells.query("table == 'Table 5' and budget_pct == 10")
    af = cells.set_index("method").loc["AF"]
    (table5,) = [t for t in tables if "AF" in t.columns and t.index.name == "budget"]
    assert list(table5.columns) == ["MaxCS", "MeanCS", "MeanBNS", "RaRBNS", "RFS", "AF"]
    assert table5.loc["10%", "AF"] == f"{af['published']:.2f} / {af['ours']:.2f}"
    per = expected_ranks.per_budget.query("table == 'Table 5'")
    (spearman5,) = [t for t in tables if "Spearman" in t.columns and len(t) == 9][-1:]
    assert spearman5["Spearman"].tolist() == pytest.approx(
        per["spearman"].tolist(), nan_ok=True
    )
    assert spearman5["best (paper)"].tolist() == per["published_best"].tolist()
    assert spearman5.index.name == "budget"


def test_average_ranks_published_is_off_by_default_and_only_for_paper000():
    at = open_page(new_app(), "average_ranks")
    assert at.radio(key="ranks_published").value == "ours"
    assert not at.tabs
    at.radio(key="results_source_widget").set_value("Paper 001 study").run()
    assert not at.exception
    assert "ranks_published" not in [r.key for r in at.radio]


def test_similarity_shows_the_published_table6_beside_ours(published):
    at = open_page(new_app(), "similarity")
    at.radio(key="results_source_widget").set_value("Paper 000 study").run()
    assert at.radio(key="sim_published").value == "ours"
    # "ours" says where ours are and how to see the paper's, not an empty section
    assert [c.value for c in at.caption if c.value.startswith("Ours only")] == [
        NOT_SHOWN
    ]
    before = len(charts(at))
    at.radio(key="sim_published").set_value("published beside ours").run()
    assert not at.exception and not at.error
    assert not [c.value for c in at.caption if c.value.startswith("Ours only")]
    figures = [json.loads(c.proto.spec) for c in charts(at)]
    assert len(figures) == before + 3
    titles = [f["layout"]["title"]["text"] for f in figures[before:]]
    assert titles[0].startswith("Published") and titles[1].startswith("Ours")
    assert "Ours - published" in titles[2]
    selections = read_selections(STUDY / "app" / "selections.csv.gz")
    ours = similarity_matrix(
        selections, budget_pct=50.0, methods=list(CS_METHODS + BNS_METHODS)
    )
    want = kuncheva_comparison(published, ours)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Mean |ours - published|"] == f"{want.mean_abs_diff:.2f}"
    assert metrics["Spearman (pairs)"] == f"{want.spearman:.2f}"
    assert metrics["Method pairs"] == "28"
    # the difference heatmap holds ours - published
    heat = figures[-1]["data"][0]
    assert heat["colorbar"]["title"]["text"] == "difference"
    diff = want.difference
    i, j = list(diff.index).index("MaxCS"), list(diff.columns).index("MeanCS")
    assert heat["y"][i] == "MaxCS" and heat["x"][j] == "MeanCS"
    assert heat["text"][i][j] == f"{diff.loc['MaxCS', 'MeanCS'] + 0.0:.2f}"


def test_other_datasets_source_ranks_them_without_a_published_column():
    """Check the secondary table (paper 000's protocol on the 10 shared datasets
    that are not the paper's) is a source of its own: its datasets are ranked,
    and the paper's numbers are never offered beside them (issue 11 item 1).
    """
    folder = STUDY.parent / "paper000-secondary" / "app"
    n = pd.read_csv(folder / "results.csv.gz", usecols=["dataset"])["dataset"].nunique()
    at = open_page(new_app(), "average_ranks")
    at.radio(key="results_source_widget").set_value(
        "Paper 000 protocol, other datasets"
    ).run()
    assert not at.exception and not at.error
    assert "ranks_published" not in [r.key for r in at.radio]
    labels = {m.label: m.value for m in at.metric}
    assert labels["Datasets x methods"].startswith(f"{n} x ") and n == 10
    at = open_page(at, "similarity")
    assert at.radio(key="results_source_widget").value == (
        "Paper 000 protocol, other datasets"
    )
    assert "sim_published" not in [r.key for r in at.radio]
    assert charts(at) and not at.exception and not at.error


@pytest.fixture
def without_papers(monkeypatch):
    """The app as installed without mlfs_papers: no entry point, nothing registered."""
    import importlib.metadata

    from mlfs_core import published

    real = importlib.metadata.entry_points

    def entry_points(**params):
        found = real(**params)
        return [e for e in found if not e.value.startswith("mlfs_papers")]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(published, "_REGISTRY", {})


STUDY_LABELS = [
    "Paper 000 study",
    "Paper 000 protocol, other datasets",
    "Paper 001 study",
    "Paper 001 study, authors' evaluation",
]


@pytest.mark.parametrize("page", ["average_ranks", "similarity", "budget"])
def test_the_studies_are_sources_through_the_registry(page):
    """Check the papers' package's registered studies are the study sources,
    with their folders, and no install note is shown."""
    at = open_page(new_app(), page)
    options = at.radio(key="results_source_widget").options
    assert [o for o in options if o in STUDY_LABELS] == STUDY_LABELS
    assert results.study_sources()["Paper 001 study"] == (
        STUDY.parent / "paper001" / "app"
    )
    assert INSTALL not in [c.value for c in at.caption]


@pytest.mark.parametrize(
    ("page", "widget"),
    [("average_ranks", "ranks_published"), ("similarity", "sim_published")],
)
def test_without_the_papers_package_no_study_is_a_source(without_papers, page, widget):
    """Check the page offers no study and no published numbers, draws the
    sample's results and says once how to install the papers' package, never
    an error."""
    at = open_page(new_app(), page)
    assert not at.exception and not at.error, [e.value for e in at.error]
    options = at.radio(key="results_source_widget").options
    assert not [o for o in options if "tudy" in o or "Paper" in o], options
    assert results.study_sources() == {}
    assert [c.value for c in at.caption if "mlfs_papers" in c.value] == [INSTALL]
    assert "pip install -e ./mlfs_papers" in INSTALL
    assert widget not in [r.key for r in at.radio]
    assert charts(at)  # the sample's are drawn


def test_the_pages_open_on_a_registered_study_of_their_protocol(monkeypatch):
    """Check a page opens on the first registered study whose results are of
    its protocol, whatever the study's label (A: Average ranks, B: Metric vs
    budget), before the sample of that protocol."""
    import dataclasses

    from mlfs_core import published as registry

    entry = registry.get_published("paper000")
    renamed = dataclasses.replace(entry, results_label="My study")
    monkeypatch.setitem(registry._REGISTRY, "paper000", renamed)
    at = open_page(new_app(), "average_ranks")
    assert at.radio(key="results_source_widget").value == "My study"
    at = open_page(new_app(), "budget")
    assert at.radio(key="results_source_widget").value == "Paper 001 study"
