"""Planted study 1 data: results where a chosen ranking holds at each budget.

:func:`paper_story` is paper 000's story (what its claims state), so the claims
agree on results planted from it; :func:`max_at_40` breaks one claim at one
budget.
"""

from __future__ import annotations

import pandas as pd

from studies import data as report_data

PCTS = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0]
# Paper 000's similar groups: the CS aggregations, and BNS's but Mean.
PAPER_GROUPS = [["MaxCS", "MeanCS", "RoRCS", "RaRCS"], ["MaxBNS", "RoRBNS", "RaRBNS"]]


def report_methods() -> list[str]:
    """Study 1's methods in the report's order."""
    return report_data.CS + report_data.BNS + ["Random", "AF"]


def paper_story(pct: float) -> list[str]:
    """Paper 000's story: Mean best up to 40/50 %, then Max (CS) and RaR/RoR (BNS)."""
    if pct <= 40:
        return ["MeanCS", "MaxCS", "MeanBNS"]
    if pct == 50:
        return ["MaxCS", "MeanCS", "MeanBNS"]
    return ["MaxCS", "MeanCS", "RoRBNS" if pct == 90 else "RaRBNS"]


def max_at_40(pct: float) -> list[str]:
    """The story, except that Max beats Mean (CS) at 40 %."""
    return ["MaxCS", "MeanCS", "MeanBNS"] if pct == 40 else paper_story(pct)


def planted_results(best, datasets, metrics=("micro_f1",)) -> pd.DataFrame:
    """Protocol A results, two folds, where ``best(pct)`` (best first) beat every
    other method at each budget of :data:`PCTS`; AF once, at all features."""
    rows = []
    for dataset in datasets:
        for pct in PCTS:
            order = best(pct)
            for fold in range(2):
                for i, m in enumerate(report_methods()):
                    if m == "AF" and pct != 10.0:
                        continue  # AF is evaluated once, at all features
                    score = 0.9 - 0.1 * order.index(m) if m in order else 0.3 - 0.01 * i
                    af = m == "AF"
                    rows += [
                        {
                            "dataset": dataset,
                            "protocol": "A",
                            "method": m,
                            "budget": 100 if af else int(pct),
                            "budget_pct": 100.0 if af else pct,
                            "fold": fold,
                            "metric": metric,
                            "value": score,
                        }
                        for metric in metrics
                    ]
    return pd.DataFrame(rows)


def planted_similarity(groups, methods, high=0.8, low=0.1) -> pd.DataFrame:
    """Kuncheva of every pair of ``methods``: ``high`` within a group, else ``low``."""
    return pd.DataFrame(
        {
            "method_a": a,
            "method_b": b,
            "value": 1.0
            if a == b
            else (high if any(a in g and b in g for g in groups) else low),
        }
        for a in methods
        for b in methods
    )
