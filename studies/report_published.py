"""The papers' published results beside ours (issues 11 and 12).

Part of ``studies/report.py`` (see there). Paper 000's Tables 3-6 come from
``studies/paper000/published.csv``, paper 001's rank statements from
``studies/paper001/statements.csv`` (each with a README saying how it was
read); the comparisons are :mod:`mlfs_core.analysis.reproduction` and
:mod:`mlfs_core.analysis.statements`.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from report_claims import claim_checks, rank_tables, stability_cells, verdict_cell
from report_data import BNS, CS, VARIANTS, mean_similarity
from report_render import _block as block
from report_render import md_table

from mlfs_core.analysis.paper000_claims import paper000_claims
from mlfs_core.analysis.paper000_published import (
    kuncheva_comparison,
    published_kuncheva,
    published_ranks,
    rank_comparison,
)
from mlfs_core.analysis.paper001_evaluations import evaluation_agreement
from mlfs_core.analysis.reproduction import dataset_statistics_side_by_side
from mlfs_core.columns import DATASET, METHOD, METRIC
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import METRICS
from mlfs_core.evaluation.reference_code import REFERENCE_METRICS

# Paper 001's metric names (statements.csv) -> our protocol B's: the study config
# reads F1 as micro-F1, Jaccard as sample-wise, accuracy as subset accuracy.
PAPER001_METRICS = {
    "hamming_loss": "hamming_loss",
    "ranking_loss": "ranking_loss",
    "coverage_error": "coverage_error",
    "f1": "micro_f1",
    "jaccard": "jaccard_samples",
    "accuracy": "subset_accuracy",
}
# The same under evaluation = "reference-code" (mlfs_core.evaluation.reference_code).
REFERENCE_PAPER001_METRICS = {
    **PAPER001_METRICS,
    "f1": "weighted_f1",
    "jaccard": "weighted_jaccard",
}
STATISTICS = ["N", "M", "q", "LC", "LD", "DC"]


def load_published(root: Path) -> pd.DataFrame:
    """Paper 000's published cells; ``value`` kept as printed (strings)."""
    path = root / "studies" / "paper000" / "published.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False)


# ---------------------------------------------------------------- paper 000
def _table3(published: pd.DataFrame, meta: pd.DataFrame, tables: Path) -> list[str]:
    t3 = published[published["table"] == "3"]
    ours = meta[[DATASET, *STATISTICS]]
    side = dataset_statistics_side_by_side(t3, ours)
    side.to_csv(tables / "published_table3.csv", index=False)
    done = side[side["ours"].notna()]
    rows = []
    for (row, dataset), cells in done.groupby(["row", DATASET], sort=False):
        cells = cells.set_index("statistic")
        rows.append(
            {
                "paper row": row,
                "our dataset": dataset,
                **{
                    s: _pair(cells.loc[s, "published"], cells.loc[s, "ours"])
                    for s in STATISTICS
                },
                "differs": ", ".join(s for s in STATISTICS if cells.loc[s, "differs"]),
            }
        )
    absent = t3.loc[~t3[DATASET].isin(ours[DATASET]), "row"].unique()
    return block(
        "#### Table 3 beside the paper's (paper / ours)",
        md_table(pd.DataFrame(rows)) if rows else "(no dataset in common)",
        "Our statistics rounded to the paper's printed precision; `differs` lists "
        "the statistics that do not match.",
        "",
    ) + [
        f"The paper's datasets not in this study ({len(absent)} of 20): "
        + ", ".join(absent)
        + ".",
        "",
    ]


def _pair(published: float, ours: float) -> str:
    fmt = "{:g}" if float(published).is_integer() else "{:.2f}"
    return f"{fmt.format(published)} / {fmt.format(ours)}"


