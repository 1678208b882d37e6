"""The files an experiment's results are written to, one writer for every caller.

:func:`write_outputs` writes what ``mlfs experiment --out DIR`` leaves in
``DIR``: ``results.csv`` (and ``results.parquet`` when pyarrow is installed),
``config.toml``, ``selections.csv``, ``timings.csv``, ``environment.json``
(engine version and BLAS kernel, :func:`~.runner.environment`), the analysis tables
``ranks.csv``, ``friedman.csv``, ``curves.csv``, ``dataset_means.csv``,
``similarity.csv`` (and ``recovery.csv`` for datasets with a planted truth)
and a short ``summary.md``. :func:`write_run_files` writes the first four
only (the app's run folders); :func:`write_table` writes one table, gzipped
reproducibly when its name ends in ``.gz`` (the studies' compact files).
:mod:`mlfs_core.evaluation.io` reads these files back.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import replace
from pathlib import Path

import pandas as pd

from ..analysis import (
    dataset_means,
    friedman_by_budget,
    load_planted_truth,
    metric_curves,
    rank_table,
    recovery_table,
    similarity_matrix,
)
from ..columns import (
    DATASET,
    FEATURES,
    METHOD,
    METRIC,
    N_FITTED,
    N_NOT_CONVERGED,
    REUSED,
)
from ..errors import ConfigError
from .config import DatasetSpec, ExperimentConfig, config_to_toml, middle_budget
from .metrics import higher_is_better
from .runner import ExperimentResult
from .runner.prepare import ALL_FEATURES, SAMPLE_NAME, resolve_path

__all__ = [
    "CONFIG_FILE",
    "ENVIRONMENT_FILE",
    "PARQUET_FILE",
    "RESULTS_FILE",
    "SELECTIONS_FILE",
    "SUMMARY_FILE",
    "TIMINGS_FILE",
    "absolute_paths",
    "analysis_tables",
    "convergence_line",
    "markdown_table",
    "reuse_line",
    "selections_table",
    "summary_markdown",
    "write_outputs",
    "write_run_files",
    "write_table",
]

RESULTS_FILE = "results.csv"
PARQUET_FILE = "results.parquet"
SELECTIONS_FILE = "selections.csv"
TIMINGS_FILE = "timings.csv"
ENVIRONMENT_FILE = "environment.json"
CONFIG_FILE = "config.toml"
SUMMARY_FILE = "summary.md"

GZIP = {"method": "gzip", "mtime": 0}
"""Compression of ``*.gz`` tables: no time stamp, so equal tables give equal bytes."""


def write_table(table: pd.DataFrame, path: str | Path, *, index: bool = False) -> Path:
    """Write ``table`` as CSV to ``path``; gzip it when the name ends in ``.gz``.

    Parameters
    ----------
    table : DataFrame
        The table to write.
    path : str or Path
        Destination file. A ``.gz`` suffix writes gzip without a time stamp,
        so writing the same table twice gives the same bytes.
    index : bool, default False
        Whether to write the row index as the first column.

    Returns
    -------
    Path
        ``path``.

    Examples
    --------
    >>> import gzip, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> table = pd.DataFrame({"a": [1, 2]})
    >>> write_table(table, folder / "t.csv").read_text()
    'a\\n1\\n2\\n'
    >>> one = write_table(table, folder / "t.csv.gz").read_bytes()
    >>> one == write_table(table, folder / "t.csv.gz").read_bytes()
    True
    >>> gzip.decompress(one)
    b'a\\n1\\n2\\n'
    """
    path = Path(path)
    compression = GZIP if path.suffix == ".gz" else None
    table.to_csv(path, index=index, compression=compression)
    return path


def selections_table(selections: pd.DataFrame) -> pd.DataFrame:
    """``selections`` with each ranking (an int array) as space-separated indices.

    Examples
    --------
    >>> import numpy as np
    >>> sel = pd.DataFrame({"features": [np.array([2, 0, 1])]})
    >>> selections_table(sel)["features"].tolist()
    ['2 0 1']
    """
    joined = selections[FEATURES].map(lambda a: " ".join(map(str, a)))
    return selections.assign(**{FEATURES: joined})


def absolute_paths(config: ExperimentConfig) -> ExperimentConfig:
    """``config`` with dataset paths resolved, so ``mlfs verify DIR`` works anywhere.

    The bundled ``"sample"`` and in-memory datasets are kept as they are.
    """

    def fix(spec):
        if not isinstance(spec, DatasetSpec) or spec.path == SAMPLE_NAME:
            return spec
        return replace(
            spec, path=str(resolve_path(spec.path, config.base_dir).resolve())
        )

    return replace(config, datasets=tuple(fix(d) for d in config.datasets))


def write_run_files(
    result: ExperimentResult, out: str | Path, *, resolve_paths: bool = True
) -> list[Path]:
    """Write results, config, selections, timings and environment (engine, BLAS).

    Parameters
    ----------
    result : ExperimentResult
        What :func:`mlfs_core.evaluation.runner.run_experiment` returns.
    out : str or Path
        Folder to write into (created if missing).
    resolve_paths : bool, default True
        Write the config's dataset paths resolved (:func:`absolute_paths`);
        False writes them as the config gives them.

    Returns
    -------
    list of Path
        The files written. ``config.toml`` is left out when the config holds
        in-memory datasets, which TOML cannot describe.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = [write_table(result.results, out / RESULTS_FILE)]
    config = absolute_paths(result.config) if resolve_paths else result.config
    try:
        text = config_to_toml(config)
    except ConfigError:  # an uploaded (in-memory) dataset has no path
        text = None
    if text is not None:
        (out / CONFIG_FILE).write_text(text, encoding="utf-8")
        written.append(out / CONFIG_FILE)
    written.append(
        write_table(selections_table(result.selections), out / SELECTIONS_FILE)
    )
    written.append(write_table(result.timings, out / TIMINGS_FILE))
    if result.environment:  # engine version and BLAS kernel (mlfs_core.blas)
        text = json.dumps(result.environment, indent=2, sort_keys=True) + "\n"
        (out / ENVIRONMENT_FILE).write_text(text, encoding="utf-8")
        written.append(out / ENVIRONMENT_FILE)
    return written


