"""Build the reproduction report of both studies from their committed data.

Usage (from the project root)::

    python studies/report.py            # both studies -> studies/*/tables, docs/
    python studies/report.py --no-png   # skip the figures (no kaleido/chromium)

Reads ``studies/<study>/data/<dataset>/`` (written by ``run_study.py``), writes
the analysis tables to ``studies/<study>/tables/*.csv``, the figures to
``docs/figures/*.png`` and ``docs/reproduction.md`` (its fixed text comes from
``studies/reproduction_intro.md``). Every number in the report
is computed here from the data; each claim of the papers is checked by a small
function whose verdict and evidence are printed into the report.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
# Reproducible gzip (no timestamp): rewriting unchanged data leaves the file unchanged.
GZIP = {"method": "gzip", "mtime": 0}
sys.path.insert(0, str(ROOT))

from mlfs_core import list_methods  # noqa: E402
from mlfs_core._constants import BUDGET, DATASET, MEAN, METHOD, METRIC, STD, VALUE  # noqa: E402
from mlfs_core.analysis import (  # noqa: E402  # noqa: E402
    dataset_means,
    friedman_by_budget,
    friedman_nemenyi,
    metric_curves,
    rank_table,
)
from mlfs_core.evaluation import METRICS  # noqa: E402

TEXT_DATASETS = {
    "medical",
    "enron",
    "slashdot",
    "bibtex",
    "delicious",
    "tmc2007-500",
    "yahoo-arts",
    "yahoo-education",
}
# Method groups from the registry (registry order); ATR, paper 001's own method, first.
CS = [m for m in list_methods("paper000") if m.endswith("CS")]
BNS = [m for m in list_methods("paper000") if m.endswith("BNS")]
TABLE5 = ["MeanBNS", "RaRBNS", "MaxCS", "MeanCS", "RFS", "AF"]
IT_METHODS = ["ATR", *(m for m in list_methods("paper001") if m != "ATR")]
PAPER001_UNFINISHED = {  # the paper's own statement (section 4 of METHODS.md)
    "PMU": ["enron", "medical", "genbase", "tmc2007-500", "bibtex"],
    "D2F": ["enron", "medical", "genbase", "tmc2007-500", "bibtex"],
    "MDMR": ["enron", "medical", "genbase", "tmc2007-500", "bibtex"],
    "LRFS": ["bibtex"],
    "LSMFS": ["bibtex"],
    "MLSMFS": ["bibtex"],
}


@dataclass(frozen=True)
class Claim:
    """One claim of a paper, our verdict and the numbers behind it."""

    text: str
    verdict: str  # "agrees", "partly", "disagrees"
    evidence: str


# ---------------------------------------------------------------- loading
def load_study(study: str, base: Path | None = None) -> dict[str, pd.DataFrame]:
    """Concatenate the per-dataset files of a study (results, similarity, timings,
    meta) found under ``base`` (default ``studies/<study>/data``).
    """
    base = ROOT / "studies" / study / "data" if base is None else Path(base)
    parts: dict[str, list] = {
        "results": [],
        "similarity": [],
        "timings": [],
        "meta": [],
        "selections": [],
    }
    for folder in sorted(p for p in base.glob("*") if p.is_dir()):
        if not (folder / "results.csv.gz").exists():
            continue
        parts["results"].append(pd.read_csv(folder / "results.csv.gz"))
        parts["similarity"].append(
            pd.read_csv(folder / "similarity.csv").assign(dataset=folder.name)
        )
        parts["timings"].append(pd.read_csv(folder / "timings.csv"))
        if (folder / "selections.csv.gz").exists():
            parts["selections"].append(pd.read_csv(folder / "selections.csv.gz"))
        meta = json.loads((folder / "meta.json").read_text())
        parts["meta"].append(
            {
                "dataset": folder.name,
                **meta["stats"],
                "wall_seconds": meta["wall_seconds_this_run"],
            }
        )
    return {
        k: (pd.concat(v, ignore_index=True) if k != "meta" else pd.DataFrame(v))
        for k, v in parts.items()
        if v
    }


# ---------------------------------------------------------------- paper 000
def group_ranks(results: pd.DataFrame, methods: list[str], metric: str) -> pd.DataFrame:
    """Average rank per budget among ``methods`` only (Tables 4 and 5 of paper 000)."""
    sub = results[results[METHOD].isin(methods)]
    hib = METRICS[metric].higher_is_better
    refs = tuple(m for m in ("AF",) if m in methods)
    return rank_table(sub, metric=metric, higher_is_better=hib, reference_methods=refs)


def mean_similarity(similarity: pd.DataFrame) -> pd.DataFrame:
    """Kuncheva matrix averaged over datasets (each already averaged over folds)."""
    table = similarity.groupby(["method_a", "method_b"], sort=False)[VALUE].mean()
    return table.unstack("method_b")


def _pivot_ranks(ranks: pd.DataFrame) -> pd.DataFrame:
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


def _clearly_less(a: float, b: float) -> bool:
    """``a < b`` beyond floating-point noise (equal means do not support a claim)."""
    return bool(a < b and not np.isclose(a, b, rtol=1e-9, atol=1e-12))


def claims_paper000(
    results: pd.DataFrame, similarity: pd.DataFrame, metric: str = "micro_f1"
) -> list[Claim]:
    """Check paper 000's five claims against our results."""
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
                "agrees" if wins == len(low) else ("partly" if wins else "disagrees"),
                "best at "
                + ", ".join(
                    f"{b:.0f}%: {m} ({v:.2f})"
                    for m, b, v in best.itertuples(index=False)
                ),
            )
        )
    r5 = group_ranks(results, TABLE5, metric)
    overall = r5.groupby(METHOD)[MEAN].mean().sort_values()
    top2 = set(overall.index[:2])
    out.append(
        Claim(
            "MaxCS and MeanCS are the best methods overall (Table 5)",
            "agrees"
            if top2 == {"MaxCS", "MeanCS"}
            else ("partly" if top2 & {"MaxCS", "MeanCS"} else "disagrees"),
            "mean rank over budgets: "
            + ", ".join(f"{m} {v:.2f}" for m, v in overall.items()),
        )
    )
    wide = r5.pivot(index="budget_pct", columns=METHOD, values=MEAN)
    beats = {
        (m, b): int((wide[m] < wide[b]).sum())
        for m in ("MaxCS", "MeanCS")
        for b in ("RFS", "AF")
    }
    n = len(wide)
    out.append(
        Claim(
            "MaxCS and MeanCS beat RFS and AF",
            "agrees"
            if all(v == n for v in beats.values())
            else ("partly" if any(beats.values()) else "disagrees"),
            "; ".join(
                f"{m} better-ranked than {b} at {v}/{n} budgets"
                for (m, b), v in beats.items()
            ),
        )
    )
    sim = mean_similarity(similarity)
    within = np.nanmean(
        [sim.loc[a, b] for g in (CS, BNS) for a in g for b in g if a < b]
    )
    across = np.nanmean([sim.loc[a, b] for a in CS for b in BNS])
    out.append(
        Claim(
            "CS methods select different features than BNS methods (Table 6)",
            "agrees" if _clearly_less(across, within) else "disagrees",
            f"mean Kuncheva within a measure {within:.2f}, "
            f"across measures {across:.2f}",
        )
    )
    others = [m for m in BNS if m != "MeanBNS"]
    mean_vs = np.nanmean([sim.loc["MeanBNS", m] for m in others])
    among = np.nanmean([sim.loc[a, b] for a in others for b in others if a < b])
    out.append(
        Claim(
            "MeanBNS selects unlike the other BNS methods",
            "agrees" if _clearly_less(mean_vs, among) else "disagrees",
            f"Kuncheva MeanBNS vs other BNS {mean_vs:.2f}; "
            f"among the other BNS {among:.2f}",
        )
    )
    return out