def _rank_comparison(
    published: pd.DataFrame, ours4: pd.DataFrame, ours5: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """Tables 4 and 5 (micro-F1): cells side by side, per-budget and summary rows."""
    comparison = rank_comparison(published, ours4, ours5)
    lines = []
    for (name, measure), cells in comparison.cells.groupby(
        ["table", "measure"], sort=False
    ):
        lines += _cells_block(name, measure, cells)
    return comparison.summary, comparison.per_budget, lines


def _cells_block(name: str, measure: str, cells: pd.DataFrame) -> list[str]:
    shown = cells.assign(
        cell=cells["published"].map("{:.2f}".format)
        + " / "
        + cells["ours"].map("{:.2f}".format)
    )
    wide = shown.pivot(index="budget_pct", columns=METHOD, values="cell")
    order = [m for m in CS + BNS + ["RFS", "AF"] if m in wide.columns]
    wide = wide[order]
    wide.index = [f"{v:g}%" for v in wide.index]
    title = f"{name} ({measure})" if measure else name
    return block(
        f"#### {title}, micro-F1: mean rank, paper / ours",
        md_table(wide.rename_axis("budget").reset_index()),
    )


def _table6(published: pd.DataFrame, similarity: pd.DataFrame, tables: Path):
    try:
        table6 = kuncheva_comparison(published, mean_similarity(similarity))
    except ConfigError:  # no pair in common
        return []
    pairs = table6.pairs
    pairs.to_csv(tables / "published_table6.csv", index=False)
    rho = table6.spearman
    high = {
        side: ", ".join(pairs.loc[pairs[side] > 0.7, "pair"]) or "none"
        for side in ("published", "ours")
    }
    return block(
        "#### Table 6, Kuncheva index at 50 %: paper vs ours",
        md_table(
            pd.DataFrame(
                [
                    {
                        "pairs": len(pairs),
                        "mean |diff|": table6.mean_abs_diff,
                        "Spearman": rho,
                        "pairs > 0.7 (paper)": high["published"],
                        "pairs > 0.7 (ours)": high["ours"],
                    }
                ]
            ),
            "{:.2f}",
        ),
    )


def published_section_000(data: dict, root: Path) -> list[str]:
    """Study 1 beside paper 000's published Tables 3-6, with the constant floor."""
    published = load_published(root)
    tables = root / "studies" / "paper000" / "tables"
    res = data["results"]
    n_paper = published.loc[published["table"] == "3", DATASET].isin(
        data["meta"][DATASET]
    )
    lines = [
        "### Published vs ours",
        "",
        "The paper's numbers are typed from its text into "
        "`studies/paper000/published.csv` (see the README there). Its averages are "
        f"over its 20 datasets; ours over the {len(data['meta'])} datasets done, of "
        f"which {int(n_paper.sum() / len(STATISTICS))} are the paper's. The floor is "
        "a reproduction that gives every method the same rank (m + 1) / 2 at every "
        "budget: a comparison that is no closer than it says nothing. Best-method "
        "outcome per budget: agree (same best, a shared tie included), tie (the "
        "sets differ but overlap), disagree.",
        "",
    ]
    lines += _table3(published, data["meta"], tables)
    ours4, ours5 = rank_tables(res)
    summary, per, cells = _rank_comparison(published, ours4, ours5)
    summary.to_csv(tables / "published_summary.csv", index=False)
    per.to_csv(tables / "published_per_budget.csv", index=False)
    cols = ["table", "measure", "reproduction", "n_budgets", "mean_abs_diff"]
    cols += ["spearman_mean", "best_agree", "best_tie", "best_disagree"]
    lines += block(
        "#### Tables 4 and 5 (micro-F1) against the paper, with the floor",
        md_table(summary[cols]),
    )
    shown = per[["table", "measure", "budget_pct", "spearman", "published_best"]]
    shown = shown.assign(
        budget_pct=shown["budget_pct"].map("{:g}%".format),
        ours_best=per["ours_best"],
        outcome=per["outcome"],
    ).rename(columns={"budget_pct": "budget"})
    lines += block("#### Per budget: Spearman and the best method", md_table(shown))
    lines += cells + _table6(published, data["similarity"], tables)
    return lines + _claims(published, data, tables)


def _claims(published: pd.DataFrame, data: dict, tables: Path) -> list[str]:
    """Paper 000's claims over their stated ranges: the paper's tables and ours."""
    pub4, pub5 = published_ranks(published, 4), published_ranks(published, 5)
    theirs = paper000_claims(pub4, pub5, published_kuncheva(published))
    mine, loo = claim_checks(data)
    if mine is None:
        return block(
            "#### The paper's claims over the ranges it states them for (micro-F1)",
            "Not checked: a stated budget or method is missing from our data.",
        )
    both = theirs.merge(mine, on=["claim", "stated"], suffixes=("_paper", "_ours"))
    both.to_csv(tables / "published_claims.csv", index=False)
    if loo is not None:
        loo.to_csv(tables / "claims_without_each_dataset.csv", index=False)
    rows = [
        {
            "claim": t.claim,
            "stated for": t.stated,
            "the paper's own tables": verdict_cell(t),
            "ours": verdict_cell(o),
            "ours, one dataset left out": cell or "n/a",
            "our outcomes": o.outcomes,
        }
        for t, o, cell in zip(
            theirs.itertuples(), mine.itertuples(), stability_cells(loo, len(mine))
        )
    ]
    return block(
        "#### The paper's claims over the ranges it states them for (micro-F1)",
        md_table(pd.DataFrame(rows)),
        "Verdict rule: agree (holds at every stated budget or pair), partly (at "
        "more than half), tie (never contradicted, but tied), disagree (otherwise); "
        "a tie never counts as holding. The same rule on the paper's own published "
        "tables is shown first. *One dataset left out*: the claims checked again "
        "with each of our datasets left out in turn, and how many of those subsets "
        "give our verdict (those that do not are named): a verdict one dataset "
        "flips rests on little.",
        "",
    )


# ---------------------------------------------------------------- paper 001
def load_statements(root: Path) -> pd.DataFrame:
    """Paper 001's rank statements (``studies/paper001/statements.csv``)."""
    path = root / "studies" / "paper001" / "statements.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _variant_means(
    means: pd.DataFrame, variant: str, metrics: dict[str, str]
) -> pd.DataFrame:
    """Means with paper 001's metric names, PMU/MDMR as ``variant`` computes them."""
    names = VARIANTS[variant]
    drop = [m for v in VARIANTS.values() for m in v.values() if m not in names.values()]
    out = means[~means[METHOD].isin(drop)]
    out = out.assign(**{METHOD: out[METHOD].replace({v: k for k, v in names.items()})})
    inverse = {ours: paper for paper, ours in metrics.items()}
    out = out[out[METRIC].isin(inverse)]
    return out.assign(**{METRIC: out[METRIC].map(inverse)})


