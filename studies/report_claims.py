"""The papers' claims checked against our results, and the report's summary.

Part of ``studies/report.py`` (see there). The statistics themselves live in
:mod:`mlfs_core.analysis`; here they are applied to the papers' method groups.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from report_data import (
    BNS,
    CS,
    IT_METHODS,
    TABLE5,
    TEXT_DATASETS,
    VARIANTS,
    mean_similarity,
)

from mlfs_core._constants import DATASET, MEAN, METHOD, METRIC
from mlfs_core.analysis import dataset_means, method_wins, rank_table, variant_ranks
from mlfs_core.evaluation import METRICS


@dataclass(frozen=True)
class Claim:
    """One claim of a paper, our verdict and the numbers behind it."""

    text: str
    verdict: str  # "agrees", "partly", "disagrees"
    evidence: str


# ---------------------------------------------------------------- paper 000
def group_ranks(results: pd.DataFrame, methods: list[str], metric: str) -> pd.DataFrame:
    """Average rank per budget among ``methods`` only (Tables 4 and 5 of paper 000)."""
    sub = results[results[METHOD].isin(methods)]
    hib = METRICS[metric].higher_is_better
    refs = tuple(m for m in ("AF",) if m in methods)
    return rank_table(sub, metric=metric, higher_is_better=hib, reference_methods=refs)


def _clearly_less(a: float, b: float) -> bool:
    """``a < b`` beyond floating-point noise (equal means do not support a claim)."""
    return bool(a < b and not np.isclose(a, b, rtol=1e-9, atol=1e-12))


def _verdict(all_hold: bool, some_hold: bool) -> str:
    return "agrees" if all_hold else ("partly" if some_hold else "disagrees")


def _mean_is_best(results: pd.DataFrame, metric: str) -> list[Claim]:
    """Claims 1-2: Mean is the best aggregation of each measure at 10 % and 20 %."""
    out = []
    low = [10.0, 20.0]
    for group, name in ((CS, "CS"), (BNS, "BNS")):
        r = group_ranks(results, group, metric)
        r = r[r["budget_pct"].isin(low)]
        best = r.loc[
            r.groupby("budget_pct")[MEAN].idxmin(), [METHOD, "budget_pct", MEAN]
        ]
        wins = (best[METHOD] == f"Mean{name}").sum()
        out.append(
            Claim(
                f"Mean is the best {name} aggregation at low percentages (10%, 20%)",
                _verdict(wins == len(low), bool(wins)),
                "best at "
                + ", ".join(
                    f"{b:.0f}%: {m} ({v:.2f})"
                    for m, b, v in best.itertuples(index=False)
                ),
            )
        )
    return out


def _table5_claims(results: pd.DataFrame, metric: str) -> list[Claim]:
    """Claims 3-4: MaxCS and MeanCS are the best overall, and beat RFS and AF."""
    r5 = group_ranks(results, TABLE5, metric)
    overall = r5.groupby(METHOD)[MEAN].mean().sort_values()
    top2 = set(overall.index[:2])
    cs2 = {"MaxCS", "MeanCS"}
    wide = r5.pivot(index="budget_pct", columns=METHOD, values=MEAN)
    beats = {
        (m, b): int((wide[m] < wide[b]).sum())
        for m in ("MaxCS", "MeanCS")
        for b in ("RFS", "AF")
    }
    n = len(wide)
    return [
        Claim(
            "MaxCS and MeanCS are the best methods overall (Table 5)",
            _verdict(top2 == cs2, bool(top2 & cs2)),
            "mean rank over budgets: "
            + ", ".join(f"{m} {v:.2f}" for m, v in overall.items()),
        ),
        Claim(
            "MaxCS and MeanCS beat RFS and AF",
            _verdict(all(v == n for v in beats.values()), any(beats.values())),
            "; ".join(
                f"{m} better-ranked than {b} at {v}/{n} budgets"
                for (m, b), v in beats.items()
            ),
        ),
    ]


def _similarity_claims(similarity: pd.DataFrame) -> list[Claim]:
    """Claims 5-6 (Table 6): CS unlike BNS; MeanBNS unlike the other BNS methods."""
    sim = mean_similarity(similarity)
    within = np.nanmean(
        [sim.loc[a, b] for g in (CS, BNS) for a in g for b in g if a < b]
    )
    across = np.nanmean([sim.loc[a, b] for a in CS for b in BNS])
    others = [m for m in BNS if m != "MeanBNS"]
    mean_vs = np.nanmean([sim.loc["MeanBNS", m] for m in others])
    among = np.nanmean([sim.loc[a, b] for a in others for b in others if a < b])
    return [
        Claim(
            "CS methods select different features than BNS methods (Table 6)",
            "agrees" if _clearly_less(across, within) else "disagrees",
            f"mean Kuncheva within a measure {within:.2f}, "
            f"across measures {across:.2f}",
        ),
        Claim(
            "MeanBNS selects unlike the other BNS methods",
            "agrees" if _clearly_less(mean_vs, among) else "disagrees",
            f"Kuncheva MeanBNS vs other BNS {mean_vs:.2f}; "
            f"among the other BNS {among:.2f}",
        ),
    ]


def claims_paper000(
    results: pd.DataFrame, similarity: pd.DataFrame, metric: str = "micro_f1"
) -> list[Claim]:
    """Check paper 000's claims against our results (six checks)."""
    return [
        *_mean_is_best(results, metric),
        *_table5_claims(results, metric),
        *_similarity_claims(similarity),
    ]