# ---------------------------------------------------------------- paper 001
def paper001_tables(results: pd.DataFrame) -> pd.DataFrame:
    """Per-dataset means over k = 1..50 of every metric (paper 001 Tables 3-8)."""
    return dataset_means(results)


def friedman_on_means(means: pd.DataFrame, methods: list[str]) -> pd.DataFrame:
    """Friedman/Nemenyi across datasets on the means over k, per metric."""
    rows = []
    for metric, sub in means[means[METHOD].isin(methods)].groupby(METRIC):
        table = sub.rename(columns={MEAN: VALUE})[[DATASET, METHOD, VALUE]]
        complete = table.groupby(DATASET)[METHOD].transform("size") == len(methods)
        table = table[complete]
        if table[DATASET].nunique() < 2:
            continue
        res = friedman_nemenyi(table, higher_is_better=METRICS[metric].higher_is_better)
        ranks = res.ranks if isinstance(res.ranks, pd.Series) else res.ranks[MEAN]
        rows.append(
            {
                METRIC: metric,
                "statistic": res.statistic,
                "pvalue": res.pvalue,
                "cd": res.cd,
                "n_datasets": res.n_datasets,
                "best": ranks.idxmin(),
                **{f"rank_{m}": ranks[m] for m in ranks.index},
            }
        )
    return pd.DataFrame(rows)