def statements_section(
    means: pd.DataFrame, root: Path, metrics: dict[str, str] | None = None
) -> list[str]:
    """Paper 001's rank statements scored against our means, the floor and kappa.

    ``metrics`` maps the paper's metric names to ours (default
    :data:`PAPER001_METRICS`; :data:`REFERENCE_PAPER001_METRICS` for means of
    the reference-code evaluation).
    """
    metrics = PAPER001_METRICS if metrics is None else metrics
    statements = load_statements(root)
    tables = root / "studies" / "paper001" / "tables"
    directions = {**METRICS, **REFERENCE_METRICS}
    hib = {p: directions[o].higher_is_better for p, o in metrics.items()}
    rows, by_relation = [], []
    for variant in VARIANTS:
        ours = _variant_means(means, variant, metrics)
        agreement = evaluation_agreement(statements, ours, hib)
        total = agreement.summary()
        rows.append(
            {
                "PMU/MDMR": variant,
                "scored": total["n_scored"],
                "agree": total["agree"],
                "tie": total["tie"],
                "disagree": total["disagree"],
                "agree share": total["share_agree"],
                "floor share": total["floor_share"],
                "kappa (ATR wins?)": total["kappa"],
                "pairwise cells": total["n_pairs"],
                "ATR first: agree": f"{total['first_agree']} of "
                f"{total['first_scored']}",
            }
        )
        by_relation.append(
            agreement.by_relation.assign(
                variant=variant,
                floor_share=agreement.floor_by_relation["share_agree"],
            )
        )
    table = pd.DataFrame(rows)
    pd.concat(by_relation).to_csv(tables / "statement_agreement.csv", index=False)
    flagged = int((statements["contradicted"] == "True").sum())
    relation = by_relation[0]
    relation = relation[relation["n_scored"] > 0]
    return block(
        "### The paper's rank statements, scored",
        md_table(table, "{:.2f}"),
        "Every rank statement of the paper's results section is typed into "
        "`studies/paper001/statements.csv` (see the README there): "
        f"{len(statements)} rows, {flagged} of them contradicted by the paper itself "
        "(kept and scored). Each is scored against our means over k = 1..50 (F1 read "
        f"as {metrics['f1']}, Jaccard as {metrics['jaccard']}, accuracy as "
        f"{metrics['accuracy']}; methods "
        "the paper did not finish on a dataset left out of its ranking): agree, tie "
        "(our values tie), disagree; statements on ng20 (no shared copy) and counts "
        "over unnamed datasets we lack are unscored. The floor answers 'ATR is "
        "best everywhere, the rest tie'. Kappa: Cohen's kappa between the paper and "
        "us on the pairwise cells, read as 'does ATR beat this method here?' (0 for "
        "the floor, which always says yes).",
        "",
    ) + block(
        "#### By relation (PMU/MDMR as defined)",
        md_table(
            relation[["relation", "n_scored", "agree", "tie", "disagree"]].assign(
                share=relation["share_agree"], floor=relation["floor_share"]
            ),
            "{:.2f}",
        ),
    )