# ---------------------------------------------------------------- paper 001
def paper001_tables(results: pd.DataFrame) -> pd.DataFrame:
    """Per-dataset means over k = 1..50 of every metric (paper 001 Tables 3-8)."""
    return dataset_means(results)


def atr_wins(means: pd.DataFrame) -> pd.DataFrame:
    """Per metric: datasets on which ATR is best among the ten, and its average rank."""
    wins = method_wins(means, "ATR", IT_METHODS)
    return pd.DataFrame(
        {
            METRIC: wins[METRIC],
            "datasets": wins["n_datasets"],
            "ATR best on": wins["n_best"],
            "ATR avg rank": wins["avg_rank"],
            "best avg rank": [
                f"{m} ({v:.2f})"
                for m, v in zip(wins["best_method"], wins["best_avg_rank"])
            ],
        }
    )


def variant_effect(means: pd.DataFrame) -> pd.DataFrame:
    """Average rank of PMU/MDMR as defined vs as the reference code computes them."""
    ranks = variant_ranks(means, IT_METHODS, VARIANTS)
    return ranks.rename(columns={"avg_rank": "avg_rank_among_10"})


def variant_notes(means: pd.DataFrame) -> list[str]:
    """What the reference-code variants are, checked against the data."""
    wide = means.pivot_table(index=[DATASET, METRIC], columns=METHOD, values=MEAN)
    if not {"MDMR-ref", "D2F"} <= set(wide.columns):
        return []
    same = np.isclose(wide["MDMR-ref"], wide["D2F"], rtol=1e-12, atol=0)
    return [
        "The reference code's PMU sums its label-pair term over all ordered pairs, "
        "i = j included; its MDMR is D2F (METHODS.md): here MDMR-ref equals D2F in "
        f"{int(same.sum())} of {same.size} (dataset, metric) means, so on these data "
        "the published MDMR baseline was D2F.",
        "",
    ]


# ---------------------------------------------------------------- summary
_SAYS = {"agrees": "agree", "partly": "partly agree", "disagrees": "disagree"}


def _summary_paper000(data: dict) -> list[str]:
    res, sim = data["results"], data["similarity"]
    n = res[DATASET].nunique()
    text = res[res[DATASET].isin(TEXT_DATASETS)]
    lines = [
        f"Paper 000 ({n} datasets done, {text[DATASET].nunique()} of them text; "
        "micro-F1):",
        "",
    ]
    checks = claims_paper000(res, sim)
    text_checks = (
        claims_paper000(text, sim[sim[DATASET].isin(TEXT_DATASETS)])
        if text[DATASET].nunique()
        else [None] * len(checks)
    )
    for c, t in zip(checks, text_checks):
        extra = f"; text datasets {_SAYS[t.verdict]}" if t is not None else ""
        lines.append(f"- {c.text}: all datasets {_SAYS[c.verdict]}{extra}.")
    return lines + [""]


def _variant_span(ve: pd.DataFrame) -> str:
    span = ve.groupby(["method", "variant"])["avg_rank_among_10"].agg(["min", "max"])

    def one(m: str) -> str:
        d, r = span.loc[(m, "definition")], span.loc[(m, "reference-code")]
        return (
            f"{m} {d['min']:.1f}-{d['max']:.1f} as defined, "
            f"{r['min']:.1f}-{r['max']:.1f} as the ATR authors' code computes it"
        )

    return (
        "Reference-code baselines (average rank among the ten, range over the "
        "metrics): "
        + "; ".join(
            one(m) for m in ("MDMR", "PMU") if (m, "reference-code") in span.index
        )
        + "."
    )


def _summary_paper001(data: dict) -> list[str]:
    res = data["results"]
    means = paper001_tables(res)
    lines = [
        f"Paper 001 ({res[DATASET].nunique()} datasets done; 'ATR performs best'):",
        "",
    ]
    for row in atr_wins(means).itertuples(index=False):
        lines.append(
            f"- {row.metric}: ATR best on {row[2]} of {row.datasets} datasets, average "
            f"rank {row[3]:.2f}; best average rank {row[4]}."
        )
    ve = variant_effect(means)
    if not ve.empty:
        lines += ["", _variant_span(ve)]
    return lines + [""]


def summary_lines(study: str, data: dict) -> list[str]:
    """One bullet per checked claim (paper 000) or per metric (ATR claim, paper 001)."""
    if study == "paper000":
        return _summary_paper000(data)
    return _summary_paper001(data)
