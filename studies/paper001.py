"""Study 2: paper 001 (the ATR paper) under protocol B, and its statements.

Part of :mod:`studies.report` (see there). Our Tables 3-8 (means over k =
1..50), the paper's claim that ATR performs best, its rank statements
(``studies/paper001/statements.csv``, read as its README says) scored against
our means, the section on the authors' evaluation (:mod:`studies.paper001_ref`),
the Friedman tests, the reference-code variants of PMU and MDMR, selection
times and the metric curves. The analysis is :mod:`mlfs_papers.paper001`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mlfs_core.analysis import budget_column, metric_curves, select
from mlfs_core.columns import DATASET, MEAN, METHOD, METRIC
from mlfs_core.evaluation import METRICS
from mlfs_papers.means import friedman_on_means, method_wins, variant_ranks
from mlfs_papers.paper001.conventions import REFERENCE_METRICS
from mlfs_papers.paper001.evaluations import evaluation_agreement

from .data import (
    IT_METHODS,
    PAPER001_METRICS,
    REFERENCE_LABELS,
    VARIANTS,
    load_statements,
    paper001_tables,
    selection_seconds,
    variant_means,
)
from .figures import cd_figure, figure_lines, metric_vs_k
from .markdown import block, heading, md_table
from .paper001_ref import evaluations_section
from .status import unfinished_elsewhere

STUDY = "paper001"


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


def summary_lines(data: dict) -> list[str]:
    """The summary's bullets: "ATR performs best" per metric, and the variants."""
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
        ours = variant_means(means, variant, metrics)
        agreement = evaluation_agreement(statements, ours, hib)
        rows.append(_agreement_row(variant, agreement.summary()))
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


def _agreement_row(variant: str, total: dict) -> dict:
    """The row of :func:`statements_section`'s table for ``variant``: ``total``
    is the summary of its agreement with the paper's statements."""
    return {
        "PMU/MDMR": variant,
        "scored": total["n_scored"],
        "agree": total["agree"],
        "tie": total["tie"],
        "disagree": total["disagree"],
        "agree share": total["share_agree"],
        "floor share": total["floor_share"],
        "kappa (ATR wins?)": total["kappa"],
        "pairwise cells": total["n_pairs"],
        "ATR first: agree": f"{total['first_agree']} of {total['first_scored']}",
    }


def _means_tables(means: pd.DataFrame) -> list[str]:
    shown = IT_METHODS + REFERENCE_LABELS
    lines = []
    for metric in means[METRIC].unique():
        wide = means[(means[METRIC] == metric) & means[METHOD].isin(shown)].pivot(
            index=DATASET, columns=METHOD, values=MEAN
        )
        wide = wide[[m for m in shown if m in wide.columns]]
        arrow = "higher" if METRICS[metric].higher_is_better else "lower"
        lines += block(
            f"### {metric}: mean over k = 1..50 ({arrow} is better)",
            md_table(wide.reset_index(), "{:.4f}"),
        )
    return lines


def _atr_claim(means: pd.DataFrame, tables: Path) -> list[str]:
    wins = atr_wins(means)
    wins.to_csv(tables / "atr_wins.csv", index=False)
    return block(
        "### The paper's claim that ATR performs best, checked",
        md_table(wins, "{:.2f}"),
        "Per metric, the number of datasets on which ATR has the best mean over "
        "k = 1..50 among the ten methods (ties share the rank), its average rank, "
        "and the method with the best average rank:",
        "",
    )


def _friedman(means: pd.DataFrame, tables: Path, png: bool, root: Path):
    fr = friedman_on_means(means, IT_METHODS)
    fr.to_csv(tables / "friedman.csv", index=False)
    shown = [METRIC, "statistic", "pvalue", "iman_davenport"]
    shown += ["iman_davenport_pvalue", "cd", "n_datasets", "best"]
    lines = block(
        "### Friedman/Nemenyi across datasets (ten methods, means over k)",
        md_table(fr[shown]) if len(fr) else "Needs at least 2 datasets.",
        "`statistic`/`pvalue`: Friedman's chi-squared; `iman_davenport` and its "
        "p-value: Iman and Davenport's F, which Demsar (2006) recommends.",
    )
    for metric in ("hamming_loss", "micro_f1"):
        row = fr[fr[METRIC] == metric]
        if not row.empty:
            alt = f"CD diagram, {metric}"
            fig = cd_figure(row, metric)
            lines += figure_lines(fig, f"paper001_cd_{metric}", alt, png, root)
    return lines


def _variants(means: pd.DataFrame, tables: Path) -> list[str]:
    ve = variant_effect(means)
    ve.to_csv(tables / "variants.csv", index=False)
    if ve.empty:
        return []
    piv = ve.pivot_table(
        index=[METRIC, "method"], columns="variant", values="avg_rank_among_10"
    ).reset_index()
    return block(
        "### Reference-code variants of PMU and MDMR",
        md_table(piv, "{:.2f}"),
        "Average rank among the ten methods across datasets, with PMU/MDMR as "
        "defined and as the ATR authors' code computes them:",
        "",
    ) + variant_notes(means)


def _selection_time(timings: pd.DataFrame, tables: Path) -> list[str]:
    sel = selection_seconds(timings)
    sel.to_csv(tables / "selection_seconds.csv")
    return block(
        "### Selection time (seconds, top 50, training part)",
        md_table(sel.reset_index(), "{:.2f}"),
    ) + unfinished_elsewhere(sel)


def _curves(res: pd.DataFrame, png: bool, root: Path) -> list[str]:
    lines = ["### Metric vs k (mean over the test part, every dataset)", ""]
    for metric in sorted(res[METRIC].unique()):
        rows = res[res[METRIC] == metric]
        # every row at its own budget, unchecked: the curves rank nothing
        curves = metric_curves(
            select(rows, by=[budget_column(rows)], reference_methods=(), missing="keep")
        )
        fig = metric_vs_k(curves[curves[METHOD].isin(IT_METHODS)], metric)
        label = metric.replace("_", " ")
        # one pixel per CSS pixel: the 11-panel curves stay a few hundred kB each
        name = f"paper001_{metric}_vs_k"
        lines += figure_lines(fig, name, f"{label} vs k", png, root, scale=1.0)
    return lines


def section(data: dict, png: bool, root: Path) -> list[str]:
    """Study 2's section: Tables 3-8, the ATR claim, Friedman, variants, times."""
    res = data["results"]
    tables = root / "studies" / "paper001" / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    means = paper001_tables(res)
    means.to_csv(tables / "dataset_means.csv", index=False)
    return [
        *heading("## Study 2: paper 001 (protocol B)", data["meta"]),
        *_means_tables(means),
        *_atr_claim(means, tables),
        *statements_section(means, root),
        *evaluations_section(means, root),
        *_friedman(means, tables, png, root),
        *_variants(means, tables),
        *_selection_time(data["timings"], tables),
        *_curves(res, png, root),
    ]
