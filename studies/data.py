"""The report's inputs: the committed study data, the method groups, the app files,
and the papers' typed-in statements.

Part of :mod:`studies.report` (see there).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from mlfs_core import list_methods
from mlfs_core.analysis import dataset_means
from mlfs_core.columns import DATASET, METHOD, METRIC, VALUE
from mlfs_core.evaluation.outputs import write_table

ROOT = Path(__file__).resolve().parents[1]

# Method groups from the registry (registry order); ATR, paper 001's own method, first.
CS = [m for m in list_methods("score-aggregation") if m.endswith("CS")]
BNS = [m for m in list_methods("score-aggregation") if m.endswith("BNS")]
# Table 5's methods by their engine names (the paper labels Random "RFS").
TABLE5 = ["MeanBNS", "RaRBNS", "MaxCS", "MeanCS", "Random", "AF"]
IT_METHODS = ["ATR", *(m for m in list_methods("information-theoretic") if m != "ATR")]
# PMU and MDMR as defined, and as the ATR authors' reference code computes them.
VARIANTS = {
    "definition": {"PMU": "PMU", "MDMR": "MDMR"},
    "reference-code": {"PMU": "PMU-ref", "MDMR": "MDMR-ref"},
}
REFERENCE_LABELS = list(VARIANTS["reference-code"].values())


def current_engine() -> str:
    """The engine version results must carry to enter a table (see run_study)."""
    from mlfs_core.cache import engine_id

    return engine_id()


def dataset_engine(folder: Path) -> str:
    """Engine version recorded in ``folder/meta.json`` ("unrecorded" if none)."""
    meta = json.loads((folder / "meta.json").read_text())
    return meta.get("code_version", {}).get("engine", "unrecorded")


def load_study(
    study: str,
    base: Path | None = None,
    root: Path = ROOT,
    engine: str | None = None,
) -> dict[str, pd.DataFrame]:
    """Concatenate the per-dataset files of a study (results, similarity, timings,
    meta) found under ``base`` (default ``<root>/studies/<study>/data``).

    Only datasets produced by ``engine`` (default :func:`current_engine`)
    enter the tables, so results of two code versions never mix; the others
    are listed by :func:`stale_datasets`.
    """
    base = root / "studies" / study / "data" if base is None else Path(base)
    engine = current_engine() if engine is None else engine
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
        if dataset_engine(folder) != engine:
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
                "n_jobs": meta.get("n_jobs", 1),
                "engine": meta.get("code_version", {}).get("engine", "unrecorded"),
                "commit": meta.get("code_version", {}).get("commit", "unknown"),
            }
        )
    return {
        k: (pd.concat(v, ignore_index=True) if k != "meta" else pd.DataFrame(v))
        for k, v in parts.items()
        if v
    }


def stale_datasets(
    study: str, root: Path = ROOT, engine: str | None = None
) -> dict[str, str]:
    """Datasets of a study whose data came from another engine: name -> engine."""
    engine = current_engine() if engine is None else engine
    base = root / "studies" / study / "data"
    out = {}
    for folder in sorted(p for p in base.glob("*") if p.is_dir()):
        if (folder / "meta.json").exists() and dataset_engine(folder) != engine:
            out[folder.name] = dataset_engine(folder)
    return out


def write_app_sources(study: str, data: dict, root: Path = ROOT) -> None:
    """Merged results/selections for the app's "Paper ... study" results source."""
    folder = root / "studies" / study / "app"
    folder.mkdir(parents=True, exist_ok=True)
    write_table(data["results"], folder / "results.csv.gz")  # gzip, no time stamp
    if "selections" in data:
        write_table(data["selections"], folder / "selections.csv.gz")


def mean_similarity(similarity: pd.DataFrame) -> pd.DataFrame:
    """Kuncheva matrix averaged over datasets (each already averaged over folds)."""
    table = similarity.groupby(["method_a", "method_b"], sort=False)[VALUE].mean()
    return table.unstack("method_b")


def selection_seconds(timings: pd.DataFrame) -> pd.DataFrame:
    """Seconds spent selecting features, per dataset (rows) and method (columns)."""
    t = timings[timings["stage"] == "selection"]
    return t.pivot_table(index=DATASET, columns=METHOD, values="seconds", aggfunc="sum")


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


# The same under evaluation = "reference-code" (mlfs_papers.paper001).
REFERENCE_PAPER001_METRICS = {
    **PAPER001_METRICS,
    "f1": "weighted_f1",
    "jaccard": "weighted_jaccard",
}


def paper001_tables(results: pd.DataFrame) -> pd.DataFrame:
    """Per-dataset means over k = 1..50 of every metric (paper 001 Tables 3-8)."""
    return dataset_means(results)


def load_statements(root: Path) -> pd.DataFrame:
    """Paper 001's rank statements (``studies/paper001/statements.csv``)."""
    path = root / "studies" / "paper001" / "statements.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def variant_means(
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
