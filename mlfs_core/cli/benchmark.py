"""The ``mlfs benchmark`` sub-command: a method of yours among a study's methods.

``mlfs benchmark --plugin mine.py --method Mine --suite NAME [--quick]
[--out DIR]`` runs :func:`mlfs_core.benchmark.run_benchmark` (the method's
tasks only; the study's methods come from its committed data where that data
passes its checks), prints the average ranks of the suite's headline metric,
the Friedman test, where the built-in values came from and the time it took,
and writes the folder of :func:`mlfs_core.benchmark.write_benchmark` (a
results source of the app). ``--plugin`` is the global option of every
sub-command (:mod:`mlfs_core.plugins`).

``--suite baselines`` is the suite of the field's baselines
(:func:`mlfs_core.benchmark.run_baselines`): the method against every
registered baseline family (``--all-baselines``: every method of them) on
``--datasets`` (default a documented set) under ``--preset`` (default the
field's protocol), with Friedman and Bonferroni-Dunn against the method and
the tables as CSV and LaTeX.

It runs from an installed package as from a checkout: the suites' configs
and committed study data ship with the package (``--studies DIR`` reads them
from another folder laid out as the repository), the datasets come from
``--data DIR`` or ``MLFS_DATASETS`` (a missing one is named with both), and
an existing output folder is refused without ``--overwrite``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..errors import ConfigError
from ._base import jobs, progress

_DEFAULT_OUT = Path("results") / "benchmarks"
_DEFAULT_CACHE = Path("results") / "cache"


def add_benchmark_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``benchmark`` sub-command to an argparse ``subparsers`` object."""
    p = subparsers.add_parser(
        "benchmark",
        help="run a method on a study's datasets under its protocol and rank it "
        "among the study's methods (average ranks, Friedman/Nemenyi, CD diagram)",
    )
    _add_method_options(p)
    _add_run_options(p)
    _add_source_options(p)
    p.set_defaults(func=_run_benchmark_command)
    return p


def _add_method_options(p: argparse.ArgumentParser) -> None:
    """The method benchmarked and the suite it joins."""
    p.add_argument("--method", required=True, help="a registered method's name")
    p.add_argument(
        "--suite",
        required=True,
        help="the study to compare with: a registered suite (an installed "
        "plug-in's), or 'baselines': every registered baseline family",
    )
    p.add_argument(
        "--all-baselines",
        action="store_true",
        help="--suite baselines: every method of every baseline family "
        "(default: the first two of each)",
    )
    p.add_argument(
        "--preset",
        default="field",
        help="--suite baselines: the protocol preset (default: field)",
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter of the method (VALUE read as JSON, else as text); repeatable",
    )
    p.add_argument("--label", help="the method's name in the tables (default --method)")


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """How much runs, where it is written, workers and cache."""
    p.add_argument(
        "--quick",
        action="store_true",
        help="a few datasets, fewer folds and budgets (minutes on 2 cores)",
    )
    p.add_argument("--datasets", help="comma-separated: only these of the suite")
    p.add_argument(
        "--out",
        help="output folder (default results/benchmarks/SUITE-LABEL[-quick]); "
        "the app lists it as a results source",
    )
    p.add_argument("--jobs", type=jobs, default=1, help="parallel workers (-1 = all)")
    p.add_argument(
        "--cache", help="task cache folder (default results/cache, the studies' own)"
    )
    p.add_argument("--no-cache", action="store_true", help="do not cache task results")
    p.add_argument(
        "--all-figures",
        action="store_true",
        help="a CD diagram for every metric (default: the suite's headline metric)",
    )


