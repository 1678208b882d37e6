"""An uploaded results table with a gap: the Average ranks page shows the
analysis's own message (the missing cells named) as an st.error, with no
traceback and no silent ranking over what happens to be there."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from ..conftest import new_app, open_page, results_csv


def _with_a_gap() -> bytes:
    """results_csv on 3 datasets with method C's rows on d1 at 50 % removed."""
    lines = results_csv(n_datasets=3).decode().splitlines()
    kept = [ln for ln in lines if not ln.startswith("d1,A,C,50,")]
    assert len(kept) == len(lines) - 2
    return ("\n".join(kept) + "\n").encode()


def test_average_ranks_page_names_the_missing_cells():
    """Check the page's error names the (dataset, method, budget) cell that is
    missing and says how to drop incomplete blocks."""
    at = open_page(new_app(), "average_ranks")
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", _with_a_gap(), "text/csv")
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert any("('d1', 'C', 50.0)" in e and "drop-blocks" in e for e in errors), errors


def _run_figure(folder):
    from ui.sections import run_figure

    run_figure.show_run_figure(folder)


def test_the_experiment_pages_run_figure_names_the_gap(tmp_path):
    """Check the Experiment page's figure of a run with a gap (e.g. a stopped
    run's results) is an st.error naming the missing cell, not a traceback."""
    (tmp_path / "results.csv").write_bytes(_with_a_gap())
    at = AppTest.from_function(_run_figure, args=(str(tmp_path),)).run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    (error,) = at.error
    assert error.value.startswith("No average ranks for this run: ")
    assert "('d1', 'C', 50.0)" in error.value
