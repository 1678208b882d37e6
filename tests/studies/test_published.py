"""Paper 000's published tables (studies/paper000/published.csv) against the paper text.

Every printed row is rebuilt from the CSV and searched for in the extracted paper,
so a mistyped cell fails; the tables' own arithmetic is checked too.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from mlfs_papers.paper000.app import published_cells


@pytest.fixture(scope="module")
def published() -> pd.DataFrame:
    return published_cells()  # as the app reads them


@pytest.fixture(scope="module")
def paper000(paper_text) -> str:
    return paper_text("000")


def _cells(published: pd.DataFrame, table: int) -> pd.DataFrame:
    return published[published["table"] == str(table)]


def test_table3_every_row_is_in_the_paper_text(published, paper000):
    t3 = _cells(published, 3)
    assert t3["row"].nunique() == 20
    for row, cells in t3.groupby("row", sort=False):
        numbers = " ".join(
            cells.set_index("statistic").loc[["N", "M", "q", "LC", "LD", "DC"], "value"]
        )
        mark = {"Mulan": "3", "Meka": "4"}[cells["source"].iloc[0]]
        name = re.escape(row)
        pattern = rf"(?:{mark} {name}|{name}{mark}) {re.escape(numbers)}(?!\d)"
        assert re.search(pattern, paper000), f"Table 3 row {row!r}: {numbers}"


def test_table3_keeps_enrons_printed_lc(published):
    t3 = _cells(published, 3).set_index(["row", "statistic"])["value"]
    assert t3[("enron", "LC")] == "5.31"
    assert t3[("language log", "N")] == "13929"


def _rank_rows(cells: pd.DataFrame) -> dict[str, str]:
    rows = {}
    for row, sub in cells.groupby("row", sort=False):
        wide = sub.pivot(index="column", columns="statistic", values="value")
        order = list(dict.fromkeys(sub["column"]))
        rows[row] = " ".join(
            f"{wide.loc[c, 'mean']} ({wide.loc[c, 'std']})" for c in order
        )
    return rows


@pytest.mark.parametrize("table, n_methods", [(4, 8), (5, 6)])
def test_rank_tables_every_row_is_in_the_paper_text(
    published, paper000, table, n_methods
):
    cells = _cells(published, table)
    rows = _rank_rows(cells)
    assert list(rows) == [f"{b}%" for b in range(10, 100, 10)]
    for row, text in rows.items():
        assert text.count("(") == n_methods
        assert f"{row} {text} " in paper000, f"Table {table} row {row}: {text}"


def test_rank_means_add_up_to_the_rank_total(published):
    # Ranks 1..m average to (m + 1) / 2, so the means of a row add up to m(m+1)/2
    # (up to the printed rounding of each cell).
    t4 = _cells(published, 4).query("statistic == 'mean'").astype({"value": float})
    sums4 = t4.groupby(["budget_pct", "measure"])["value"].sum()
    np.testing.assert_allclose(sums4, 10.0, atol=0.015)
    t5 = _cells(published, 5).query("statistic == 'mean'").astype({"value": float})
    np.testing.assert_allclose(
        t5.groupby("budget_pct")["value"].sum(), 21.0, atol=0.015
    )


def test_table6_rows_are_in_the_paper_text_and_symmetric(published, paper000):
    t6 = _cells(published, 6)
    body = " ".join(
        cells["row"].iloc[0] + " " + " ".join(cells["value"])
        for _, cells in t6.groupby("method", sort=False)
    )
    assert body in paper000
    wide = t6.pivot(index="method", columns="other_method", values="value").astype(
        float
    )
    assert wide.shape == (8, 8)
    np.testing.assert_array_equal(wide.to_numpy(), wide.T.loc[wide.index, wide.columns])
    assert wide.loc["RoRBNS", "RaRBNS"] == 0.82