def write_outputs(result: ExperimentResult, out: str | Path) -> list[Path]:
    """Write every file of ``mlfs experiment --out``: results, analysis, summary.

    Parameters
    ----------
    result : ExperimentResult
        What :func:`mlfs_core.evaluation.runner.run_experiment` returns.
    out : str or Path
        Folder to write into (created if missing).

    Returns
    -------
    list of Path
        The files written: those of :func:`write_run_files`, ``results.parquet``
        (when pyarrow is installed), the tables of :func:`analysis_tables` and
        ``summary.md``.
    """
    out = Path(out)
    written = write_run_files(result, out)
    if importlib.util.find_spec("pyarrow") is not None:
        result.results.to_parquet(out / PARQUET_FILE, index=False)
        written.append(out / PARQUET_FILE)
    tables = analysis_tables(result)
    written += [
        write_table(t, out / f"{name}.csv", index=name == "similarity")
        for name, t in tables.items()
    ]
    summary = out / SUMMARY_FILE
    summary.write_text(summary_markdown(result, tables), encoding="utf-8")
    return [*written, summary]


def analysis_tables(result: ExperimentResult) -> dict[str, pd.DataFrame]:
    """Average ranks, Friedman tests, curves, dataset means, similarity, recovery.

    Returns
    -------
    dict of str to DataFrame
        ``ranks`` and ``friedman`` (every metric, with a ``metric`` column),
        ``curves``, ``dataset_means``, ``similarity`` (Kuncheva at the middle
        budget) and, when a dataset has a ``planted_truth.json``, ``recovery``.
    """
    res = result.results
    ranks, tests = [], []
    for metric in pd.unique(res[METRIC]):
        hib = higher_is_better(metric)
        ranks.append(
            rank_table(res, metric=metric, higher_is_better=hib).assign(metric=metric)
        )
        tests.append(
            friedman_by_budget(res, metric=metric, higher_is_better=hib).assign(
                metric=metric
            )
        )
    tables = {
        "ranks": pd.concat(ranks, ignore_index=True),
        "friedman": pd.concat(tests, ignore_index=True),
        "curves": metric_curves(res),
        "dataset_means": dataset_means(res),
        "similarity": _similarity(result),
    }
    recovery = _recovery(result)
    if recovery is not None:
        tables["recovery"] = recovery
    return tables


def _similarity(result: ExperimentResult) -> pd.DataFrame:
    """Kuncheva matrix at the middle budget (50 % for protocol A)."""
    protocol = result.config.protocol
    middle = middle_budget(protocol)
    if protocol.budget_unit == "percent":
        return similarity_matrix(result.selections, budget_pct=middle)
    return similarity_matrix(result.selections, budget=int(middle))