def atr_wins(means: pd.DataFrame) -> pd.DataFrame:
    """Per metric: datasets on which ATR is best among the ten, and its average rank."""
    rows = []
    for metric, sub in means[means[METHOD].isin(IT_METHODS)].groupby(METRIC):
        hib = METRICS[metric].higher_is_better
        ranks = sub.assign(r=sub.groupby(DATASET)[MEAN].rank(ascending=not hib))
        atr = ranks[ranks[METHOD] == "ATR"]
        avg = ranks.groupby(METHOD)["r"].mean().sort_values()
        rows.append(
            {
                METRIC: metric,
                "datasets": atr[DATASET].nunique(),
                "ATR best on": int((atr["r"] <= 1.0).sum()),
                "ATR avg rank": float(avg.get("ATR", np.nan)),
                "best avg rank": f"{avg.index[0]} ({avg.iloc[0]:.2f})",
            }
        )
    return pd.DataFrame(rows)


def variant_effect(means: pd.DataFrame) -> pd.DataFrame:
    """Average rank of PMU/MDMR as defined vs as the reference code computes them."""
    rows = []
    for metric, sub in means.groupby(METRIC):
        hib = METRICS[metric].higher_is_better
        for variant in ("definition", "reference-code"):
            names = dict(
                zip(
                    ("PMU", "MDMR"),
                    ("PMU", "MDMR")
                    if variant == "definition"
                    else ("PMU-ref", "MDMR-ref"),
                )
            )
            keep = [m for m in IT_METHODS if m not in names] + list(names.values())
            t = sub[sub[METHOD].isin(keep)].rename(columns={MEAN: VALUE})
            ranks = (
                t.assign(r=t.groupby(DATASET)[VALUE].rank(ascending=not hib))
                .groupby(METHOD)["r"]
                .mean()
            )
            for base, shown in names.items():
                if shown in ranks:
                    rows.append(
                        {
                            METRIC: metric,
                            "method": base,
                            "variant": variant,
                            "avg_rank_among_10": ranks[shown],
                        }
                    )
    return pd.DataFrame(rows)


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


def selection_seconds(timings: pd.DataFrame) -> pd.DataFrame:
    t = timings[timings["stage"] == "selection"]
    return t.pivot_table(index=DATASET, columns=METHOD, values="seconds", aggfunc="sum")


# ---------------------------------------------------------------- output
def _md(df: pd.DataFrame, floatfmt: str = "{:.3f}") -> str:
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


