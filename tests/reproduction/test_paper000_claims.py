"""Paper 000's claims over their stated ranges, with the verdict rule."""

from __future__ import annotations

import pandas as pd
import pytest

from mlfs_papers.paper000.app import published_cells
from mlfs_papers.paper000.claims import HIGH_PAIRS, paper000_claims

from ..built_in_methods import SCORE_AGGREGATION


@pytest.fixture(scope="module")
def published():
    p = published_cells()
    means = p[p["statistic"] == "mean"].assign(
        budget_pct=lambda d: d["budget_pct"].astype(float),
        mean=lambda d: d["value"].astype(float),
    )
    t6 = p[p["table"] == "6"].assign(value=lambda d: d["value"].astype(float))
    sim = t6.pivot(index="method", columns="other_method", values="value")
    return means[means["table"] == "4"], means[means["table"] == "5"], sim


def test_the_papers_own_tables_under_the_rule(published):
    out = paper000_claims(*published).set_index("claim")
    # Table 4 ties MaxBNS and MeanBNS at 30 %: 4 of 5 stated budgets hold.
    bns = out.loc["Mean is the best BNS aggregation"]
    assert (bns["verdict"], bns["holds"], bns["ties"]) == ("partly", 4, 1)
    assert "30%: tie" in bns["outcomes"]
    # Table 5: AF (2.55) is ranked above MaxCS (3.10) at 10 %.
    beat = out.loc["MaxCS and MeanCS beat RFS and AF"]
    assert (beat["verdict"], beat["fails"]) == ("partly", 1)
    assert beat["outcomes"].startswith("10%: fails")
    others = out.drop(index=[bns.name, beat.name])
    assert set(others["verdict"]) == {"agree"}
    assert out.loc["Mean is the best CS aggregation", "stated"] == "10-40%"


def _reversed(published):
    t4, t5, sim = published
    flip4 = t4.assign(mean=5.0 - t4["mean"])
    flip5 = t5.assign(mean=7.0 - t5["mean"])
    return flip4, flip5, 1.0 - sim


def test_planted_opposite_tables_disagree(published):
    out = paper000_claims(*_reversed(published)).set_index("claim")
    for claim in (
        "Mean is the best CS aggregation",
        "Max is the best CS aggregation",
        "The Table 6 pairs above 0.7 are above 0.7",
        "MeanBNS is unlike the other BNS methods",
    ):
        assert out.loc[claim, "verdict"] == "disagree", claim


def test_all_tied_tables_give_tie_where_nothing_fails():
    budgets = [float(b) for b in range(10, 100, 10)]
    t4 = pd.DataFrame(
        [
            {
                "measure": m[-3:] if m.endswith("BNS") else "CS",
                "budget_pct": b,
                "method": m,
                "mean": 2.5,
            }
            for b in budgets
            for m in SCORE_AGGREGATION
        ]
    )
    t5 = pd.DataFrame(
        [
            {"budget_pct": b, "method": m, "mean": 3.5}
            for b in budgets
            for m in ["MeanBNS", "RaRBNS", "MaxCS", "MeanCS", "RFS", "AF"]
        ]
    )
    sim = pd.DataFrame(0.8, index=SCORE_AGGREGATION, columns=SCORE_AGGREGATION)
    out = paper000_claims(t4, t5, sim).set_index("claim")
    assert out.loc["Mean is the best BNS aggregation", "verdict"] == "tie"
    assert out.loc["MaxCS and MeanCS beat RFS and AF", "verdict"] == "tie"
    assert out.loc["The Table 6 pairs above 0.7 are above 0.7", "holds"] == len(
        HIGH_PAIRS
    )
