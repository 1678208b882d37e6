"""A benchmark's output folder: writing it, reading its manifest, finding it.

The folder is a results source of the app (:func:`find_benchmarks`):
``results.csv.gz`` and ``selections.csv.gz`` in the layout of the studies'
app files, the ranking tables, a critical-difference diagram per metric and
``benchmark.json`` (:data:`MANIFEST`), which describes the run.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..cache import engine_id
from ..columns import DATASET
from ..errors import ConfigError

MANIFEST = "benchmark.json"
"""The file that marks a folder as a benchmark's output (and describes it)."""
RESULTS_FILE = "results.csv.gz"
SELECTIONS_FILE = "selections.csv.gz"
BENCHMARKS_ENV = "MLFS_BENCHMARKS"
"""Environment variable: extra folders (``os.pathsep``-separated) holding
benchmark outputs for the app."""
_COMMITTED = "committed"
_COMPUTED = "computed"
LEFT_OUT = "left out"


def write_benchmark(result, out, method, selections) -> Path:
    """Write a benchmark's files to the folder ``out`` (created).

    Files: ``results.csv.gz`` and ``selections.csv.gz`` (the app's results
    source), ``average_ranks.csv``, ``friedman.csv``, ``ranks_by_budget.csv``,
    ``cd_<metric>.html`` (with ``plotly.min.js`` beside them, no network
    needed to view them) and ``benchmark.json`` (suite, method, subset, where
    the built-ins' values came from, times).

    Parameters
    ----------
    result : BenchmarkResult
        What :func:`~mlfs_core.benchmark.run_benchmark` computed.
    out : path
        The folder.
    method : MethodConfig
        The benchmarked method's config (recorded in the manifest).
    selections : DataFrame
        The compared methods' compact rankings.

    Returns
    -------
    Path
        The folder.
    """
    import plotly.io as pio

    from ..evaluation.outputs import write_table

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    write_table(result.results, folder / RESULTS_FILE)
    write_table(selections, folder / SELECTIONS_FILE)
    write_table(result.average_ranks, folder / "average_ranks.csv")
    write_table(result.friedman, folder / "friedman.csv")
    write_table(result.ranks_by_budget, folder / "ranks_by_budget.csv")
    for metric, fig in result.figures.items():
        pio.write_html(fig, folder / f"cd_{metric}.html", include_plotlyjs="directory")
    suite = result.suite
    quick = suite.quick if result.quick else None
    manifest = {
        "suite": suite.name,
        "title": suite.title,
        "method": result.method,
        "method_config": {"name": method.name, "params": dict(method.params)},
        "quick": result.quick,
        "datasets": sorted(result.results[DATASET].unique().tolist()),
        "folds": None if quick is None or quick.folds is None else list(quick.folds),
        "budgets": None
        if quick is None or quick.budgets is None
        else list(quick.budgets),
        "methods": [*suite.methods, result.method],
        "metric": suite.metric,
        "builtin_values": {
            c.dataset: {"from": _source(c), "why": c.reason} for c in result.checks
        },
        "seconds": result.timings,
        "engine": engine_id(),
        "plugins": _plugin_specs(),
    }
    text = json.dumps(manifest, indent=2, default=str) + "\n"
    (folder / MANIFEST).write_text(text, encoding="utf-8")
    return folder


def _source(check) -> str:
    if check.left_out:
        return LEFT_OUT
    return _COMMITTED if check.usable else _COMPUTED


def _plugin_specs() -> list[str]:
    try:
        from ..plugins import plugin_specs
    except ImportError:
        return []
    return list(plugin_specs())


def read_manifest(folder) -> dict:
    """The ``benchmark.json`` of a benchmark folder.

    Raises
    ------
    ConfigError
        When the folder has none or it is not valid JSON.
    """
    path = Path(folder) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"{folder} is not a benchmark folder (no {MANIFEST})"
        ) from None
    except ValueError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc})") from None


def benchmark_label(manifest: dict) -> str:
    """The app's label of a benchmark: ``Benchmark: <method> on <suite>[ (quick)]``."""
    quick = " (quick)" if manifest.get("quick") else ""
    return f"Benchmark: {manifest.get('method')} on {manifest.get('suite')}{quick}"


def find_benchmarks(*roots) -> dict[str, Path]:
    """Benchmark folders under ``roots``: label -> folder.

    A folder counts when it holds ``benchmark.json`` and ``results.csv.gz``;
    a root may itself be one. Unreadable manifests are skipped; a label that
    repeats gets the folder name appended.

    Parameters
    ----------
    *roots : path
        Folders to look in (one level deep); the app adds those of
        ``$MLFS_BENCHMARKS`` (:data:`BENCHMARKS_ENV`), which it reads.

    Returns
    -------
    dict
        Label -> folder, sorted by folder path.
    """
    candidates: list[Path] = []
    for root in roots:
        root = Path(root)
        if not root.is_dir():
            continue
        candidates += [root, *sorted(p for p in root.iterdir() if p.is_dir())]
    found: dict[str, Path] = {}
    for folder in sorted(dict.fromkeys(candidates)):
        if not (folder / MANIFEST).is_file() or not (folder / RESULTS_FILE).is_file():
            continue
        try:
            label = benchmark_label(read_manifest(folder))
        except ConfigError:
            continue
        if label in found:
            label = f"{label} [{folder.name}]"
        found[label] = folder
    return found