def _small_png(png: bytes, colors: int = 128) -> bytes:
    """The same picture with a 128-colour palette: a quarter of the bytes for
    plots of flat colours (Pillow comes with Streamlit)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.quantize(
        colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _save_png(fig, name: str, enabled: bool, **kw) -> str | None:
    """Write ``docs/figures/<name>.png`` (if ``enabled``) and return its link.

    Without ``enabled`` (``--no-png``) an already committed figure is still
    linked, so the Markdown does not depend on whether PNGs were redrawn.
    """
    path = ROOT / "docs" / "figures" / f"{name}.png"
    if enabled:
        from mlfs_core.plots.export import png_export_available, to_png_bytes

        if png_export_available():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(_small_png(to_png_bytes(fig, **kw)))
    return f"figures/{name}.png" if path.is_file() else None


def report_paper000(data: dict, png: bool) -> list[str]:
    from mlfs_core.plots import average_rank_curves, similarity_heatmap

    res, meta = data["results"], data["meta"]
    tables = ROOT / "studies" / "paper000" / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    lines = [
        "## Study 1: paper 000 (protocol A)",
        "",
        f"Datasets done ({len(meta)}): " + ", ".join(meta[DATASET]) + ".",
        "",
    ]
    for metric in ("micro_f1", "macro_f1"):
        parts = []
        for group, name in ((CS, "CS"), (BNS, "BNS")):
            r = group_ranks(res, group, metric).assign(measure=name)
            parts.append(r)
            lines += [
                f"### Table 4 ({metric}, {name} aggregations): average rank (std)",
                "",
                _md(_pivot_ranks(r).reset_index()),
                "",
            ]
        ranks4 = pd.concat(parts, ignore_index=True)
        ranks4.to_csv(tables / f"table4_{metric}.csv", index=False)
        r5 = group_ranks(res, TABLE5, metric)
        r5.to_csv(tables / f"table5_{metric}.csv", index=False)
        lines += [
            f"### Table 5 ({metric}): average rank (std)",
            "",
            _md(_pivot_ranks(r5).reset_index()),
            "",
        ]
        # One line per aggregation in each measure's panel, as in the paper's figure.
        agg = ranks4.assign(
            aggregation=ranks4[METHOD].str.replace(r"(CS|BNS)$", "", regex=True)
        )
        fig = average_rank_curves(
            agg,
            x="budget_pct",
            facet="measure",
            method="aggregation",
            title=f"Average rank ({metric}) vs % of features; 1 = best",
        )
        path = _save_png(fig, f"paper000_figure1_{metric}", png)
        if path:
            lines += [f"![Figure 1, {metric}]({path})", ""]
    fr = friedman_by_budget(
        res[res[METHOD].isin(TABLE5)], metric="micro_f1", higher_is_better=True
    )
    fr.to_csv(tables / "friedman_micro_f1.csv", index=False)
    lines += [
        "### Friedman test and Nemenyi CD per budget (Table 5 methods, micro-F1)",
        "",
        _md(fr),
        "",
    ]
    sim = mean_similarity(data["similarity"])
    order = [m for m in CS + BNS + ["RFS"] if m in sim.index]
    sim = sim.loc[order, order]
    sim.to_csv(tables / "table6_kuncheva_50pct.csv")
    lines += [
        "### Table 6: Kuncheva index at 50 % of the features (mean over folds and "
        "datasets)",
        "",
        _md(sim.reset_index(), "{:.2f}"),
        "",
    ]
    path = _save_png(
        similarity_heatmap(sim, title="Kuncheva index at 50 %"),
        "paper000_table6_kuncheva",
        png,
    )
    if path:
        lines += [f"![Table 6]({path})", ""]
    return lines + claims_section(res, data["similarity"]) + [""]


def claims_section(res: pd.DataFrame, similarity: pd.DataFrame) -> list[str]:
    """Claim checks on every dataset done, and on the text datasets among them."""
    lines = [
        "### The paper's claims, checked",
        "",
        "Paper 000 studied text collections, so each claim is checked on every "
        "dataset done and, separately, on the text datasets among them ("
        + ", ".join(sorted(TEXT_DATASETS))
        + ").",
        "",
        "| claim | datasets | our data | evidence |",
        "|---|---|---|---|",
    ]
    subsets = [("all done", res, similarity)]
    n_text = res.loc[res[DATASET].isin(TEXT_DATASETS), DATASET].nunique()
    if n_text:
        subsets.append(
            (
                f"text only ({n_text})",
                res[res[DATASET].isin(TEXT_DATASETS)],
                similarity[similarity[DATASET].isin(TEXT_DATASETS)],
            )
        )
    for label, table, sim in subsets:
        lines += [
            f"| {c.text} | {label} | {c.verdict} | {c.evidence} |"
            for c in claims_paper000(table, sim)
        ]
    return lines


def report_paper001(data: dict, png: bool) -> list[str]:
    from mlfs_core.plots import cd_diagram, metric_vs_budget

    res, meta = data["results"], data["meta"]
    tables = ROOT / "studies" / "paper001" / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    means = paper001_tables(res)
    means.to_csv(tables / "dataset_means.csv", index=False)
    lines = [
        "## Study 2: paper 001 (protocol B)",
        "",
        f"Datasets done ({len(meta)}): " + ", ".join(meta[DATASET]) + ".",
        "",
    ]
    for metric in means[METRIC].unique():
        wide = means[
            (means[METRIC] == metric)
            & means[METHOD].isin(IT_METHODS + ["PMU-ref", "MDMR-ref"])
        ].pivot(index=DATASET, columns=METHOD, values=MEAN)
        wide = wide[
            [m for m in IT_METHODS + ["PMU-ref", "MDMR-ref"] if m in wide.columns]
        ]
        arrow = "higher" if METRICS[metric].higher_is_better else "lower"
        lines += [
            f"### {metric}: mean over k = 1..50 ({arrow} is better)",
            "",
            _md(wide.reset_index(), "{:.4f}"),
            "",
        ]
    wins = atr_wins(means)
    wins.to_csv(tables / "atr_wins.csv", index=False)
    lines += [
        "### The paper's claim that ATR performs best, checked",
        "",
        "Per metric, the number of datasets on which ATR has the best mean over "
        "k = 1..50 among the ten methods (ties share the rank), its average rank, "
        "and the method with the best average rank:",
        "",
        _md(wins, "{:.2f}"),
        "",
    ]
    fr = friedman_on_means(means, IT_METHODS)
    fr.to_csv(tables / "friedman.csv", index=False)
    lines += [
        "### Friedman/Nemenyi across datasets (ten methods, means over k)",
        "",
        _md(fr[[METRIC, "statistic", "pvalue", "cd", "n_datasets", "best"]]),
        "",
    ]
    for metric in ("hamming_loss", "micro_f1"):
        row = fr[fr[METRIC] == metric]
        if row.empty:
            continue
        ranks = row.filter(like="rank_").iloc[0].rename(lambda c: c[len("rank_") :])
        fig = cd_diagram(
            ranks.astype(float),
            float(row["cd"].iloc[0]),
            title=f"Critical difference, {metric} (mean over k = 1..50)",
        )
        path = _save_png(fig, f"paper001_cd_{metric}", png)
        if path:
            lines += [f"![CD diagram, {metric}]({path})", ""]
    ve = variant_effect(means)
    ve.to_csv(tables / "variants.csv", index=False)
    if not ve.empty:
        piv = ve.pivot_table(
            index=[METRIC, "method"], columns="variant", values="avg_rank_among_10"
        ).reset_index()
        lines += [
            "### Reference-code variants of PMU and MDMR",
            "",
            "Average rank among the ten methods across datasets, with PMU/MDMR as "
            "defined and as the ATR authors' code computes them:",
            "",
            _md(piv, "{:.2f}"),
            "",
            *variant_notes(means),
        ]
    sel = selection_seconds(data["timings"])
    sel.to_csv(tables / "selection_seconds.csv")
    lines += [
        "### Selection time (seconds, top 50, training part)",
        "",
        _md(sel.reset_index(), "{:.2f}"),
        "",
    ]
    finished = [
        f"{m} on {d} ({sel.loc[d, m]:.1f} s)"
        for m, ds in PAPER001_UNFINISHED.items()
        for d in ds
        if d in sel.index and m in sel.columns and pd.notna(sel.loc[d, m])
    ]
    lines += [
        "Methods the paper reports as unable to finish that finished here: "
        + (", ".join(finished) if finished else "none of those datasets done yet")
        + ".",
        "",
    ]
    lines += ["### Metric vs k (mean over the test part, every dataset)", ""]
    for metric in sorted(res[METRIC].unique()):
        curves = metric_curves(res[res[METRIC] == metric])
        curves = curves.assign(
            lower=curves[MEAN] - curves[STD], upper=curves[MEAN] + curves[STD]
        )
        label = metric.replace("_", " ")
        fig = metric_vs_budget(
            curves[curves[METHOD].isin(IT_METHODS)],
            metric_label=label,
            higher_is_better=METRICS[metric].higher_is_better,
            title=f"{label} vs k",
        )
        # one pixel per CSS pixel: the 11-panel curves stay a few hundred kB each
        path = _save_png(fig, f"paper001_{metric}_vs_k", png, scale=1.0)
        if path:
            lines += [f"![{label} vs k]({path})", ""]
    return lines


def write_app_sources(study: str, data: dict) -> None:
    """Merged results/selections for the app's "Paper ... study" results source."""
    folder = ROOT / "studies" / study / "app"
    folder.mkdir(parents=True, exist_ok=True)
    data["results"].to_csv(folder / "results.csv.gz", index=False, compression=GZIP)
    if "selections" in data:
        data["selections"].to_csv(
            folder / "selections.csv.gz", index=False, compression=GZIP
        )