def _recovery(result: ExperimentResult) -> pd.DataFrame | None:
    frames = []
    for spec in result.config.datasets:
        path = getattr(spec, "path", None)
        if path is None:
            continue
        truth_file = (
            resolve_path(path, result.config.base_dir).parent / "planted_truth.json"
        )
        if not truth_file.is_file():
            continue
        name = spec.name or (SAMPLE_NAME if path == SAMPLE_NAME else None)
        sel = result.selections
        sel = sel[sel[METHOD] != ALL_FEATURES]  # AF's order is no ranking
        sel = sel[sel[DATASET] == name] if name else sel
        frames.append(recovery_table(sel, load_planted_truth(truth_file)))
    return pd.concat(frames, ignore_index=True) if frames else None


def convergence_line(timings: pd.DataFrame) -> str:
    """One sentence: per-label classifier fits and how many did not converge.

    Examples
    --------
    >>> t = pd.DataFrame({"stage": ["fit", "fit"], "n_fitted": [3, 1],
    ...                   "n_not_converged": [1, 0]})
    >>> convergence_line(t)
    'classifier solver: 4 per-label fits, 1 stopped at max_iter without converging (25.0 %)'
    """  # noqa: E501
    fits = timings[timings["stage"] == "fit"]
    total = int(fits[N_FITTED].sum())
    bad = int(fits[N_NOT_CONVERGED].sum())
    share = 100.0 * bad / total if total else 0.0
    return (
        f"classifier solver: {total} per-label fits, {bad} stopped at max_iter "
        f"without converging ({share:.1f} %)"
    )


def reuse_line(timings: pd.DataFrame) -> str:
    """One sentence: how many fits took the values of a fit on the same columns."""
    fits = timings[timings["stage"] == "fit"]
    reused = int(fits[REUSED].fillna(0).sum()) if REUSED in fits else 0
    return (
        f"{reused} of {len(fits)} fits reused an identical fit "
        "(same columns, same fold: values copied, not refitted)"
    )


def summary_markdown(result: ExperimentResult, tables: dict[str, pd.DataFrame]) -> str:
    """A short Markdown report: grid size, primary-metric ranks, Friedman tests.

    ``tables`` is what :func:`analysis_tables` returns for ``result``.
    """
    res, cfg = result.results, result.config
    metric = "micro_f1" if "micro_f1" in set(res[METRIC]) else res[METRIC].iloc[0]
    lines = [
        f"# Experiment {cfg.name}",
        "",
        f"- protocol {cfg.protocol.name}: split {cfg.protocol.split}, "
        f"classifier {cfg.protocol.classifier.name}, seed {cfg.seed}",
        f"- datasets: {', '.join(pd.unique(res[DATASET]))}",
        f"- methods: {', '.join(m.display for m in cfg.methods)}",
        f"- {len(res)} result rows; selection time "
        f"{_seconds(result, 'selection'):.1f} s, classifier time "
        f"{_seconds(result, 'fit') + _seconds(result, 'predict'):.1f} s",
        f"- {convergence_line(result.timings)}",
        f"- {reuse_line(result.timings)}",
        "",
        f"## Average rank by {metric} (1 = best; * = best per budget)",
        "",
    ]
    ranks = tables["ranks"]
    ranks = ranks[ranks[METRIC] == metric]
    if not ranks.empty:
        by = ranks.columns[0]
        cells = [
            f"{m:.2f}{'*' if b else ''}" for m, b in zip(ranks["mean"], ranks["best"])
        ]
        wide = ranks.assign(cell=cells).pivot(index=by, columns="method", values="cell")
        lines.append(markdown_table(wide.reset_index()))
    lines += ["", "## Friedman test per budget", ""]
    tests = tables["friedman"]
    tests = tests[tests[METRIC] == metric]
    columns = [tests.columns[0], "statistic", "pvalue", "cd", "n_datasets", "n_methods"]
    lines.append(
        markdown_table(tests[columns]) if not tests.empty else "(needs 2+ datasets)"
    )
    return "\n".join(lines) + "\n"


def _seconds(result: ExperimentResult, stage: str) -> float:
    t = result.timings
    return float(t.loc[t["stage"] == stage, "seconds"].sum())


def markdown_table(table: pd.DataFrame) -> str:
    """A pipe table of ``table`` (floats with 4 significant digits).

    Examples
    --------
    >>> print(markdown_table(pd.DataFrame({"k": [1], "p": [0.123456]})))
    | k | p |
    |---|---|
    | 1 | 0.1235 |
    """

    def fmt(v) -> str:
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    header = "| " + " | ".join(map(str, table.columns)) + " |"
    rule = "|" + "---|" * len(table.columns)
    rows = table.itertuples(index=False)
    body = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join([header, rule, *body])
