"""The families compared: writes ``docs/field-comparison.md`` and its figures.

Usage (from the project root, the project installed)::

    python docs/field_comparison.py                  # sample, emotions, medical
    python docs/field_comparison.py --datasets sample,emotions --jobs 2

Every built-in method of every family but the extra measures (and the
all-features reference AF, which selects nothing) runs under the field's
protocol preset (``"field"``: ML-kNN, k = 10, on the top 5..50 features) with
the quick settings of the baselines suite (two seeded 70/30 splits, six
budgets), on the bundled sample and two real benchmarks from
``MLFS_DATASETS`` (default ``../shared/datasets``): emotions (dense, 72
features) and medical (sparse text, 1449 features). The methods with a
``binarize`` option run with ``binarize = "median"``, as the baselines suite
runs them (on dense data presence would tie nearly every score).

The tasks go through the engine's cache (``results/cache-field``, not
committed), so a stopped run resumes. The script then writes, from the tidy
results alone:

- ``docs/field-comparison/results.csv.gz`` and ``environment.json`` (the code
  version and BLAS kernel the values were computed with);
- the average rank of every method per metric over the datasets (the mean over
  splits and budgets per dataset, ranked per dataset, then averaged), with the
  Friedman test, as a table;
- ``docs/figures/field_cd_<metric>.png``: the critical-difference diagram of
  that ranking (Nemenyi);
- ``docs/figures/field_<metric>_vs_k.png``: the metric against the number of
  selected features on each dataset, one line per method;
- the page ``docs/field-comparison.md`` that shows them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import mlfs_core  # noqa: F401  (first: it pins OpenBLAS's kernel before numpy loads)

# isort: split
import pandas as pd

from mlfs_core import plots
from mlfs_core.analysis import (
    average_ranks,
    friedman_nemenyi,
    metric_curves,
    nemenyi_cd,
    select,
)
from mlfs_core.evaluation import (
    METRICS,
    DatasetSpec,
    ExperimentConfig,
    MethodConfig,
    protocol_preset,
    run_experiment,
)
from mlfs_core.selectors import FAMILIES, get_method, list_methods

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "field-comparison"
FIGURES = ROOT / "docs" / "figures"
PAGE = ROOT / "docs" / "field-comparison.md"
DATASETS = ("sample", "emotions", "medical")
FIGURE_METRICS = ("macro_f1", "hamming_loss")
SKIPPED_FAMILIES = ("extra",)
QUICK = {"n_holdouts": 2, "budgets": (5, 10, 20, 30, 40, 50)}
"""The baselines suite's quick settings: two seeded splits, six budgets."""


def compared_methods() -> list[tuple[str, str]]:
    """``(family, method)`` of every built-in method compared, in registry order."""
    pairs = []
    for family in FAMILIES:
        if family in SKIPPED_FAMILIES:
            continue
        for name in list_methods(family):
            if get_method(name).reference != "all":
                pairs.append((family, name))
    return pairs


def _method_config(name: str) -> MethodConfig:
    options = {o.name for o in get_method(name).options}
    params = {"binarize": "median"} if "binarize" in options else {}
    return MethodConfig(name=name, params=params)


def _dataset(name: str, data_dir: Path) -> DatasetSpec:
    if name == "sample":
        return DatasetSpec(path="sample", name="sample")
    return DatasetSpec(path=str(data_dir / name), name=name)


def build_config(datasets, data_dir: Path) -> ExperimentConfig:
    """The comparison's experiment: every compared method, the field's preset."""
    return ExperimentConfig(
        name="field-comparison",
        seed=0,
        datasets=tuple(_dataset(d, data_dir) for d in datasets),
        methods=tuple(_method_config(m) for _, m in compared_methods()),
        protocol=protocol_preset("field", **QUICK),
    )


def rank_table(results: pd.DataFrame, metrics) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Average rank per (method, metric) and the Friedman test per metric."""
    rows, tests = [], []
    for metric in metrics:
        chosen = select(results, metric=metric, over_budgets="mean")
        ranks = average_ranks(chosen)
        rows.append(ranks.rename_axis("method").reset_index().assign(metric=metric))
        tests.append({"metric": metric, **friedman_nemenyi(chosen).summary()})
    table = pd.concat(rows, ignore_index=True)
    return table, pd.DataFrame(tests)


def write_figures(results: pd.DataFrame, table: pd.DataFrame) -> list[str]:
    """The CD diagrams and metric-vs-k figures; their file names."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    n_datasets = results["dataset"].nunique()
    names = []
    for metric in FIGURE_METRICS:
        ranks = table[table["metric"] == metric].set_index("method")["mean"]
        cd = nemenyi_cd(len(ranks), n_datasets) if n_datasets > 1 else None
        fig = plots.cd_diagram(ranks, cd, title=f"Average rank: {metric}")
        names.append(_save(fig, f"field_cd_{metric}.png", height=560))
        curves = metric_curves(select(results, metric=metric, by=["budget"]))
        fig = plots.metric_vs_budget(
            curves,
            metric_label=metric,
            higher_is_better=METRICS[metric].higher_is_better,
            title=f"{metric} against the number of selected features "
            "(the field's new families in colour)",
            highlight=_highlighted(),
            wrap=3,
        )
        names.append(_save(fig, f"field_{metric}_vs_k.png", height=620))
    return names


