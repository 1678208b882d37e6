"""The report's Markdown sections and the analysis tables they show.

Part of ``studies/report.py`` (see there). Each section writes the tables it
shows to ``<root>/studies/<study>/tables/*.csv``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from report_claims import (
    atr_wins,
    paper001_tables,
    rank_tables,
    variant_effect,
    variant_notes,
)
from report_data import (
    BNS,
    CS,
    IT_METHODS,
    REFERENCE_LABELS,
    TABLE5,
    mean_similarity,
    selection_seconds,
)
from report_figures import cd_figure, figure1, kuncheva_heatmap, metric_vs_k, save_png
from report_status import unfinished_elsewhere

from mlfs_core.analysis import friedman_by_budget, friedman_on_means, metric_curves
from mlfs_core.columns import BUDGET, DATASET, MEAN, METHOD, METRIC, STD
from mlfs_core.evaluation import METRICS


def md_table(df: pd.DataFrame, floatfmt: str = "{:.3f}") -> str:
    """A Markdown table; float columns formatted with ``floatfmt``, NaN empty."""
    df = df.copy()
    for c in df.columns:
        if pd.api.types.is_float_dtype(df[c]):
            df[c] = df[c].map(lambda v: "" if pd.isna(v) else floatfmt.format(v))
    head = "| " + " | ".join(str(c) for c in df.columns) + " |"
    sep = "|" + "---|" * len(df.columns)
    rows = [
        "| " + " | ".join(str(v) for v in r) + " |" for r in df.itertuples(index=False)
    ]
    return "\n".join([head, sep, *rows])


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


def _block(title: str, table: str, *intro: str) -> list[str]:
    return [title, "", *intro, table, ""]


def _figure(fig, name: str, alt: str, png: bool, root: Path, **kw) -> list[str]:
    path = save_png(fig, name, png, root, **kw)
    return [f"![{alt}]({path})", ""] if path else []


def _heading(title: str, meta: pd.DataFrame) -> list[str]:
    return [
        title,
        "",
        f"Datasets done ({len(meta)}): " + ", ".join(meta[DATASET]) + ".",
        "",
    ]


# ---------------------------------------------------------------- paper 000
def tables_4_5(
    res: pd.DataFrame,
    metric: str,
    tables: Path,
    png: bool,
    root: Path,
    *,
    prefix: str = "paper000",
    note: str = "",
) -> list[str]:
    """Tables 4 and 5 and Figure 1 of ``metric``; ``note`` ends each heading and
    ``prefix`` names the figure (``<prefix>_figure1_<metric>``).
    """
    lines = []
    ranks4, r5 = rank_tables(res, metric)
    for name in ("CS", "BNS"):
        lines += _block(
            f"### Table 4 ({metric}, {name} aggregations): average rank (std){note}",
            md_table(pivot_ranks(ranks4[ranks4["measure"] == name]).reset_index()),
        )
    ranks4.to_csv(tables / f"table4_{metric}.csv", index=False)
    r5 = r5.drop(columns="measure")
    r5.to_csv(tables / f"table5_{metric}.csv", index=False)
    lines += _block(
        f"### Table 5 ({metric}): average rank (std){note}",
        md_table(pivot_ranks(r5).reset_index()),
    )
    alt = f"Figure 1, {metric}"
    return lines + _figure(
        figure1(ranks4, metric), f"{prefix}_figure1_{metric}", alt, png, root
    )


def table6(
    similarity: pd.DataFrame,
    tables: Path,
    png: bool,
    root: Path,
    *,
    prefix: str = "paper000",
    note: str = "",
) -> list[str]:
    """Table 6 (Kuncheva at 50 %) and its heatmap ``<prefix>_table6_kuncheva``."""
    sim = mean_similarity(similarity)
    order = [m for m in CS + BNS + ["RFS"] if m in sim.index]
    sim = sim.loc[order, order]
    sim.to_csv(tables / "table6_kuncheva_50pct.csv")
    lines = _block(
        "### Table 6: Kuncheva index at 50 % of the features (mean over folds and "
        f"datasets){note}",
        md_table(sim.reset_index(), "{:.2f}"),
    )
    heat = kuncheva_heatmap(sim)
    return lines + _figure(heat, f"{prefix}_table6_kuncheva", "Table 6", png, root)


def report_paper000(data: dict, png: bool, root: Path) -> list[str]:
    """Study 1's section: Tables 4-6, Figure 1, the Friedman tests, the paper."""
    res = data["results"]
    tables = root / "studies" / "paper000" / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    lines = _heading("## Study 1: paper 000 (protocol A)", data["meta"])
    for metric in ("micro_f1", "macro_f1"):
        lines += tables_4_5(res, metric, tables, png, root)
    fr = friedman_by_budget(
        res[res[METHOD].isin(TABLE5)], metric="micro_f1", higher_is_better=True
    )
    fr.to_csv(tables / "friedman_micro_f1.csv", index=False)
    lines += _block(
        "### Friedman test and Nemenyi CD per budget (Table 5 methods, micro-F1)",
        md_table(fr),
    )
    lines += table6(data["similarity"], tables, png, root)
    from report_published import published_section_000  # imports this module

    return lines + published_section_000(data, root)


