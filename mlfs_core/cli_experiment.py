"""The ``mlfs experiment CONFIG.toml --out DIR [--jobs N] [--cache DIR]`` command.

``--scheduler ADDRESS`` runs the tasks on a Dask cluster
(:mod:`mlfs_core.evaluation.cluster`); this process still writes the cache.

Writes to ``DIR``: ``results.csv`` (and ``results.parquet`` when pyarrow is
installed), ``selections.csv``, ``timings.csv``, the analysis tables
``ranks.csv``, ``friedman.csv``, ``curves.csv``, ``dataset_means.csv``,
``similarity.csv`` (and ``recovery.csv`` for datasets with a planted truth)
and a short ``summary.md``. A progress line goes to stderr.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import pandas as pd

from .analysis import (
    dataset_means,
    friedman_by_budget,
    load_planted_truth,
    metric_curves,
    rank_table,
    recovery_table,
    similarity_matrix,
)
from .cli import jobs
from .columns import (
    DATASET,
    FEATURES,
    METHOD,
    METRIC,
    N_FITTED,
    N_NOT_CONVERGED,
    REUSED,
)
from .evaluation.io import EXACT_FLOATS
from .evaluation.metrics import higher_is_better
from .evaluation.protocols import DatasetSpec, load_config, save_config
from .evaluation.runner import ExperimentResult, run_experiment


def add_experiment_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``experiment`` sub-command to an argparse ``subparsers`` object."""
    p = subparsers.add_parser(
        "experiment",
        help="run an experiment grid from a TOML config and write result tables",
    )
    p.add_argument("config", help="experiment config (TOML), see configs/")
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--jobs", type=jobs, default=1, help="parallel workers (-1 = all)")
    p.add_argument("--cache", help="task cache folder (default OUT/cache)")
    p.add_argument("--no-cache", action="store_true", help="do not cache task results")
    p.add_argument(
        "--scheduler",
        help="run the tasks on the Dask scheduler at this address "
        "(tcp://host:8786); this process still writes the cache",
    )
    p.set_defaults(func=run_experiment_command)
    return p


def add_verify_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``verify`` sub-command (recompute an experiment's tasks)."""
    p = subparsers.add_parser(
        "verify",
        help="recompute an experiment's fits (a sample or all) from DIR/config.toml "
        "and report the largest difference from DIR/results.csv",
    )
    p.add_argument("dir", help="an output folder of `mlfs experiment`")
    p.add_argument(
        "--sample", type=int, help="number of fits to recompute (default all)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the sample")
    p.add_argument("--jobs", type=jobs, default=1, help="parallel workers (-1 = all)")
    p.add_argument("--out", help="write the comparison table (CSV) here")
    p.set_defaults(func=run_verify_command)
    return p


def run_verify_command(args: argparse.Namespace) -> int:
    """Run ``mlfs verify``: exit 0 when every value is identical, 1 otherwise."""
    from .errors import ConfigError
    from .evaluation.verify import verify_experiment

    folder = Path(args.dir)
    config_path, results_path = folder / "config.toml", folder / "results.csv"
    for path in (config_path, results_path):
        if not path.is_file():
            raise ConfigError(f"{path.name} not found in {folder}")
    if args.sample is not None and args.sample < 1:
        raise ConfigError(f"--sample must be at least 1, got {args.sample}")
    result = verify_experiment(
        load_config(config_path),
        pd.read_csv(results_path, **EXACT_FLOATS),
        sample=args.sample,
        seed=args.seed,
        n_jobs=args.jobs,
        progress=_progress,
    )
    print(file=sys.stderr)
    if args.out:
        result.table.to_csv(args.out, index=False)
    verdict = "identical" if result.identical else "DIFFERENT"
    print(
        f"recomputed {result.n_fits} of {result.n_fits_total} fits "
        f"({len(result.table)} values): largest absolute difference "
        f"{result.max_abs_diff:.3g}; {verdict}"
    )
    return 0 if result.identical else 1


def run_experiment_command(args: argparse.Namespace) -> int:
    """Run ``mlfs experiment``; returns the exit status (ConfigError propagates)."""
    config = load_config(args.config)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cache = None if args.no_cache else (args.cache or out / "cache")
    if getattr(args, "scheduler", None):
        from .evaluation.cluster import dask_backend

        with dask_backend(args.scheduler):
            jobs = -1 if args.jobs == 1 else args.jobs
            result = run_experiment(
                config, cache_dir=cache, n_jobs=jobs, progress=_progress
            )
    else:
        result = run_experiment(
            config, cache_dir=cache, n_jobs=args.jobs, progress=_progress
        )
    print(file=sys.stderr)
    written = write_outputs(result, out)
    print(f"wrote {len(written)} files to {out}")
    return 0


def _progress(done: int, total: int, message: str) -> None:
    print(f"\r[{done}/{total}] {message[:70]:<70}", end="", file=sys.stderr, flush=True)


def write_outputs(result: ExperimentResult, out: Path) -> list[Path]:
    """Write result, analysis and summary files of ``result`` into ``out``."""
    written = [_csv(result.results, out / "results.csv")]
    config_path = out / "config.toml"
    save_config(_absolute_paths(result.config), config_path)
    written.append(config_path)
    if importlib.util.find_spec("pyarrow") is not None:
        path = out / "results.parquet"
        result.results.to_parquet(path, index=False)
        written.append(path)
    selections = result.selections.assign(
        **{FEATURES: result.selections[FEATURES].map(lambda a: " ".join(map(str, a)))}
    )
    written.append(_csv(selections, out / "selections.csv"))
    written.append(_csv(result.timings, out / "timings.csv"))
    tables = analysis_tables(result)
    written += [
        _csv(t, out / f"{name}.csv", index=name == "similarity")
        for name, t in tables.items()
    ]
    summary = out / "summary.md"
    summary.write_text(summary_markdown(result, tables), encoding="utf-8")
    return [*written, summary]


def _absolute_paths(config):
    """``config`` with dataset paths resolved, so ``mlfs verify DIR`` works anywhere."""
    from dataclasses import replace

    from .evaluation._prepare import SAMPLE_NAME, resolve_path

    def fix(spec):
        if not isinstance(spec, DatasetSpec) or spec.path == SAMPLE_NAME:
            return spec
        return replace(
            spec, path=str(resolve_path(spec.path, config.base_dir).resolve())
        )

    return replace(config, datasets=tuple(fix(d) for d in config.datasets))


def _csv(table: pd.DataFrame, path: Path, *, index: bool = False) -> Path:
    table.to_csv(path, index=index)
    return path


def analysis_tables(result: ExperimentResult) -> dict[str, pd.DataFrame]:
    """Average ranks, Friedman tests, curves, dataset means, similarity, recovery."""
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
    budgets = sorted(protocol.budgets)
    middle = budgets[len(budgets) // 2]
    if protocol.budget_unit == "percent":
        return similarity_matrix(result.selections, budget_pct=middle)
    return similarity_matrix(result.selections, budget=int(middle))


def _recovery(result: ExperimentResult) -> pd.DataFrame | None:
    from .evaluation._prepare import ALL_FEATURES, SAMPLE_NAME, resolve_path

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
    """One sentence: per-label classifier fits and how many did not converge."""
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
    """A short Markdown report: grid size, primary-metric ranks, Friedman tests."""
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
    """A pipe table of ``table`` (floats with 4 significant digits)."""

    def fmt(v) -> str:
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    header = "| " + " | ".join(map(str, table.columns)) + " |"
    rule = "|" + "---|" * len(table.columns)
    rows = table.itertuples(index=False)
    body = ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join([header, rule, *body])