def _highlighted() -> list[str]:
    """The methods drawn in colour: the families beyond the two papers' and
    the random baseline (the others grey, for context)."""
    papers = ("score-aggregation", "information-theoretic", "baseline")
    return [m for f, m in compared_methods() if f not in papers] + ["Random"]


def _save(fig, name: str, *, height: int) -> str:
    fig.update_layout(width=1400, height=height)
    browser = os.environ.get("BROWSER_PATH")  # kaleido's variable
    (FIGURES / name).write_bytes(plots.to_png_bytes(fig, browser=browser))
    return name


def _markdown_ranks(table: pd.DataFrame) -> str:
    family = {m: f for f, m in compared_methods()}
    wide = table.pivot(index="method", columns="metric", values="mean")
    wide = wide.loc[sorted(wide.index, key=lambda m: wide.loc[m].mean())]
    head = "| method | family | " + " | ".join(wide.columns) + " | mean |"
    rule = "|---|---|" + "---|" * (len(wide.columns) + 1)
    lines = [head, rule]
    for method, row in wide.iterrows():
        cells = " | ".join(f"{v:.2f}" for v in row)
        lines.append(
            f"| {method} | {FAMILIES.get(family.get(method, ''), '')} | {cells} "
            f"| {row.mean():.2f} |"
        )
    return "\n".join(lines)


def _markdown_friedman(friedman: pd.DataFrame) -> str:
    lines = ["| metric | Friedman p-value | Nemenyi CD |", "|---|---|---|"]
    for _, row in friedman.iterrows():
        lines.append(f"| {row['metric']} | {row['pvalue']:.3g} | {row['cd']:.2f} |")
    return "\n".join(lines)


NOTES = [
    (
        "- MDDM-spc ranks below Random on medical (average precision 0.40 against "
        "0.44, the mean over splits and budgets). That is the method with its "
        "default ridge, not a bug (its n- and M-dimensional forms agree to 1e-8): "
        "ε = 1e-3 is tiny against X̃ᵀX̃ of the scaled medical (rank 829 of 1449, "
        "largest eigenvalue 885), so the uncorrelated projection's weights are "
        "close to the minimum-norm least-squares fit, which weights most the "
        "features that occur in one or two documents: half of its top 50 occur in "
        "at most 2 of the 978 documents (MDDM-proj's median: 105). See the module "
        "docstring of `mlfs_core.selectors.field.spectral._mddm`."
    ),
]
"""Notes under the figures: findings the tables alone do not explain."""


def write_page(results, environment, table, friedman, figures) -> None:
    """``docs/field-comparison.md`` from the tables and figures."""
    datasets = ", ".join(sorted(results["dataset"].unique()))
    families = sorted({FAMILIES[f] for f, _ in compared_methods()})
    blas = environment.get("blas", {})
    text = [
        "# The families compared",
        "",
        "Every built-in method of "
        + ", ".join(families)
        + f" under the field's protocol (quick settings) on {datasets}: "
        "ML-kNN (k = 10) on the top 5, 10, 20, 30, 40 and 50 features, two seeded "
        "70/30 splits. Written by `python docs/field_comparison.py` from its "
        "results (`docs/field-comparison/results.csv.gz`); engine "
        f"{environment.get('engine', '?')}, BLAS kernel "
        f"{blas.get('kernel', blas.get('coretype', '?'))}.",
        "",
        "## Average ranks",
        "",
        "Per dataset, each method's mean over the splits and budgets is ranked "
        "(1 = best, ties share the mean rank); the table gives the mean rank over "
        "the datasets, best first by its mean over the metrics. With three "
        "datasets the ranks are coarse: read them as a first look, not a verdict.",
        "",
        _markdown_ranks(table),
        "",
        _markdown_friedman(friedman),
        "",
    ]
    for name in figures:
        text += [f"![{name}](figures/{name})", ""]
    text += ["## Notes", "", *NOTES, ""]
    PAGE.write_text("\n".join(text), encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", default=str(ROOT / "results" / "cache-field"))
    args = parser.parse_args(argv)
    data_dir = Path(
        os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets")
    )
    config = build_config(args.datasets.split(","), data_dir)
    result = run_experiment(config, cache_dir=args.cache, n_jobs=args.jobs)
    OUT.mkdir(parents=True, exist_ok=True)
    result.results.to_csv(
        OUT / "results.csv.gz", index=False, compression={"method": "gzip", "mtime": 0}
    )
    (OUT / "environment.json").write_text(
        json.dumps(result.environment, indent=2, default=str), encoding="utf-8"
    )
    metrics = tuple(sorted(result.results["metric"].unique()))
    table, friedman = rank_table(result.results, metrics)
    figures = write_figures(result.results, table)
    write_page(result.results, result.environment, table, friedman, figures)
    print(f"wrote {PAGE.relative_to(ROOT)} and {len(figures)} figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