# ---------------------------------------------------------------- paper 001
def _means_tables(means: pd.DataFrame) -> list[str]:
    shown = IT_METHODS + REFERENCE_LABELS
    lines = []
    for metric in means[METRIC].unique():
        wide = means[(means[METRIC] == metric) & means[METHOD].isin(shown)].pivot(
            index=DATASET, columns=METHOD, values=MEAN
        )
        wide = wide[[m for m in shown if m in wide.columns]]
        arrow = "higher" if METRICS[metric].higher_is_better else "lower"
        lines += _block(
            f"### {metric}: mean over k = 1..50 ({arrow} is better)",
            md_table(wide.reset_index(), "{:.4f}"),
        )
    return lines


def _atr_claim(means: pd.DataFrame, tables: Path) -> list[str]:
    wins = atr_wins(means)
    wins.to_csv(tables / "atr_wins.csv", index=False)
    return _block(
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
    lines = _block(
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
            lines += _figure(fig, f"paper001_cd_{metric}", alt, png, root)
    return lines


def _variants(means: pd.DataFrame, tables: Path) -> list[str]:
    ve = variant_effect(means)
    ve.to_csv(tables / "variants.csv", index=False)
    if ve.empty:
        return []
    piv = ve.pivot_table(
        index=[METRIC, "method"], columns="variant", values="avg_rank_among_10"
    ).reset_index()
    return _block(
        "### Reference-code variants of PMU and MDMR",
        md_table(piv, "{:.2f}"),
        "Average rank among the ten methods across datasets, with PMU/MDMR as "
        "defined and as the ATR authors' code computes them:",
        "",
    ) + variant_notes(means)


def _selection_time(timings: pd.DataFrame, tables: Path) -> list[str]:
    sel = selection_seconds(timings)
    sel.to_csv(tables / "selection_seconds.csv")
    return _block(
        "### Selection time (seconds, top 50, training part)",
        md_table(sel.reset_index(), "{:.2f}"),
    ) + unfinished_elsewhere(sel)


def _curves(res: pd.DataFrame, png: bool, root: Path) -> list[str]:
    lines = ["### Metric vs k (mean over the test part, every dataset)", ""]
    for metric in sorted(res[METRIC].unique()):
        curves = metric_curves(res[res[METRIC] == metric])
        fig = metric_vs_k(curves[curves[METHOD].isin(IT_METHODS)], metric)
        label = metric.replace("_", " ")
        # one pixel per CSS pixel: the 11-panel curves stay a few hundred kB each
        name = f"paper001_{metric}_vs_k"
        lines += _figure(fig, name, f"{label} vs k", png, root, scale=1.0)
    return lines


def report_paper001(data: dict, png: bool, root: Path) -> list[str]:
    """Study 2's section: Tables 3-8, the ATR claim, Friedman, variants, times."""
    res = data["results"]
    tables = root / "studies" / "paper001" / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    means = paper001_tables(res)
    means.to_csv(tables / "dataset_means.csv", index=False)
    from report_evaluations import evaluations_section  # imports this module
    from report_published import statements_section  # imports this module

    return [
        *_heading("## Study 2: paper 001 (protocol B)", data["meta"]),
        *_means_tables(means),
        *_atr_claim(means, tables),
        *statements_section(means, root),
        *evaluations_section(means, root),
        *_friedman(means, tables, png, root),
        *_variants(means, tables),
        *_selection_time(data["timings"], tables),
        *_curves(res, png, root),
    ]