def _add_source_options(p: argparse.ArgumentParser) -> None:
    """Where the study's values and datasets come from; what may be replaced."""
    p.add_argument(
        "--recompute",
        action="store_true",
        help="compute the study's methods too instead of using its committed data",
    )
    p.add_argument(
        "--studies",
        metavar="DIR",
        help="read the suite's config and committed study data from DIR, laid "
        "out as the repository (configs/, studies/); default: the checkout's, "
        "else those installed with the package",
    )
    p.add_argument(
        "--data",
        metavar="DIR",
        help="the folder holding the datasets' folders (default $MLFS_DATASETS)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an existing output folder (refused without it)",
    )
    p.add_argument(
        "--trust-plugins",
        action="store_true",
        help="import plug-in code the suite's config names (refused without it, "
        "unless installed as an entry point)",
    )


def method_params(pairs) -> dict:
    """``--param NAME=VALUE`` pairs as a dict (VALUE as JSON, else as text).

    Examples
    --------
    >>> method_params(["k=3", "mode=fast"])
    {'k': 3, 'mode': 'fast'}
    """
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"--param must be NAME=VALUE, got {pair!r}")
        try:
            out[name.strip()] = json.loads(value)
        except ValueError:
            out[name.strip()] = value
    return out


def _check_out_folder(out: Path, overwrite: bool) -> None:
    """Refuse an existing output folder unless ``overwrite``; with it, empty a
    previous benchmark's folder (never a folder that is not one).

    Raises
    ------
    ConfigError
        ``out`` is a file, exists without ``overwrite``, or is not a
        benchmark's output folder.
    """
    import shutil

    from ..benchmark import MANIFEST

    if not out.exists():
        return
    if not out.is_dir():
        raise ConfigError(f"--out {out} is a file, not a folder")
    if not any(out.iterdir()):
        return
    if not overwrite:
        raise ConfigError(
            f"--out {out} already exists; pass --overwrite to replace it, or "
            "choose another folder"
        )
    if not (out / MANIFEST).is_file():
        raise ConfigError(
            f"--out {out} is not a benchmark's output folder (no {MANIFEST}); "
            "--overwrite replaces only those: choose another folder"
        )
    shutil.rmtree(out)


def _datasets_dir(args: argparse.Namespace) -> str | None:
    """``--data DIR``, else ``$MLFS_DATASETS`` (read here, once: the engine
    reads no environment variable), else None."""
    return getattr(args, "data", None) or os.environ.get("MLFS_DATASETS") or None


def _run_baselines_command(args: argparse.Namespace) -> int:
    """Run ``mlfs benchmark --suite baselines``; exit 0 when the tables are written."""
    from ..benchmark import run_baselines

    label = args.label or args.method
    method = {"name": args.method, "params": method_params(args.param), "label": label}
    suffix = "-quick" if args.quick else ""
    out = Path(args.out) if args.out else _DEFAULT_OUT / f"baselines-{label}{suffix}"
    _check_out_folder(out, getattr(args, "overwrite", False))
    only = [d for d in args.datasets.split(",") if d] if args.datasets else None
    result = run_baselines(
        method,
        datasets=only,
        data_dir=_datasets_dir(args),
        quick=args.quick,
        all_baselines=args.all_baselines,
        preset=args.preset,
        out=out,
        cache_dir=None if args.no_cache else (args.cache or _DEFAULT_CACHE),
        n_jobs=args.jobs,
        progress=progress,
    )
    print(file=sys.stderr)
    print(_baselines_report(result))
    return 0


def _baselines_report(result) -> str:
    """What ``mlfs benchmark --suite baselines`` prints: the average ranks per
    metric, the summary paragraph, the times and the folder."""
    ranks = result.average_ranks.pivot(index="method", columns="metric", values="rank")
    metrics = list(dict.fromkeys(result.average_ranks["metric"]))
    ranks = ranks.loc[[*result.baselines, result.method], metrics]
    s = result.timings
    lines = [
        f"{result.method} against {len(result.baselines)} baselines under "
        f"{result.preset}{' (quick)' if result.quick else ''}; average ranks "
        "(1 = best):",
        ranks.round(2).to_string(),
        "",
        result.summary,
        "",
        f"Time: {s['wall']:.1f} s wall; tasks {s['tasks']:.1f} s ({s['n_computed']} "
        f"of {s['n_tasks']} computed), analysis {s['analysis']:.1f} s",
    ]
    if result.folder is not None:
        lines.append(f"Written to {result.folder}")
    return "\n".join(lines)


