"""A study's datasets still being computed are named beside its results, and
never drawn (issue 28: the report and the app list a partial dataset as in
progress and use it in no average).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mlfs_core import published
from ui import results

from ..conftest import charts, figure_data, new_app, open_page, results_csv


def _study(root: Path, in_progress: str | None) -> Path:
    """A studies folder whose paper000 app folder holds two finished datasets."""
    app = root / "paper000" / "app"
    app.mkdir(parents=True)
    (app / results.RESULTS_FILE).write_bytes(results_csv(n_datasets=2))
    if in_progress is not None:
        (app / results.IN_PROGRESS_FILE).write_text(in_progress)
    return root


def test_in_progress_note_names_each_dataset_with_its_tasks(tmp_path):
    folder = _study(tmp_path, "dataset,done,total\ndelicious,1378,1520\nbig,5,10\n")
    note = results.in_progress_note(folder / "paper000" / "app")
    assert note == (
        "Still being computed, so in no table or chart here yet: "
        "delicious (1,378 of 1,520 tasks), big (5 of 10 tasks)."
    )


@pytest.mark.parametrize(
    "text",
    [None, "dataset,done,total\n", "name,count\ndelicious,3\n", "\x00\x01"],
    ids=["no file", "empty", "other columns", "not a CSV"],
)
def test_in_progress_note_is_none_without_a_usable_list(tmp_path, text):
    folder = _study(tmp_path, text) / "paper000" / "app"
    assert results.in_progress_note(folder) is None


def test_the_file_name_is_the_one_the_report_writes():
    from studies import status

    assert results.IN_PROGRESS_FILE == status.IN_PROGRESS_FILE


def test_the_study_source_names_its_datasets_in_progress(tmp_path, monkeypatch):
    """Check: choosing the study shows the caption, the page draws only the
    finished datasets, and a study with none in progress shows no caption."""
    root = _study(tmp_path / "studies", "dataset,done,total\ndelicious,7,20\n")
    entry = published.get_published("paper000")
    moved = dataclasses.replace(entry, results=root / "paper000" / "app")
    monkeypatch.setitem(published._REGISTRY, "paper000", moved)
    at = open_page(new_app(), "budget")
    at.radio(key="results_source_widget").set_value("Paper 000 study").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    captions = [c.value for c in at.caption]
    assert any("delicious (7 of 20 tasks)" in c for c in captions), captions
    # one panel per dataset: the two finished ones, not the one in progress
    assert {t.get("xaxis", "x") for t in figure_data(charts(at)[0])} == {"x", "x2"}
    (root / "paper000" / "app" / results.IN_PROGRESS_FILE).unlink()
    at.run()
    assert not any("Still being computed" in c.value for c in at.caption)