# Datasets of a study config that are deliberately not run: (study, dataset) -> why.
LEFT_OUT = {
    ("paper000", "delicious"): "983 labels, so each BR + LinearSVC fit is 983 SVMs "
    "on 14.5k samples; `bench/bench_br_fit.py` measures 31-33 s per fit at 50 % of "
    "the features, and protocol A needs 1,360 fits (10 folds x (9 budgets x 15 "
    "runs + AF)): about 12 h on one core, 6 h on both. Resumable: `python "
    "studies/run_study.py paper000 --datasets delicious --jobs 2`",
}
# Datasets not done yet (still running or queued): (study, dataset) -> note.
PENDING_NOTES: dict[tuple[str, str], str] = {}


def status_section(study: str, data: dict) -> list[str]:
    """Which datasets of the study config are done (with compute time) and which not."""
    import tomllib

    config = tomllib.loads((ROOT / "configs" / f"study_{study}.toml").read_text())
    wanted = [Path(d["path"]).name for d in config["datasets"]]
    meta = data.get("meta", pd.DataFrame(columns=[DATASET, "wall_seconds"]))
    done = dict(zip(meta[DATASET], meta["wall_seconds"]))

    def row(d: str) -> str:
        if d in done:
            return f"| {d} | done | {done[d]:.0f} |"
        if (study, d) in LEFT_OUT:
            return f"| {d} | left out | {LEFT_OUT[study, d]} |"
        return f"| {d} | not run yet | {PENDING_NOTES.get((study, d), 'queued')} |"

    rows = [row(d) for d in wanted]
    total = sum(done.values())
    left = [d for d in wanted if (study, d) in LEFT_OUT and d not in done]
    return [
        f"**Status of `configs/study_{study}.toml`:** {len(done)} of {len(wanted)} "
        f"datasets done, {total / 60:.0f} min of compute (wall time of each "
        "dataset's first run, one or two worker processes on a 2-core machine "
        "shared with other jobs)"
        + (f"; left out: {', '.join(left)} (see the table)." if left else "."),
        "",
        "| dataset | status | wall seconds / note |",
        "|---|---|---|",
        *rows,
        "",
    ]


