"""Text written out is escaped: names in Markdown never become markup, formula-like
text cells in CSV never become formulas, and ARFF's quoted escapes read as Weka
reads them."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

from mlfs_core.data import load_dataset
from mlfs_core.evaluation.io import (
    escape_csv_text,
    read_results,
    read_selections,
    unescape_csv_text,
)
from mlfs_core.evaluation.outputs import write_table
from mlfs_core.report import markdown_table
from mlfs_core.report._summary import markdown_text

EVIL = "=cmd|' /C calc'!A0"


def test_a_newline_in_the_experiment_name_makes_no_heading(tmp_path, helpers):
    """Check `mlfs experiment` with a name holding newlines, a heading and HTML:
    summary.md and README.md show it on the title line, escaped."""
    config = helpers.FAST_CONFIG.replace(
        'name = "fast"', 'name = "fast\\n# Owned\\n<script>x</script> | cell"'
    )
    path = tmp_path / "evil.toml"
    path.write_text(config)
    proc = helpers.mlfs("experiment", path, "--out", tmp_path / "out")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    for name in ("summary.md", "README.md"):
        text = (tmp_path / "out" / name).read_text()
        lines = text.splitlines()
        assert not any(line.startswith("# Owned") for line in lines), name
        assert "<script>" not in text, name
        title = next(line for line in lines if "fast" in line)
        assert title.endswith("fast\\n# Owned\\n\\<script\\>x\\</script\\> \\| cell"), (
            title
        )


def test_markdown_text_escapes_what_markdown_would_read_as_markup():
    """Check each special character against the plain rule: line breaks become
    the characters \\n (\\r), other separators a space, \\ ` [ ] < > | get a
    backslash, the rest is unchanged."""
    text = "a\nb\rc\u2028d\\e`f[g]h<i>j|k*l_m#n"
    expected = "a\\nb\\rc d\\\\e\\`f\\[g\\]h\\<i\\>j\\|k*l_m#n"
    assert markdown_text(text) == expected
    table = pd.DataFrame({"method": ["x|y\n## z"], "value": [0.5]})
    rows = markdown_table(table).splitlines()
    assert rows[2] == "| x\\|y\\n## z | 0.5 |"
    assert len(rows) == 3


def test_formula_like_cells_are_escaped_and_read_back(tmp_path):
    """Check OWASP's rule on a written table: text cells starting with = + - @
    tab or CR get a leading quote, numbers and number-like text do not, and
    the readers give every name back exactly."""
    table = pd.DataFrame(
        {
            "dataset": [EVIL, "+x", "-y", "@z", "\tt", "plain", "'quoted"],
            "method": ["M", "M", "M", "M", "M", "-1.5", "M"],
            "budget": [-1, 2, 3, 4, 5, 6, 7],
            "metric": "micro_f1",
            "value": [-0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        }
    )
    path = write_table(table, tmp_path / "results.csv")
    cells = list(csv.reader(io.StringIO(path.read_text())))
    assert [row[0] for row in cells[1:]] == [
        "'" + EVIL,
        "'+x",
        "'-y",
        "'@z",
        "'\tt",
        "plain",
        "''quoted",
    ]
    assert cells[6][1] == "-1.5" and cells[1][2] == "-1" and cells[1][4] == "-0.5"
    back = read_results(path)
    pd.testing.assert_frame_equal(back, table, check_dtype=False)
    gz = write_table(table, tmp_path / "results.csv.gz")
    pd.testing.assert_frame_equal(read_results(gz), table, check_dtype=False)


def test_feature_names_in_selections_are_escaped(tmp_path):
    """Check the selections' names column (what `mlfs experiment` writes) when
    the best feature is named like a formula."""
    table = pd.DataFrame(
        {
            "dataset": ["d"],
            "method": ["M"],
            "fold": [0],
            "features": ["1 0"],
            "feature_names": [f"{EVIL}|b"],
        }
    )
    path = write_table(table, tmp_path / "selections.csv")
    assert f"'{EVIL}|b" in path.read_text()
    back = read_selections(path)
    assert back["feature_names"].tolist() == [f"{EVIL}|b"]


def test_mlfs_rank_escapes_feature_names(tmp_path, helpers):
    """Check `mlfs rank`'s CSV (to a file and to stdout) escapes a formula-like
    feature name and leaves the scores as numbers."""
    data = tmp_path / "evil.csv"
    data.write_text(f'"{EVIL}",b,y\n1,0,1\n1,0,1\n0,1,0\n0,0,0\n')
    proc = helpers.mlfs("rank", data, "--label-count", "-1", "--method", "MaxCS")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    names = {row[2]: row for row in rows[1:]}
    assert "'" + EVIL in names and EVIL not in names
    assert float(names["'" + EVIL][3]) >= 0  # the score stays a number


def test_escaping_touches_only_text():
    """Check numbers, NaN and non-text cells pass unchanged, and a table with
    nothing to escape is returned as it is."""
    table = pd.DataFrame({"a": [-1.0, float("nan")], "b": [None, "-2e3"]})
    assert escape_csv_text(table) is table
    assert unescape_csv_text(table) is table


@pytest.mark.parametrize(
    ("quoted", "expected"),
    [
        ("'a\\tb'", "a\tb"),
        ("'a\\nb'", "a\nb"),
        ("'a\\rb'", "a\rb"),
        ("'Swainson\\'s'", "Swainson's"),
        ("'back\\\\slash'", "back\\slash"),
        ("'x\\%y'", "x%y"),
    ],
)
def test_arff_quoted_escapes_read_as_weka_reads_them(tmp_path, quoted, expected):
    """Check an ARFF attribute name's backslash escapes: \\t a tab (not t), \\n a
    newline, \\r a carriage return; any other escaped character itself."""
    path = tmp_path / "esc.arff"
    path.write_text(
        f"@relation r\n@attribute {quoted} numeric\n@attribute y {{0,1}}\n"
        "@data\n1,1\n0,0\n"
    )
    assert load_dataset(path, label_count=-1).feature_names == [expected]
