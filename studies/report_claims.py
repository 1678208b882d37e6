"""The papers' claims checked against our results, and the report's summary.

Part of ``studies/report.py`` (see there). The statistics themselves live in
:mod:`mlfs_core.analysis`; here they are applied to the papers' method groups.
Paper 000's claims have one verdict rule everywhere (issue 11 item 5,
:func:`mlfs_core.analysis.reproduction.verdict`): agree = holds at every
stated budget, partly = at more than half, tie = never contradicted but tied,
disagree = otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
from report_data import IT_METHODS, VARIANTS, mean_similarity

from mlfs_core.analysis import dataset_means, method_wins, variant_ranks
from mlfs_core.analysis.paper000_claims import paper000_claims
from mlfs_core.analysis.paper000_published import reproduction_ranks
from mlfs_core.columns import DATASET, MEAN, METHOD, METRIC
from mlfs_core.errors import ConfigError


# ---------------------------------------------------------------- paper 000
def rank_tables(
    results: pd.DataFrame, metric: str = "micro_f1"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Our Table 4 (with a ``measure`` column, CS then BNS) and Table 5."""
    return reproduction_ranks(results, metric)


def claims_paper000(
    results: pd.DataFrame, similarity: pd.DataFrame, metric: str = "micro_f1"
) -> pd.DataFrame | None:
    """Paper 000's claims on our results by the written rule of issue 11 item 5.

    :func:`mlfs_core.analysis.paper000_claims.paper000_claims` on our Tables
    4-5 (``metric``) and our Table 6; None when a stated budget or method is
    missing from our data (a claim is only checked over its whole stated range).
    """
    table4, table5 = rank_tables(results, metric)
    try:
        return paper000_claims(table4, table5, mean_similarity(similarity))
    except (KeyError, ConfigError):
        return None


def claims_leaving_out_each(
    results: pd.DataFrame, similarity: pd.DataFrame, metric: str = "micro_f1"
) -> Iterator[tuple[str, pd.DataFrame | None]]:
    """``(d, claims)`` for each dataset ``d`` in sorted order: :func:`claims_paper000`
    on every dataset but ``d`` (None where that subset cannot be checked)."""
    for d in sorted(results[DATASET].unique()):
        yield (
            d,
            claims_paper000(
                results[results[DATASET] != d],
                similarity[similarity[DATASET] != d],
                metric,
            ),
        )


def claims_without_each_dataset(
    results: pd.DataFrame, similarity: pd.DataFrame, metric: str = "micro_f1"
) -> pd.DataFrame | None:
    """How much each claim's verdict hangs on a single dataset.

    Each dataset is left out in turn and the claims are checked again on the
    rest (:func:`claims_paper000`, the same rule). Paper 000 averages over 20
    datasets and we over at most 14, so a verdict that one dataset flips is
    weak evidence either way.

    Returns
    -------
    DataFrame or None
        One row per claim: ``claim, stated, verdict`` (on every dataset),
        ``n_subsets`` (datasets left out in turn whose remainder can be
        checked), ``n_same`` (subsets giving the same verdict) and ``changes``
        (``"without d: partly; ..."``, empty when none); None when the claims
        cannot be checked on all datasets or fewer than 3 datasets are done.
    """
    full = claims_paper000(results, similarity, metric)
    if full is None or results[DATASET].nunique() < 3:
        return None
    n_same = [0] * len(full)
    n_checked = 0
    changes: list[list[str]] = [[] for _ in range(len(full))]
    for d, sub in claims_leaving_out_each(results, similarity, metric):
        if sub is None:  # a method, budget or similarity only this dataset had
            continue
        n_checked += 1
        for i, (v_full, v_sub) in enumerate(zip(full["verdict"], sub["verdict"])):
            if v_full == v_sub:
                n_same[i] += 1
            else:
                changes[i].append(f"without {d}: {v_sub}")
    return full[["claim", "stated", "verdict"]].assign(
        n_subsets=n_checked, n_same=n_same, changes=["; ".join(c) for c in changes]
    )


def stability_cells(loo: pd.DataFrame | None, n_claims: int) -> list[str | None]:
    """``"same in 11 of 12 (without arts: partly)"`` per row of
    :func:`claims_without_each_dataset`; None per claim when it gave None."""
    if loo is None:
        return [None] * n_claims
    return [
        f"same in {r.n_same} of {r.n_subsets}"
        + (f" ({r.changes})" if r.changes else "")
        for r in loo.itertuples()
    ]


def claim_checks(data: dict) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
    """:func:`claims_paper000` and :func:`claims_without_each_dataset` (micro-F1)
    of one loaded study, computed once and kept in ``data``: the summary and
    the claims section both show them, and the recheck costs one claim check
    per dataset."""
    if "claim_checks" not in data:
        res, sim = data["results"], data["similarity"]
        data["claim_checks"] = (
            claims_paper000(res, sim),
            claims_without_each_dataset(res, sim),
        )
    return data["claim_checks"]


def verdict_cell(row) -> str:
    """``"partly (3 of 5, 1 tied)"`` for one row of :func:`claims_paper000`."""
    ties = f", {row.ties} tied" if row.ties else ""
    return f"{row.verdict} ({row.holds} of {row.holds + row.ties + row.fails}{ties})"


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
def _summary_paper000(data: dict) -> list[str]:
    res = data["results"]
    lines = [
        f"Paper 000 ({res[DATASET].nunique()} datasets done; micro-F1; agree = "
        "holds at every stated budget, partly = at more than half, tie = never "
        "contradicted but tied, disagree = otherwise):",
        "",
    ]
    claims, loo = claim_checks(data)
    if claims is None:
        return lines + ["- not checked: a stated budget or method is missing.", ""]
    lines += [
        f"- {row.claim} ({row.stated}): {verdict_cell(row)}"
        + ("." if cell is None else f"; one dataset left out: {cell}.")
        for row, cell in zip(claims.itertuples(), stability_cells(loo, len(claims)))
    ]
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
