"""Analysis refuses what it cannot compare: one cell twice with different values,
or rows of several protocols, unless the user says how to combine them; the
app's analysis pages show the same message with st.error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from mlfs_core.analysis import average_ranks, dataset_means, select
from mlfs_core.errors import ConflictingCellsError, MixedTableError

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _table(n_datasets: int = 3, protocol: str = "A") -> pd.DataFrame:
    """Tidy results: A > B > C on every dataset, two budgets, two folds."""
    rows = []
    for d in range(n_datasets):
        for method, q in {"A": 0.8, "B": 0.6, "C": 0.4}.items():
            for pct in (10, 50):
                for fold in (0, 1):
                    value = q + 0.01 * d + 0.001 * fold
                    row = (f"d{d}", protocol, method, pct, float(pct), fold, 0)
                    rows.append((*row, "micro_f1", value))
    columns = "dataset protocol method budget budget_pct fold repeat metric value"
    return pd.DataFrame(rows, columns=columns.split())


def _conflicting() -> pd.DataFrame:
    """_table plus a second row for C on d1 at 50 %, fold 0, far above A."""
    t = _table()
    extra = t[(t.dataset == "d1") & (t.method == "C") & (t.budget == 50)]
    extra = extra[extra.fold == 0].assign(value=0.99)
    return pd.concat([t, extra], ignore_index=True)


def test_a_cell_with_two_values_is_refused_by_name():
    """Check select names the duplicated cell (every identity column) and both
    values, and says how to average instead."""
    with pytest.raises(ConflictingCellsError) as info:
        select(_conflicting(), metric="micro_f1", over_budgets="mean")
    text = str(info.value)
    assert "1 cell(s)" in text
    assert "dataset='d1'" in text and "method='C'" in text and "fold=0" in text
    assert "budget=50" in text and "metric='micro_f1'" in text
    assert "0.99" in text and "0.41" in text
    assert "duplicates='mean'" in text
    assert info.value.cells == [("d1", "A", "C", 50, 50.0, 0, 0, "micro_f1")]


def test_many_conflicts_name_the_first_three_and_count_the_rest():
    """Check a table appended to an edited copy of itself names three cells and
    how many more there are."""
    t = _table()
    both = pd.concat([t, t.assign(value=t.value + 0.5)], ignore_index=True)
    with pytest.raises(ConflictingCellsError, match=r"36 cell\(s\).*\(33 more\)"):
        select(both, metric="micro_f1", budget=10.0)


def test_every_analysis_built_on_select_refuses():
    """Check the rank-based analyses and dataset_means refuse the same table."""
    with pytest.raises(ConflictingCellsError, match="dataset_means: 1 cell"):
        dataset_means(_conflicting())
    with pytest.raises(ConflictingCellsError, match="select: 1 cell"):
        average_ranks(select(_conflicting(), metric="micro_f1", by=["budget_pct"]))


def test_duplicates_mean_averages_each_cell_first():
    """Check duplicates='mean' against a plain computation: the conflicting cell
    becomes the mean of its two values, then folds and budgets are averaged."""
    got = select(
        _conflicting(), metric="micro_f1", over_budgets="mean", duplicates="mean"
    ).table
    cell = 0.5 * (0.4 + 0.01 + 0.99)  # C on d1 at 50 %, fold 0
    fold1 = 0.4 + 0.01 + 0.001
    at_50 = (cell + fold1) / 2
    at_10 = ((0.4 + 0.01) + (0.4 + 0.01 + 0.001)) / 2
    row = got[(got.dataset == "d1") & (got.method == "C")]
    assert row.value.item() == pytest.approx((at_10 + at_50) / 2, abs=1e-15)
    assert len(got) == 9


def test_exact_repeats_are_kept_once():
    """Check a table concatenated with itself (equal values) gives the same
    selection as the table, and a partly repeated one does not weigh the
    repeated fold twice."""
    t = _table()
    once = select(t, metric="micro_f1", over_budgets="mean").table
    twice = select(pd.concat([t, t]), metric="micro_f1", over_budgets="mean").table
    pd.testing.assert_frame_equal(once, twice)
    part = pd.concat([t, t[t.fold == 1]])
    got = select(part, metric="micro_f1", over_budgets="mean").table
    np.testing.assert_array_equal(got.value.to_numpy(), once.value.to_numpy())


def test_a_table_without_folds_keeps_its_repetitions():
    """Check rows without a fold or repeat column stay unlabelled repetitions."""
    t = pd.DataFrame(
        {"dataset": "d", "method": ["X", "X", "Y"], "value": [0.1, 0.3, 0.2]}
    )
    got = select(t, higher_is_better=True).table
    assert len(got) == 3


def test_mixed_protocols_are_refused_unless_allowed():
    """Check a table of protocols A and B is refused with both named, and
    mix='allow' ranks it (each protocol's row its own cell, no conflict)."""
    both = pd.concat([_table(protocol="A"), _table(protocol="B")], ignore_index=True)
    with pytest.raises(MixedTableError) as info:
        select(both, metric="micro_f1", over_budgets="mean")
    text = str(info.value)
    assert "mixes 2 protocol values" in text and "'A': 36 rows" in text
    assert "'B': 36 rows" in text and "mix='allow'" in text
    got = select(both, metric="micro_f1", over_budgets="mean", mix="allow")
    assert list(average_ranks(got).index) == ["A", "B", "C"]


def test_mixed_classifiers_are_refused():
    """Check a combined table's classifier column is a setting like protocol."""
    t = _table()
    t["classifier"] = np.where(t.fold == 0, "mlknn", "linear_svc")
    with pytest.raises(MixedTableError, match="2 classifier values"):
        select(t, metric="micro_f1", over_budgets="mean")


def test_unknown_options_are_refused():
    """Check duplicates= and mix= take only their documented values."""
    with pytest.raises(ValueError, match="duplicates='first' is not one of"):
        select(_table(), metric="micro_f1", budget=10.0, duplicates="first")
    with pytest.raises(ValueError, match="mix='yes' is not one of"):
        select(_table(), metric="micro_f1", budget=10.0, mix="yes")


def _selections(conflicting: bool = False) -> bytes:
    """Rankings of 20 features for _table; with ``conflicting``, B's ranking on
    d2, fold 1 twice: the second one reversed."""
    rows = ["dataset,method,fold,repeat,n_features,features"]
    for d in range(3):
        for method in "ABC":
            for fold in (0, 1):
                rows.append(
                    f"d{d},{method},{fold},0,20,{' '.join(map(str, range(20)))}"
                )
    if conflicting:
        rows.append(f"d2,B,1,0,20,{' '.join(map(str, range(19, -1, -1)))}")
    return ("\n".join(rows) + "\n").encode()


@pytest.mark.parametrize("page", ["average_ranks", "budget"])
def test_the_analysis_pages_show_the_message(page):
    """Check each analysis page, given an uploaded table with a conflicting
    cell, shows select's message with st.error and raises nothing."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    data = _conflicting().to_csv(index=False).encode()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", data, "text/csv")
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert any(
        "1 cell(s) of the table hold different values" in e and "method='C'" in e
        for e in errors
    ), errors


def test_the_similarity_page_names_a_ranking_given_twice():
    """Check the Similarity page, given selections holding one ranking twice with
    different features, names it in an st.error instead of keeping the last."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/similarity.py").run()
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", _table().to_csv(index=False).encode(), "text/csv")
    ).run()
    at.file_uploader(key="selections_upload").set_value(
        ("selections.csv", _selections(conflicting=True), "text/csv")
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert any(
        "1 ranking(s) of the table are given in several rows" in e
        and "(dataset='d2', method='B', fold=1, repeat=0)" in e
        for e in errors
    ), errors


def test_similarity_matrix_refuses_a_ranking_given_twice():
    """Check similarity_matrix keeps an exact repeat once (the same matrix) and
    refuses two different rankings of one (dataset, method, fold, repeat)."""
    from mlfs_core.analysis import similarity_matrix
    from mlfs_core.evaluation.io import read_selections

    table = read_selections(io_bytes(_selections()))
    once = similarity_matrix(table, budget=5)
    twice = similarity_matrix(pd.concat([table, table.iloc[:4]]), budget=5)
    pd.testing.assert_frame_equal(once, twice)
    with pytest.raises(ConflictingCellsError) as info:
        similarity_matrix(read_selections(io_bytes(_selections(True))), budget=5)
    assert info.value.cells == [("d2", "B", 1, 0)]


def io_bytes(data: bytes):
    import io

    return io.BytesIO(data)