def _run_benchmark_command(args: argparse.Namespace) -> int:
    """Run ``mlfs benchmark``; exit 0 when the tables are written."""
    from ..benchmark import get_suite, relocated, run_benchmark

    if args.suite == "baselines":
        return _run_baselines_command(args)
    label = args.label or args.method
    method = {"name": args.method, "params": method_params(args.param), "label": label}
    suffix = "-quick" if args.quick else ""
    out = Path(args.out) if args.out else _DEFAULT_OUT / f"{args.suite}-{label}{suffix}"
    _check_out_folder(out, getattr(args, "overwrite", False))
    suite = get_suite(args.suite)
    studies, data = getattr(args, "studies", None), _datasets_dir(args)
    if studies or data:
        suite = relocated(suite, studies=studies, data=data)
    cache = None if args.no_cache else (args.cache or _DEFAULT_CACHE)
    only = [d for d in args.datasets.split(",") if d] if args.datasets else None
    result = run_benchmark(
        suite,
        method,
        quick=args.quick,
        out=out,
        cache_dir=cache,
        n_jobs=args.jobs,
        reuse=not args.recompute,
        datasets=only,
        all_figures=args.all_figures,
        progress=progress,
        trust_plugins=getattr(args, "trust_plugins", False),
    )
    print(file=sys.stderr)
    print(report(result))
    return 0


def report(result) -> str:
    """What ``mlfs benchmark`` prints: ranks, Friedman test, sources, times."""
    suite = result.suite
    metric = suite.metric
    quick = " (quick)" if result.quick else ""
    n = result.results["dataset"].nunique()
    lines = [f"{result.method} on {suite.title}{quick}: {n} datasets"]
    ranks = result.average_ranks[result.average_ranks["metric"] == metric]
    if len(ranks):
        lines.append(f"Average rank by {metric} (1 = best):")
        for row in ranks.itertuples(index=False):
            mark = "  <-" if row.method == result.method else ""
            lines.append(f"  {row.method:<12} {row.mean:6.2f}{mark}")
    test = result.friedman[result.friedman["metric"] == metric]
    if len(test):
        t = test.iloc[0]
        lines.append(
            f"Friedman chi2 = {t['statistic']:.2f}, p = {t['pvalue']:.3g}; "
            f"Nemenyi CD = {t['cd']:.2f} (alpha 0.05)"
        )
    used = [c.dataset for c in result.checks if c.usable]
    redone = [
        f"{c.dataset} ({c.reason})"
        for c in result.checks
        if not c.usable and not c.left_out
    ]
    out = [f"{c.dataset} ({c.reason})" for c in result.checks if c.left_out]
    lines.append(f"Built-in methods from the committed study data: {used or 'none'}")
    if redone:
        lines.append("Built-in methods computed here (or cached): " + "; ".join(redone))
    if out:
        lines.append("Left out: " + "; ".join(out))
    s = result.timings
    lines.append(
        f"Time: {s['wall']:.1f} s wall; your method's tasks {s['method']:.1f} s "
        f"({s['n_method_computed']} computed, "
        f"{s['n_method_tasks'] - s['n_method_computed']} cached), built-in "
        f"tasks {s['builtin']:.1f} s ({s['n_builtin_computed']} computed, "
        f"{s['n_builtin_tasks'] - s['n_builtin_computed']} cached), "
        f"checks {s['checks']:.1f} s"
    )
    if result.folder is not None:
        lines.append(f"Written to {result.folder}")
    return "\n".join(lines)
