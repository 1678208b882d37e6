"""The files an experiment's results are written to, one writer for every caller.

:func:`write_outputs` writes what ``mlfs experiment --out DIR`` leaves in
``DIR``: ``results.csv`` (and ``results.parquet`` when pyarrow is installed),
``config.toml``, ``selections.csv``, ``timings.csv``, ``environment.json``
(engine version and BLAS kernel, :func:`~.runner.environment`), the analysis tables
``ranks.csv``, ``friedman.csv``, ``curves.csv``, ``dataset_means.csv``,
``similarity.csv`` (and ``recovery.csv`` for datasets with a planted truth)
a short ``summary.md`` and a ``README.md`` describing every file written
beside it column by column (:data:`OUTPUT_FILES`, the same text as the user
guide's). :func:`write_run_files` writes the first five only (the app's run
folders); :func:`write_table` writes one table, gzipped
reproducibly when its name ends in ``.gz`` (the studies' compact files).
:mod:`mlfs_core.evaluation.io` reads these files back.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from ..analysis import (
    all_features_references,
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
from .io import FEATURE_NAMES
from .metrics import higher_is_better
from .runner import ExperimentResult
from .runner.prepare import SAMPLE_NAME, resolve_path

__all__ = [
    "CONFIG_FILE",
    "ENVIRONMENT_FILE",
    "FEATURE_NAMES",
    "OUTPUT_FILES",
    "README_FILE",
    "PARQUET_FILE",
    "RESULTS_FILE",
    "SELECTIONS_FILE",
    "SUMMARY_FILE",
    "TIMINGS_FILE",
    "absolute_paths",
    "analysis_tables",
    "curves_table",
    "convergence_line",
    "markdown_table",
    "readme_markdown",
    "reuse_line",
    "selections_table",
    "summary_markdown",
    "summary_metrics",
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
README_FILE = "README.md"
NAME_SEPARATOR = "|"

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


def selections_table(
    selections: pd.DataFrame, feature_names: Mapping[str, Sequence[str]] | None = None
) -> pd.DataFrame:
    """``selections`` with each ranking as space-separated indices (and names).

    Parameters
    ----------
    selections : DataFrame
        The runner's selections table (``features`` holds int arrays).
    feature_names : mapping of str to sequence of str, optional
        Dataset name -> its feature names
        (:attr:`~.runner.ExperimentResult.feature_names`). When given, a
        ``feature_names`` column follows ``features`` with the same ranking
        as names joined by ``|`` (a ``|`` inside a name is written ``\\|``);
        a dataset missing from the mapping gets an empty cell.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> import numpy as np
    >>> sel = pd.DataFrame({"dataset": ["d"], "features": [np.array([2, 0, 1])]})
    >>> selections_table(sel)["features"].tolist()
    ['2 0 1']
    >>> selections_table(sel, {"d": ["a", "b", "c"]})["feature_names"].tolist()
    ['c|a|b']
    """
    joined = selections[FEATURES].map(lambda a: " ".join(map(str, a)))
    out = selections.assign(**{FEATURES: joined})
    if feature_names is None:
        return out
    escaped = {
        d: [str(n).replace(NAME_SEPARATOR, "\\" + NAME_SEPARATOR) for n in names]
        for d, names in feature_names.items()
    }
    names = [
        NAME_SEPARATOR.join(escaped[d][i] for i in order) if d in escaped else ""
        for d, order in zip(selections[DATASET], selections[FEATURES])
    ]
    position = list(out.columns).index(FEATURES) + 1
    out.insert(position, FEATURE_NAMES, names)
    return out


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
    names = getattr(result, "feature_names", None) or None
    written.append(
        write_table(selections_table(result.selections, names), out / SELECTIONS_FILE)
    )
    written.append(write_table(result.timings, out / TIMINGS_FILE))
    if result.environment:  # engine version and BLAS kernel (mlfs_core.blas)
        text = json.dumps(result.environment, indent=2, sort_keys=True) + "\n"
        (out / ENVIRONMENT_FILE).write_text(text, encoding="utf-8")
        written.append(out / ENVIRONMENT_FILE)
    return written


def write_outputs(
    result: ExperimentResult,
    out: str | Path,
    *,
    summary_metrics: Sequence[str] | None = None,
) -> list[Path]:
    """Write every file of ``mlfs experiment --out``: results, analysis, summary.

    Parameters
    ----------
    result : ExperimentResult
        What :func:`mlfs_core.evaluation.runner.run_experiment` returns.
    out : str or Path
        Folder to write into (created if missing).
    summary_metrics : sequence of str, optional
        The metrics ``summary.md`` reports (:func:`summary_metrics`; default
        micro-F1 when the results hold it, else their first metric).

    Returns
    -------
    list of Path
        The files written: those of :func:`write_run_files`, ``results.parquet``
        (when pyarrow is installed), the tables of :func:`analysis_tables`,
        ``summary.md`` and ``README.md`` (what every file holds).

    Raises
    ------
    ConfigError
        For a summary metric the results do not hold (before anything is
        written).
    """
    metrics = summary_metrics_of(result.results, summary_metrics)
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
    text = summary_markdown(result, tables, metrics=metrics)
    summary.write_text(text, encoding="utf-8")
    written.append(summary)
    readme = out / README_FILE
    names = [p.name for p in written]
    readme.write_text(readme_markdown(names, result), encoding="utf-8")
    return [*written, readme]


def summary_metrics(text: str | Sequence[str] | None) -> tuple[str, ...] | None:
    """Metric names from ``--summary-metric`` values (repeatable, comma lists).

    Examples
    --------
    >>> summary_metrics(["micro_f1,hamming_loss", "macro_f1"])
    ('micro_f1', 'hamming_loss', 'macro_f1')
    >>> summary_metrics(None) is None
    True
    """
    if text is None:
        return None
    items = [text] if isinstance(text, str) else list(text)
    names = [n.strip() for item in items for n in item.split(",") if n.strip()]
    return tuple(dict.fromkeys(names)) or None


def summary_metrics_of(
    results: pd.DataFrame, metrics: Sequence[str] | None
) -> tuple[str, ...]:
    """The metrics a summary reports: ``metrics`` checked, or the default one.

    Raises
    ------
    ConfigError
        Naming every metric the results do not hold, and the ones they hold.
    """
    held = list(pd.unique(results[METRIC]))
    if not metrics:
        if not held:
            return ()
        return ("micro_f1",) if "micro_f1" in held else (held[0],)
    missing = [m for m in metrics if m not in held]
    if missing:
        raise ConfigError(
            f"--summary-metric: {', '.join(missing)} not among the experiment's "
            f"metrics ({', '.join(held)})"
        )
    return tuple(metrics)


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
        "curves": curves_table(res),
        "dataset_means": dataset_means(res),
        "similarity": _similarity(result),
    }
    recovery = _recovery(result)
    if recovery is not None:
        tables["recovery"] = recovery
    return tables


def curves_table(results: pd.DataFrame) -> pd.DataFrame:
    """:func:`~mlfs_core.analysis.metric_curves` with a ``lower``/``upper`` band.

    ``lower = mean - std`` and ``upper = mean + std``: one population
    standard deviation of the ``n_runs`` values (folds x repeats) around
    their mean, the band a metric-vs-budget plot draws. With a single run
    (a train/test split and a deterministic method) the band is the mean.

    Examples
    --------
    >>> res = pd.DataFrame({"dataset": "d", "method": "M", "metric": "m",
    ...                     "budget": 1, "value": [0.2, 0.4]})
    >>> curves_table(res)[["mean", "lower", "upper"]].round(2).values.tolist()
    [[0.3, 0.2, 0.4]]
    """
    curves = metric_curves(results)
    position = list(curves.columns).index("std") + 1
    curves.insert(position, "lower", curves["mean"] - curves["std"])
    curves.insert(position + 1, "upper", curves["mean"] + curves["std"])
    return curves


def _similarity(result: ExperimentResult) -> pd.DataFrame:
    """Kuncheva matrix at the middle budget (50 % for protocol A)."""
    protocol = result.config.protocol
    middle = middle_budget(protocol)
    if protocol.budget_unit == "percent":
        return similarity_matrix(result.selections, budget_pct=middle)
    return similarity_matrix(result.selections, budget=int(middle))


def _all_features_labels(config: ExperimentConfig) -> list[str]:
    """Labels of the config's methods registered with ``reference="all"``."""
    keeps_all = set(all_features_references(None))
    return [m.display for m in config.methods if m.name in keeps_all]


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
        # an all-features baseline's order is no ranking
        sel = sel[~sel[METHOD].isin(_all_features_labels(result.config))]
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


