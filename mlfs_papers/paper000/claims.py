"""Paper 000's claims, each checked over the range the paper states it for.

Every claim is checked budget by budget (or pair by pair for
Table 6) with :func:`~mlfs_papers.compare.best_outcome` /
:func:`~mlfs_papers.compare.better_outcome`, and the outcomes give
the verdict by :func:`~mlfs_papers.compare.verdict` (agree: holds
at every stated budget; partly: at more than half; tie: never contradicted
but tied; disagree otherwise). The same functions run on the paper's own
published tables, which shows what the rule makes of the paper's own numbers
(its Table 4 ties MaxBNS and MeanBNS at 30 %, for example).

Inputs are tidy rank tables (``budget_pct, method, mean``, Table 4 with
``measure``) and a Kuncheva matrix (methods x methods at 50 %).

The claims (section 4.2 of the paper):

1. Mean is the best CS aggregation up to 40 % and (2.) the best BNS
   aggregation up to 50 %.
3. Max is the best CS aggregation above 40 % (50-90 %).
4. RaR is the best BNS aggregation above 50 % (60-80 %), RoR at 90 %.
5. MaxCS and MeanCS are the best methods of Table 5 (the best method of each
   budget is one of them; a tie with another method is a tie).
6. MaxCS and MeanCS are better ranked than RFS and AF (all four comparisons
   at each budget).
7. The Table 6 pairs above 0.7 (MaxBNS/RoRBNS, MaxBNS/RaRBNS, RoRBNS/RaRBNS,
   MaxCS/MeanCS, MaxCS/RoRCS, RoRCS/RaRCS) are above 0.7.
8. MeanBNS is unlike the other BNS methods: its index with each of them is
   below every index among them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from mlfs_core.columns import BUDGET_PCT, MEAN, METHOD

from ..compare import Verdict, best_outcome, better_outcome, verdict

HIGH_PAIRS = (
    ("MaxBNS", "RoRBNS"),
    ("MaxBNS", "RaRBNS"),
    ("RoRBNS", "RaRBNS"),
    ("MaxCS", "MeanCS"),
    ("MaxCS", "RoRCS"),
    ("RoRCS", "RaRCS"),
)
LOW, HIGH = (10.0, 20.0, 30.0, 40.0, 50.0), (50.0, 60.0, 70.0, 80.0, 90.0)


def _means(ranks: pd.DataFrame, budget: float, measure: str | None = None) -> pd.Series:
    rows = ranks[np.isclose(ranks[BUDGET_PCT].astype(float), budget)]
    if measure is not None:
        rows = rows[rows["measure"] == measure]
    return rows.set_index(METHOD)[MEAN].astype(float)


def _row(claim: str, stated: str, labels: Sequence[str], outcomes: list[str]) -> dict:
    v: Verdict = verdict(outcomes)
    return {
        "claim": claim,
        "stated": stated,
        "verdict": v.verdict,
        "holds": v.holds,
        "ties": v.ties,
        "fails": v.fails,
        "outcomes": ", ".join(f"{lab}: {o}" for lab, o in zip(labels, outcomes)),
    }


def _pct(budgets: Sequence[float]) -> list[str]:
    return [f"{b:g}%" for b in budgets]


def _best_claims(table4: pd.DataFrame) -> list[dict]:
    specs = [
        ("Mean is the best CS aggregation", "CS", dict.fromkeys(LOW[:4], "MeanCS")),
        ("Mean is the best BNS aggregation", "BNS", dict.fromkeys(LOW, "MeanBNS")),
        ("Max is the best CS aggregation", "CS", dict.fromkeys(HIGH, "MaxCS")),
        (
            "RaR is the best BNS aggregation (RoR at 90%)",
            "BNS",
            {60.0: "RaRBNS", 70.0: "RaRBNS", 80.0: "RaRBNS", 90.0: "RoRBNS"},
        ),
    ]
    rows = []
    for text, measure, claimed in specs:
        budgets = list(claimed)
        outcomes = [
            best_outcome(_means(table4, b, measure), claimed[b]) for b in budgets
        ]
        stated = f"{budgets[0]:g}-{budgets[-1]:g}%"
        rows.append(_row(text, stated, _pct(budgets), outcomes))
    return rows


def _best_of_two(means: pd.Series, pair: set[str]) -> str:
    low = means.min()
    best = set(means.index[np.isclose(means, low, rtol=0, atol=1e-9)])
    if best <= pair:
        return "holds"
    return "tie" if best & pair else "fails"


def _all_better(means: pd.Series, winners: Sequence[str], losers: Sequence[str]) -> str:
    outcomes = {better_outcome(means[w], means[lo]) for w in winners for lo in losers}
    if "fails" in outcomes:
        return "fails"
    return "tie" if "tie" in outcomes else "holds"


def _table5_claims(table5: pd.DataFrame) -> list[dict]:
    budgets = sorted(table5[BUDGET_PCT].astype(float).unique())
    best = [_best_of_two(_means(table5, b), {"MaxCS", "MeanCS"}) for b in budgets]
    better = [
        _all_better(_means(table5, b), ("MaxCS", "MeanCS"), ("RFS", "AF"))
        for b in budgets
    ]
    stated = f"{budgets[0]:g}-{budgets[-1]:g}%"
    return [
        _row(
            "MaxCS and MeanCS are the best methods (Table 5)",
            stated,
            _pct(budgets),
            best,
        ),
        _row("MaxCS and MeanCS beat RFS and AF", stated, _pct(budgets), better),
    ]


def _similarity_claims(similarity: pd.DataFrame) -> list[dict]:
    labels = [f"{a}/{b}" for a, b in HIGH_PAIRS]
    high = ["holds" if similarity.loc[a, b] > 0.7 else "fails" for a, b in HIGH_PAIRS]
    others = ["MaxBNS", "RoRBNS", "RaRBNS"]
    among = min(similarity.loc[a, b] for a in others for b in others if a != b)
    mean_vs = [similarity.loc["MeanBNS", m] for m in others]
    unlike = [better_outcome(v, among) for v in mean_vs]
    return [
        _row("The Table 6 pairs above 0.7 are above 0.7", "6 pairs, 50%", labels, high),
        _row(
            "MeanBNS is unlike the other BNS methods",
            "50%",
            [f"MeanBNS/{m} < {among:.2f}" for m in others],
            unlike,
        ),
    ]


def paper000_claims(
    table4: pd.DataFrame, table5: pd.DataFrame, similarity: pd.DataFrame
) -> pd.DataFrame:
    """Every claim of paper 000 over its stated range, with the verdict.

    Parameters
    ----------
    table4 : DataFrame
        ``measure, budget_pct, method, mean`` of the 8 aggregations.
    table5 : DataFrame
        ``budget_pct, method, mean`` of MeanBNS, RaRBNS, MaxCS, MeanCS, RFS, AF
        (the paper's labels: RFS is the engine's ``Random``,
        :data:`~mlfs_papers.paper000.published.PAPER_LABELS`).
    similarity : DataFrame
        Kuncheva's index at 50 %, methods x methods (both orders filled).

    Returns
    -------
    DataFrame
        One row per claim: ``claim, stated, verdict, holds, ties, fails,
        outcomes`` (the per-budget or per-pair outcomes as text).
    """
    rows = (
        _best_claims(table4) + _table5_claims(table5) + _similarity_claims(similarity)
    )
    return pd.DataFrame(rows)