def summary_lines(study: str, data: dict) -> list[str]:
    """One bullet per checked claim (paper 000) or per metric (ATR claim, paper 001)."""
    res = data["results"]
    n = res[DATASET].nunique()
    if study == "paper000":
        text = res[res[DATASET].isin(TEXT_DATASETS)]
        sim = data["similarity"]
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
        says = {"agrees": "agree", "partly": "partly agree", "disagrees": "disagree"}
        for c, t in zip(checks, text_checks):
            extra = f"; text datasets {says[t.verdict]}" if t is not None else ""
            lines.append(f"- {c.text}: all datasets {says[c.verdict]}{extra}.")
        return lines + [""]
    means = paper001_tables(res)
    wins = atr_wins(means)
    lines = [f"Paper 001 ({n} datasets done; 'ATR performs best'):", ""]
    for row in wins.itertuples(index=False):
        lines.append(
            f"- {row.metric}: ATR best on {row[2]} of {row.datasets} datasets, average "
            f"rank {row[3]:.2f}; best average rank {row[4]}."
        )
    ve = variant_effect(means)
    if not ve.empty:
        ranks = ve.groupby(["method", "variant"])["avg_rank_among_10"]
        span = ranks.agg(["min", "max"])
        lines.append("")
        lines.append(
            "Reference-code baselines (average rank among the ten, range over the "
            "metrics): "
            + "; ".join(
                f"{m} {span.loc[(m, 'definition'), 'min']:.1f}-"
                f"{span.loc[(m, 'definition'), 'max']:.1f} as defined, "
                f"{span.loc[(m, 'reference-code'), 'min']:.1f}-"
                f"{span.loc[(m, 'reference-code'), 'max']:.1f} as the ATR authors' "
                "code computes it"
                for m in ("MDMR", "PMU")
                if (m, "reference-code") in span.index
            )
            + "."
        )
    return lines + [""]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-png", action="store_true")
    args = parser.parse_args(argv)
    sections = [
        (ROOT / "studies" / "reproduction_intro.md").read_text(encoding="utf-8")
    ]
    summary = ["## Summary", ""]
    for study, fn in (("paper000", report_paper000), ("paper001", report_paper001)):
        data = load_study(study)
        if "results" in data:
            write_app_sources(study, data)
            body = fn(data, not args.no_png)
            sections += [body[0], "", *status_section(study, data), *body[1:]]
            summary += summary_lines(study, data)
    sections[1:1] = [*summary, ""]
    out = ROOT / "docs" / "reproduction.md"
    out.write_text("\n".join(sections) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