def summary_markdown(
    result: ExperimentResult,
    tables: dict[str, pd.DataFrame],
    *,
    metrics: Sequence[str] | None = None,
) -> str:
    """A short Markdown report: grid size, then ranks and Friedman tests per metric.

    ``tables`` is what :func:`analysis_tables` returns for ``result``;
    ``metrics`` the metrics reported, in order (default micro-F1 when the
    results hold it, else their first metric; ConfigError for one they do
    not hold).
    """
    res, cfg = result.results, result.config
    metrics = summary_metrics_of(res, metrics)
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
    ]
    several = len(metrics) > 1
    for metric in metrics:
        lines += _metric_section(metric, tables, several)
    return "\n".join(lines) + "\n"


def _metric_section(metric: str, tables: dict[str, pd.DataFrame], several: bool):
    direction = "higher" if higher_is_better(metric) else "lower"
    lines = [
        "",
        f"## Average rank by {metric} ({direction} is better; "
        "rank 1 = best; * = best per budget)",
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
    title = "Friedman test per budget" + (f" ({metric})" if several else "")
    lines += ["", f"## {title}", ""]
    tests = tables["friedman"]
    tests = tests[tests[METRIC] == metric]
    columns = [tests.columns[0], "statistic", "pvalue", "cd", "n_datasets", "n_methods"]
    lines.append(
        markdown_table(tests[columns]) if not tests.empty else "(needs 2+ datasets)"
    )
    return lines


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


_BUDGET_COLUMN = (
    "budget_pct or budget: the budget of the row, as a percentage of the "
    "features when the protocol gives percentages (budget_unit = percent), "
    "else as a number of features"
)

OUTPUT_FILES: dict[str, tuple[str, dict[str, str]]] = {
    RESULTS_FILE: (
        "One row per dataset, method, budget, fold, repeat and metric: every "
        "value the experiment measured (read it with "
        "mlfs_core.evaluation.read_results).",
        {
            DATASET: "the dataset's name",
            "protocol": "the protocol's name (A or B)",
            METHOD: "the method's label (its name unless the config sets label)",
            "budget": "number of selected features k",
            "budget_pct": "k as the percentage of the features it came from; "
            "empty for count budgets, 100 for AF",
            "fold": "cross-validation fold (0 for a train/test split)",
            "repeat": "run of a stochastic method (RaR, RFS), 0 otherwise",
            METRIC: "the metric's name (micro_f1, hamming_loss, ...)",
            "value": "the metric's value on the test part",
        },
    ),
    PARQUET_FILE: (
        "The same table as results.csv in Parquet (written when pyarrow is installed).",
        {},
    ),
    CONFIG_FILE: (
        "The experiment's config with the dataset paths resolved: "
        "mlfs verify DIR reruns it. It holds only the protocol fields its split "
        "uses (no n_folds for a train/test run).",
        {},
    ),
    SELECTIONS_FILE: (
        "One row per ranking: the features each method chose on each training "
        "part, best first, at the largest budget (smaller budgets are its "
        "prefixes; read it with mlfs_core.evaluation.read_selections).",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            "fold": "the fold whose training part was ranked",
            "repeat": "run of a stochastic method, 0 otherwise",
            "n_features": "number of features M of the dataset",
            FEATURES: "the ranked feature indices (0-based columns), "
            "space-separated, best first",
            FEATURE_NAMES: "the same ranking as feature names, separated by the "
            "character | (a | inside a name is preceded by a backslash)",
        },
    ),
    TIMINGS_FILE: (
        "One row per task stage: where the time went and how the classifier's "
        "solver fared.",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            "budget": "number of selected features (empty for selections)",
            "fold": "the fold",
            "repeat": "the run",
            "stage": "selection, fit, predict or metrics",
            "seconds": "wall time of the stage when it was computed (a task "
            "taken from the cache keeps its recorded time)",
            "n_fitted": "fit rows: per-label classifiers fitted",
            "n_not_converged": "fit rows: of those, how many stopped at max_iter",
            "max_n_iter": "fit rows: the largest solver iteration count (empty "
            "for a classifier without an iterative solver)",
            "reused": "fit rows: 1 when the values were copied from an identical "
            "fit (same columns, same fold)",
        },
    ),
    ENVIRONMENT_FILE: (
        "Where the values were computed: engine (the engine version and cache "
        "format), blas (the BLAS library and kernel), kernel_dependent (whether "
        "the classifier's values follow the BLAS kernel) and fit_kernels (the "
        "kernels the kernel-dependent fits ran under).",
        {},
    ),
    "ranks.csv": (
        "Average rank of each method over the datasets, per metric and budget "
        "(the metric's direction is taken into account).",
        {
            "budget_pct": _BUDGET_COLUMN,
            METHOD: "the method's label",
            "mean": "mean rank over the datasets (1 = best; ties share the "
            "average rank)",
            "std": "population standard deviation of the ranks",
            "n_datasets": "datasets ranked",
            "best": "True for the lowest mean rank of the budget (every tied minimum)",
            METRIC: "the metric ranked by",
        },
    ),
    "friedman.csv": (
        "Friedman's test of equal ranks, per metric and budget, with the "
        "Nemenyi critical difference; budgets with fewer than 2 datasets are "
        "left out.",
        {
            "budget_pct": _BUDGET_COLUMN,
            "statistic": "Friedman's chi-squared statistic",
            "pvalue": "its p-value (chi-squared with m - 1 degrees of freedom)",
            "iman_davenport": "Iman and Davenport's F statistic (infinite when "
            "every dataset ranks the methods the same way)",
            "iman_davenport_pvalue": "its p-value",
            "cd": "Nemenyi critical difference of mean ranks at alpha = 0.05",
            "n_datasets": "datasets N",
            "n_methods": "methods m",
            METRIC: "the metric tested",
        },
    ),
    "curves.csv": (
        "The metric-vs-budget curves: each metric's mean and spread over the "
        "folds and repeats, per dataset, method and budget.",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            METRIC: "the metric's name",
            "budget_pct": _BUDGET_COLUMN,
            "mean": "mean over the n_runs values",
            "std": "population standard deviation over them",
            "lower": "mean - std: the lower edge of the band a plot draws",
            "upper": "mean + std: the upper edge of that band (lower = upper = "
            "mean for a single run)",
            "min": "smallest value",
            "max": "largest value",
            "n_runs": "values averaged (folds x repeats)",
        },
    ),
    "dataset_means.csv": (
        "Per dataset, method and metric, the mean over the budgets of the "
        "per-budget means (one cell of a results table averaged over k).",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label",
            METRIC: "the metric's name",
            "mean": "mean over the budgets of the curve's means",
            "std": "population standard deviation of those per-budget means",
            "n_budgets": "budgets averaged",
        },
    ),
    "similarity.csv": (
        "Kuncheva's consistency index between the methods' top-k subsets at "
        "the middle budget, averaged over the datasets and folds (repeat 0; AF "
        "left out). A square table: the first column names the row's method, "
        "the other columns are the methods; the diagonal is 1, 0 is chance "
        "agreement.",
        {METHOD: "the row's method (the other columns: one per method)"},
    ),
    "recovery.csv": (
        "For a dataset with a planted_truth.json: how many of the planted "
        "informative features each ranking's top k holds.",
        {
            DATASET: "the dataset's name",
            METHOD: "the method's label (AF left out)",
            "fold": "the fold",
            "repeat": "the run",
            "k": "top-k size",
            "precision": "share of the top k that are planted features",
        },
    ),
    SUMMARY_FILE: (
        "A short report: the grid, then per chosen metric (mlfs experiment "
        "--summary-metric, default micro_f1) the average ranks and the Friedman "
        "tests.",
        {},
    ),
    README_FILE: ("This description of the folder's files.", {}),
}
"""Every file ``mlfs experiment --out`` writes: what it holds and its columns.

``README.md`` is written from it, and the user guide gives the same
descriptions; a table's budget column is ``budget_pct`` or ``budget``.
"""


