"""Tests of mlfs_core.evaluation.io (results and selections readers)."""

from __future__ import annotations

import gzip
import io

import numpy as np
import pytest

from mlfs_core.data.bundled import SAMPLE_DIR
from mlfs_core.errors import MLFSError
from mlfs_core.evaluation import read_results, read_selections

from ...fresh import imported_after

SAMPLE_RESULTS = SAMPLE_DIR / "results"  # the bundled sample's precomputed results
RESULTS_CSV = (
    "dataset,protocol,method,budget,fold,repeat,metric,value\n"
    "d,A,MaxCS,2,0,0,micro_f1,0.5\n"
    "d,A,Random,2,0,0,micro_f1,0.25\n"
)
SELECTIONS_CSV = (
    "dataset,method,fold,repeat,n_features,features\n"
    "d,MaxCS,0,0,5,3 1 4\n"
    "d,Random,0,0,5,\n"
)


def test_read_results_reads_values_as_written(tmp_path):
    """Check that a valid results CSV comes back with its rows and numeric values."""
    path = tmp_path / "results.csv"
    path.write_text(RESULTS_CSV)
    table = read_results(path)
    assert table["method"].tolist() == ["MaxCS", "Random"]
    assert table["value"].tolist() == [0.5, 0.25]


def test_read_results_reads_gzip_by_extension(tmp_path):
    """Check that results.csv.gz (as the study folders hold) is decompressed."""
    path = tmp_path / "results.csv.gz"
    path.write_bytes(gzip.compress(RESULTS_CSV.encode()))
    assert read_results(path)["value"].sum() == pytest.approx(0.75)


def test_read_results_accepts_budget_pct_instead_of_budget():
    """Check that a table with only budget_pct is accepted."""
    text = "dataset,method,budget_pct,metric,value\nd,M,10.0,micro_f1,0.5\n"
    assert read_results(io.StringIO(text))["budget_pct"].tolist() == [10.0]


@pytest.mark.parametrize(
    ("reader", "header", "missing"),
    [
        (read_results, "dataset,method,value", "metric, budget"),
        (read_selections, "dataset,fold", "method, features"),
    ],
)
def test_readers_name_file_and_every_missing_column(tmp_path, reader, header, missing):
    """Check that the error names the file and each missing column (budget too)."""
    path = tmp_path / "mine.csv"
    path.write_text(header + "\nd,0\n")
    message = rf"^mine\.csv lacks the column\(s\) {missing}$"
    with pytest.raises(MLFSError, match=message):
        reader(path)


def test_read_results_rejects_non_numeric_values(tmp_path):
    """Check that a text value column is reported with the file name."""
    path = tmp_path / "bad.csv"
    path.write_text("dataset,method,budget,metric,value\nd,M,1,micro_f1,high\n")
    with pytest.raises(MLFSError, match="bad.csv: the value column is not numeric"):
        read_results(path)


@pytest.mark.parametrize("reader", [read_results, read_selections])
def test_readers_report_missing_and_empty_files(tmp_path, reader):
    """Check that a missing or empty file raises MLFSError naming it."""
    with pytest.raises(MLFSError, match="nothere.csv is not a readable CSV"):
        reader(tmp_path / "nothere.csv")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(MLFSError, match="empty.csv is not a readable CSV"):
        reader(empty)


def test_read_selections_parses_indices_and_empty_cells(tmp_path):
    """Check that features become int arrays, an empty cell an empty array."""
    path = tmp_path / "selections.csv"
    path.write_text(SELECTIONS_CSV)
    table = read_selections(path)
    assert [f.tolist() for f in table["features"]] == [[3, 1, 4], []]
    assert table["features"].iloc[0].dtype == np.int64
    assert table["n_features"].tolist() == [5, 5]


def test_read_selections_single_index_cells_stay_arrays():
    """Check that one index per row (a column pandas would read as int) still parses."""
    text = "dataset,method,features\nd,A,7\nd,B,2\n"
    table = read_selections(io.StringIO(text))
    assert [f.tolist() for f in table["features"]] == [[7], [2]]


def test_read_selections_reads_gzip_by_extension(tmp_path):
    """Check that selections.csv.gz is decompressed."""
    path = tmp_path / "selections.csv.gz"
    path.write_bytes(gzip.compress(SELECTIONS_CSV.encode()))
    assert read_selections(path)["features"].iloc[0].tolist() == [3, 1, 4]


def test_read_selections_rejects_non_integer_indices(tmp_path):
    """Check that a features cell with text is reported with file and line."""
    path = tmp_path / "sel.csv"
    path.write_text("dataset,method,features\nd,A,1 2\nd,B,3 x\n")
    with pytest.raises(MLFSError, match="sel.csv, line 3: features must hold"):
        read_selections(path)


@pytest.mark.parametrize(
    "cells",
    [
        ["5 0 3", "", "2", "-1 +4", "1 2 3 4"],  # one parse of the whole column
        ["5 0 3", "1  2", " 7", "8 "],  # odd spacing: cell by cell
        ["", ""],
    ],
)
def test_read_selections_column_parse_equals_the_cell_by_cell_parse(cells):
    """Check that every cell gives the int64 array of its own split, however
    the column is parsed (one pass over the joined cells, or cell by cell)."""
    rows = "".join(f"d,M{i},{cell}\n" for i, cell in enumerate(cells))
    table = read_selections(io.StringIO("dataset,method,features\n" + rows))
    expected = [np.array(c.split(), dtype=np.int64) for c in cells]
    assert len(table) == len(cells)
    for got, want in zip(table["features"], expected, strict=True):
        assert got.dtype == np.int64 and got.tolist() == want.tolist()


def test_read_selections_rejects_a_dash_between_indices(tmp_path):
    """Check that "1-2" (only digits and signs, yet no integer) is reported."""
    path = tmp_path / "sel.csv"
    path.write_text("dataset,method,features\nd,A,1 2\nd,B,1-2\n")
    with pytest.raises(MLFSError, match="sel.csv, line 3: features must hold"):
        read_selections(path)


@pytest.mark.parametrize("protocol", ["protocol_a", "protocol_b"])
def test_readers_read_the_shipped_sample_results(protocol):
    """Check that the sample results and selections read and agree on methods."""
    folder = SAMPLE_RESULTS / protocol
    results = read_results(folder / "results.csv")
    selections = read_selections(folder / "selections.csv")
    assert set(selections["method"]) <= set(results["method"])
    first = selections["features"].iloc[0]
    assert first.size == len(set(first.tolist())) > 0


def test_io_module_does_not_import_scikit_learn():
    """Check that importing the readers leaves scikit-learn unimported."""
    code = "from mlfs_core.evaluation import read_results, read_selections"
    assert imported_after(code, ["sklearn"]) == []
