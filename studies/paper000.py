"""Study 1: paper 000 (Spolaôr & Tsoumakas) under protocol A, and its paper.

Part of :mod:`studies.report` (see there). Our Tables 4-6 and Figure 1, the
Friedman tests, the paper's published Tables 3-6 beside ours
(``studies/paper000/published.csv``, read as its README says) and the paper's
claims checked against our results. Paper 000's claims have one verdict rule
everywhere (:func:`mlfs_papers.compare.verdict`): agree = holds at
every stated budget, partly = at more than half, tie = never contradicted but
tied, disagree = otherwise. The analysis is :mod:`mlfs_papers.paper000`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mlfs_core.analysis import budget_column, friedman_by_budget, select
from mlfs_core.columns import BUDGET, DATASET, MEAN, METHOD, STD
from mlfs_core.errors import ConfigError
from mlfs_papers.compare import dataset_statistics_side_by_side
from mlfs_papers.paper000.claims import paper000_claims
from mlfs_papers.paper000.published import (
    kuncheva_comparison,
    published_kuncheva,
    published_ranks,
    rank_comparison,
    reproduction_ranks,
    with_paper_labels,
)

from .data import BNS, CS, TABLE5, mean_similarity
from .figures import figure1, figure_lines, kuncheva_heatmap
from .markdown import block, heading, md_table

STUDY = "paper000"


STATISTICS = ["N", "M", "q", "LC", "LD", "DC"]


def rank_tables(
    results: pd.DataFrame, metric: str = "micro_f1"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Our Table 4 (with a ``measure`` column, CS then BNS) and Table 5, under
    the paper's labels (the engine's ``Random`` is its ``RFS``)."""
    return reproduction_ranks(results, metric)


def claims_paper000(
    results: pd.DataFrame, similarity: pd.DataFrame, metric: str = "micro_f1"
) -> pd.DataFrame | None:
    """Paper 000's claims on our results by the one verdict rule.

    :func:`mlfs_papers.paper000.claims.paper000_claims` on our Tables
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


def summary_lines(data: dict) -> list[str]:
    """The summary's bullets: one per claim, with its one-dataset-out recheck."""
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


def pivot_ranks(ranks: pd.DataFrame) -> pd.DataFrame:
    """Budgets x methods of "mean (std)" cells, the best of each budget in bold."""
    ranks = ranks.assign(
        cell=ranks[MEAN].map("{:.2f}".format)
        + " ("
        + ranks[STD].map("{:.2f}".format)
        + ")"
    )
    ranks.loc[ranks["best"], "cell"] = "**" + ranks.loc[ranks["best"], "cell"] + "**"
    col = "budget_pct" if "budget_pct" in ranks.columns else BUDGET
    wide = ranks.pivot(index=col, columns=METHOD, values="cell")
    order = [m for m in CS + BNS + ["RFS", "AF"] if m in wide.columns]
    wide = wide[order + [m for m in wide.columns if m not in order]]
    if col == "budget_pct":
        wide.index = [f"{v:g}%" for v in wide.index]
    return wide.rename_axis("budget")


@dataclass(frozen=True)
class Output:
    """Where the paper's tables and figures of one study go.

    ``tables``: the folder of the CSV tables; ``png``: draw the figures;
    ``root``: the repository; ``prefix`` starts each figure's name;
    ``note`` ends each heading.
    """

    tables: Path
    png: bool
    root: Path
    prefix: str = "paper000"
    note: str = ""

    def figure(self, fig, name: str, alt: str) -> list[str]:
        """The Markdown lines of ``fig``, saved as ``<prefix>_<name>``."""
        return figure_lines(fig, f"{self.prefix}_{name}", alt, self.png, self.root)


def tables_4_5(res: pd.DataFrame, metric: str, out: Output) -> list[str]:
    """Tables 4 and 5 and Figure 1 (``figure1_<metric>``) of ``metric``."""
    lines = []
    ranks4, r5 = rank_tables(res, metric)
    for name in ("CS", "BNS"):
        lines += block(
            f"### Table 4 ({metric}, {name} aggregations): average rank (std)"
            f"{out.note}",
            md_table(pivot_ranks(ranks4[ranks4["measure"] == name]).reset_index()),
        )
    ranks4.to_csv(out.tables / f"table4_{metric}.csv", index=False)
    r5 = r5.drop(columns="measure")
    r5.to_csv(out.tables / f"table5_{metric}.csv", index=False)
    lines += block(
        f"### Table 5 ({metric}): average rank (std){out.note}",
        md_table(pivot_ranks(r5).reset_index()),
    )
    alt = f"Figure 1, {metric}"
    return lines + out.figure(figure1(ranks4, metric), f"figure1_{metric}", alt)


def table6(similarity: pd.DataFrame, out: Output) -> list[str]:
    """Table 6 (Kuncheva at 50 %) and its heatmap ``table6_kuncheva``, under the
    paper's labels (the engine's ``Random`` is its ``RFS``)."""
    sim = with_paper_labels(mean_similarity(similarity))
    order = [m for m in CS + BNS + ["RFS"] if m in sim.index]
    sim = sim.loc[order, order]
    sim.to_csv(out.tables / "table6_kuncheva_50pct.csv")
    lines = block(
        "### Table 6: Kuncheva index at 50 % of the features (mean over folds and "
        f"datasets){out.note}",
        md_table(sim.reset_index(), "{:.2f}"),
    )
    return lines + out.figure(kuncheva_heatmap(sim), "table6_kuncheva", "Table 6")


def section(data: dict, png: bool, root: Path) -> list[str]:
    """Study 1's section: Tables 4-6, Figure 1, the Friedman tests, the paper."""
    res = data["results"]
    tables = root / "studies" / "paper000" / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    lines = heading("## Study 1: paper 000 (protocol A)", data["meta"])
    out = Output(tables, png, root)
    for metric in ("micro_f1", "macro_f1"):
        lines += tables_4_5(res, metric, out)
    # under the paper's labels, as Table 5 (the statistics follow the columns' order)
    table5 = with_paper_labels(res[res[METHOD].isin(TABLE5)])
    fr = friedman_by_budget(
        select(table5, metric="micro_f1", by=[budget_column(table5)])
    )
    fr.to_csv(tables / "friedman_micro_f1.csv", index=False)
    lines += block(
        "### Friedman test and Nemenyi CD per budget (Table 5 methods, micro-F1)",
        md_table(fr),
    )
    lines += table6(data["similarity"], out)
    return lines + published_section_000(data, root)


def load_published(root: Path) -> pd.DataFrame:
    """Paper 000's published cells; ``value`` kept as printed (strings)."""
    path = root / "studies" / "paper000" / "published.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False)


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
    summary = summary.rename(columns={"ranks": "reproduction"})  # the CSV's name
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