def readme_markdown(
    names: Sequence[str], result: ExperimentResult | None = None
) -> str:
    """The ``README.md`` of an output folder: each of ``names`` column by column.

    Parameters
    ----------
    names : sequence of str
        The files of the folder (names of :data:`OUTPUT_FILES`), in order;
        ``README.md`` itself is described last.
    result : ExperimentResult, optional
        Names the experiment in the title.

    Examples
    --------
    >>> text = readme_markdown(["curves.csv"])
    >>> "| lower | mean - std" in text
    True
    """
    title = f"experiment {result.config.name}" if result is not None else "experiment"
    lines = [
        f"# Output files of the {title}",
        "",
        "Written by `mlfs experiment`; the user guide's page on experiments "
        "describes the same files. Tables are CSV with a header row, one "
        "observation per row.",
    ]
    for name in [*dict.fromkeys([*names, README_FILE])]:
        if name not in OUTPUT_FILES:
            continue
        what, columns = OUTPUT_FILES[name]
        lines += ["", f"## {name}", "", what]
        if columns:
            lines += ["", "| column | meaning |", "|---|---|"]
            lines += [f"| {c} | {_cell(m)} |" for c, m in columns.items()]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    r"""``text`` for a Markdown table cell: each ``|`` escaped.

    Examples
    --------
    >>> _cell("a | b")
    'a \\| b'
    """
    return text.replace("|", "\\|")
