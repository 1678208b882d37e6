"""Benchmark a method against a study's methods, reusing the study's committed results.

A *suite* (:class:`Suite`) describes a study: its experiment config (datasets
and protocol), the folder of its committed per-dataset results, the methods it
compares and its ``--quick`` subset (:class:`QuickPlan`). Suites are
registered with :func:`register_suite` by plug-ins, the way evaluation
conventions are (:mod:`mlfs_core.evaluation.conventions`): a name the registry
does not know loads the installed plug-ins (entry-point group
``mlfs_explorer.plugins``) once, then the lookup is retried. The engine knows
no suite itself; the reproduction of the two papers registers ``paper000`` and
``paper001`` (:mod:`mlfs_core.reproduction.paper000.suite`,
:mod:`mlfs_core.reproduction.paper001.suite`).

:func:`run_benchmark` runs a registered method on the suite's datasets under
the suite's protocol, exactly as the study ran its own methods (same splits,
seeds, budgets, classifier and metrics: the study's config itself), and puts
it among the study's methods:

1. The method's tasks run (or come from the task cache).
2. The built-in methods' values come from the committed study data of a
   dataset when that data was computed under the same protocol; otherwise
   they are computed once into the task cache. Committed data is reused only
   when every check holds (:func:`check_committed`): the engine version of the
   run that wrote it equals this one, it names the suite's config, the
   dataset's size (N, M, q) and the protocol's name match, it holds every
   (method, fold, budget, metric) the comparison needs, and a *probe*
   recomputes one task of it exactly: the ranking of its cheapest
   deterministic method on the first fold (equal to the committed ranking) and
   that ranking's fit at the smallest budget (equal metric values). The probe
   checks the split, the seed, the preprocessing, the classifier and the
   metrics at once. A dataset with no committed data at all (a study dataset
   still in progress) is left out unless the cache holds all its built-in
   tasks; ``reuse=False`` computes them.
3. Average ranks per metric over the datasets (of each method's mean over
   budgets and folds), the Friedman test with the Nemenyi critical
   difference (:func:`mlfs_core.analysis.friedman_nemenyi`), the average rank
   per budget of the suite's headline metric, and a critical-difference
   diagram per metric (:func:`mlfs_core.plots.cd_diagram`) are written to the
   output folder, with the times.

``quick=True`` runs the suite's :class:`QuickPlan`: a few of its datasets, a
subset of the folds of the *same* cross-validation and a subset of the
budgets. It is a restriction of the study's own plan (never another
protocol), so the committed values of those folds and budgets are reused
exactly.

The output folder is a results source of the app (:func:`find_benchmarks`):
``results.csv.gz`` and ``selections.csv.gz`` in the layout of the studies'
app files, plus ``benchmark.json``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from .columns import (
    BUDGET,
    DATASET,
    FEATURES,
    FOLD,
    MEAN,
    METHOD,
    METRIC,
    REPEAT,
    STAGE,
    STD,
    VALUE,
)
from .errors import ConfigError

MANIFEST = "benchmark.json"
"""The file that marks a folder as a benchmark's output (and describes it)."""
RESULTS_FILE = "results.csv.gz"
SELECTIONS_FILE = "selections.csv.gz"
BENCHMARKS_ENV = "MLFS_BENCHMARKS"
"""Environment variable: extra folders (``os.pathsep``-separated) holding
benchmark outputs for the app."""
COMMITTED = "committed"
COMPUTED = "computed"
LEFT_OUT = "left out"


@dataclass(frozen=True)
class QuickPlan:
    """The ``--quick`` subset of a suite: a restriction of its plan.

    Attributes
    ----------
    datasets : tuple of str
        Dataset names (folder names of the committed data) kept.
    folds : tuple of int, optional
        Fold indices of the protocol's split kept (None: all).
    budgets : tuple, optional
        Budgets of the protocol kept, in the protocol's unit (None: all).
        A method evaluated at all features only (AF) keeps its one budget.
    """

    datasets: tuple[str, ...]
    folds: tuple[int, ...] | None = None
    budgets: tuple | None = None


@dataclass(frozen=True)
class Suite:
    """A study a method can be benchmarked against (:func:`run_benchmark`).

    Attributes
    ----------
    name : str
        What ``mlfs benchmark --suite`` takes.
    title : str
        One line for tables, figures and the app.
    config : path
        The study's experiment config (TOML). Its datasets, protocol and seed
        are the benchmark's.
    data_dir : path
        The committed per-dataset data: ``<data_dir>/<dataset>/`` with
        ``results.csv.gz``, ``selections.csv.gz``, ``timings.csv`` and
        ``meta.json``.
    methods : tuple of str
        Labels of the config's methods the benchmarked method is compared with.
    metric : str
        The headline metric (the average rank per budget is given for it).
    quick : QuickPlan
    base_dir : path, optional
        Folder the config's relative dataset paths are resolved against
        (default: the config's folder).
    datasets_dir : path, optional
        Where the datasets are: each dataset of the config is read from
        ``<datasets_dir>/<its folder name>`` instead of its path.
    description : str
    """

    name: str
    title: str
    config: Path
    data_dir: Path
    methods: tuple[str, ...]
    metric: str
    quick: QuickPlan
    base_dir: Path | None = None
    datasets_dir: Path | None = None
    description: str = ""

    def load_config(self, *, trust_plugins: bool = False):
        """The suite's :class:`~mlfs_core.evaluation.ExperimentConfig`.

        A config naming plug-in code not installed here is refused before
        anything is imported, unless ``trust_plugins``
        (:mod:`mlfs_core.evaluation.runner.trust`).

        Raises
        ------
        ConfigError
            When the config file is missing (a suite reads its study from a
            checkout of the repository), or names untrusted plug-in code.
        """
        from .evaluation.config import DatasetSpec, load_config
        from .evaluation.runner.trust import check_config_trusted

        path = Path(self.config)
        if not path.is_file():
            raise ConfigError(
                f"suite {self.name!r}: its config {path} is not there; point "
                "mlfs benchmark --studies DIR at a folder laid out as the "
                "repository (configs/ and studies/, e.g. a checkout)"
            )
        check_config_trusted(path, trust=trust_plugins, command="mlfs benchmark")
        config = load_config(path)
        if self.base_dir is not None:
            config = replace(config, base_dir=str(self.base_dir))
        if self.datasets_dir is not None:
            moved = tuple(
                replace(d, path=str(Path(self.datasets_dir) / Path(d.path).name))
                if isinstance(d, DatasetSpec)
                else d
                for d in config.datasets
            )
            config = replace(config, datasets=moved)
        labels = [m.display for m in config.methods]
        missing = [m for m in self.methods if m not in labels]
        if missing:
            raise ConfigError(
                f"suite {self.name!r}: methods {missing} are not in {path.name} "
                f"(it has {labels})"
            )
        return config


SUITES: dict[str, Suite] = {}
"""Suite name -> :class:`Suite`, in registration order."""


def relocated(suite: Suite, *, studies=None, data=None) -> Suite:
    """``suite`` with its study files and datasets read from other folders.

    Parameters
    ----------
    suite : Suite
    studies : path, optional
        A folder laid out as the repository: the config is read from
        ``<studies>/configs/<the config's file name>`` and the committed data
        from ``<studies>/studies/<suite name>/data`` (``mlfs benchmark
        --studies``).
    data : path, optional
        The folder holding the datasets' folders (``mlfs benchmark --data``;
        default ``$MLFS_DATASETS``).

    Returns
    -------
    Suite

    Examples
    --------
    >>> s = Suite("x", "X", Path("c/study_x.toml"), Path("d"), ("A",), "m",
    ...           QuickPlan(("a",)))
    >>> r = relocated(s, studies="/repo", data="/sets")
    >>> r.config.as_posix(), r.data_dir.as_posix(), r.datasets_dir.as_posix()
    ('/repo/configs/study_x.toml', '/repo/studies/x/data', '/sets')
    """
    changes: dict = {}
    if studies is not None:
        root = Path(studies)
        changes["config"] = root / "configs" / Path(suite.config).name
        changes["data_dir"] = root / "studies" / suite.name / "data"
        changes["base_dir"] = root
    if data is not None:
        changes["datasets_dir"] = Path(data)
    return replace(suite, **changes) if changes else suite


def _check_datasets_present(suite: Suite, specs) -> None:
    """Refuse, naming ``--data`` and ``MLFS_DATASETS``, a dataset not found."""
    from .evaluation.config import DatasetSpec

    for spec in specs:
        if not isinstance(spec, DatasetSpec):
            continue
        path = Path(spec.path)
        if suite.base_dir is not None and not path.is_absolute():
            path = Path(suite.base_dir) / path
        if not path.exists():
            env = os.environ.get("MLFS_DATASETS")
            now = f"MLFS_DATASETS is {env!r}" if env else "MLFS_DATASETS is not set"
            raise ConfigError(
                f"suite {suite.name!r}: dataset {path.name!r} not found at {path}; "
                "pass mlfs benchmark --data DIR (the folder holding the datasets' "
                f"folders) or set MLFS_DATASETS to it ({now})"
            )


def register_suite(suite: Suite) -> Suite:
    """Make ``suite`` available to :func:`run_benchmark` (re-registering replaces it).

    Parameters
    ----------
    suite : Suite

    Returns
    -------
    Suite
    """
    if not isinstance(suite, Suite):
        raise ConfigError(f"register_suite needs a Suite, got {type(suite).__name__}")
    SUITES[suite.name] = suite
    return suite


def _load_installed_plugins() -> None:
    try:
        from .plugins import load_plugins
    except ImportError:  # an engine without mlfs_core.plugins: entry points only
        from .evaluation.conventions import load_plugins as load_entry_points

        load_entry_points()
        return
    load_plugins(entry_points=True, environment=True)


def list_suites() -> list[str]:
    """Names of the registered suites (installed plug-ins loaded first)."""
    _load_installed_plugins()
    return list(SUITES)


def get_suite(name: str) -> Suite:
    """The registered suite ``name``.

    Raises
    ------
    ConfigError
        For an unknown name; the message lists the registered suites.
    """
    if name not in SUITES:
        _load_installed_plugins()
    try:
        return SUITES[name]
    except KeyError:
        raise ConfigError(
            f"unknown suite {name!r}; registered: {sorted(SUITES) or 'none'} "
            "(plug-ins register suites with mlfs_core.benchmark.register_suite)"
        ) from None


@dataclass(frozen=True)
class Check:
    """Whether a dataset's committed data can stand for the built-in methods.

    Attributes
    ----------
    dataset : str
    usable : bool
    reason : str
        Why not (empty when usable), or what the probe compared.
    probe_seconds : float
        Time spent recomputing the probe task (0 when it came from the cache).
    missing : bool
        The dataset has no committed data (e.g. a study dataset in progress).
    left_out : bool
        The benchmark left the dataset out: no committed data, and the task
        cache does not hold every built-in task it needs.
    """

    dataset: str
    usable: bool
    reason: str
    probe_seconds: float = 0.0
    missing: bool = False
    left_out: bool = False


@dataclass(frozen=True)
class BenchmarkResult:
    """What :func:`run_benchmark` computed and wrote.

    Attributes
    ----------
    suite : Suite
    method : str
        The benchmarked method's label.
    quick : bool
    results : DataFrame
        Tidy results of every compared method (repeats averaged):
        ``dataset, protocol, method, budget, budget_pct, fold, metric, value``.
    average_ranks : DataFrame
        ``metric, method, mean, std, n_datasets``: each method's average rank
        (1 = best) over the datasets, per metric.
    friedman : DataFrame
        Per metric: the Friedman statistic and p-value, Iman-Davenport's F,
        the Nemenyi CD, ``n_datasets``, ``n_methods`` and the ``best`` method.
    ranks_by_budget : DataFrame
        Average rank per budget of the headline metric
        (:func:`mlfs_core.analysis.rank_table`).
    checks : tuple of Check
        Per dataset, whether its committed data was used (or the dataset
        left out).
    timings : dict
        Seconds: ``wall`` (the whole call), ``method`` (the method's tasks:
        their wall time here), ``method_task_seconds`` (their measured
        selection and fit times), ``builtin`` (built-in tasks computed here),
        ``checks`` (the probes); ``n_method_tasks`` and ``n_builtin_tasks``
        count the tasks run or read from the cache, ``n_method_computed`` and
        ``n_builtin_computed`` those computed.
    folder : Path or None
        The output folder.
    figures : dict
        Metric -> plotly figure of its critical-difference diagram.
    """

    suite: Suite
    method: str
    quick: bool
    results: pd.DataFrame
    average_ranks: pd.DataFrame
    friedman: pd.DataFrame
    ranks_by_budget: pd.DataFrame
    checks: tuple
    timings: dict
    folder: Path | None = None
    figures: dict = field(default_factory=dict)


Progress = Callable[[int, int, str], None]


def run_benchmark(
    suite: str | Suite,
    method,
    *,
    quick: bool = False,
    out=None,
    cache_dir=None,
    n_jobs: int = 1,
    reuse: bool = True,
    datasets: Sequence[str] | None = None,
    all_figures: bool = False,
    progress: Progress | None = None,
    trust_plugins: bool = False,
) -> BenchmarkResult:
    """Run ``method`` on a suite's datasets under its protocol, beside its methods.

    Parameters
    ----------
    suite : str or Suite
        A registered suite's name (:func:`get_suite`) or a :class:`Suite`.
    method : str or MethodConfig or mapping
        A registered method's name, or a method config (``name``, ``params``,
        ``label``) as an experiment config lists it.
    quick : bool, default=False
        Run the suite's :class:`QuickPlan` only.
    out : path, optional
        Folder to write the outputs to (created); default: write nothing.
    cache_dir : path, optional
        The task cache (default none: every task of the method runs).
    n_jobs : int, default=1
        Parallel workers of the tasks (values do not depend on it).
    reuse : bool, default=True
        Use the committed study data where it passes :func:`check_committed`;
        False computes the built-in methods too (into the cache).
    datasets : sequence of str, optional
        Only these datasets of the suite (or of its quick subset).
    all_figures : bool, default=False
        A critical-difference diagram for every metric (default: the suite's
        headline metric only; a figure costs about a second).
    progress : callable, optional
        ``progress(done, total, message)`` after every task.
    trust_plugins : bool, default=False
        Import plug-in code the suite's config names even when it is not
        installed here (else refused, naming it).

    Returns
    -------
    BenchmarkResult

    Raises
    ------
    ConfigError
        An unknown suite, method, method parameter or dataset; a label the
        suite's methods already use; fewer than two datasets.
    """
    from .evaluation import execute_plan, plan_experiment, result_tables

    start = time.perf_counter()
    suite = get_suite(suite) if isinstance(suite, str) else suite
    config = suite.load_config(trust_plugins=trust_plugins)
    user = _method_config(method)
    if user.display in suite.methods:
        raise ConfigError(
            f"method label {user.display!r} is one of suite {suite.name!r}'s "
            f"methods; give it another label"
        )
    specs = _chosen_datasets(suite, config, quick, datasets)
    _check_datasets_present(suite, specs)
    builtins = tuple(m for m in config.methods if m.display in suite.methods)
    folds = suite.quick.folds if quick else None
    budgets = suite.quick.budgets if quick else None
    times = dict.fromkeys(("method", "method_task_seconds", "builtin", "checks"), 0.0)
    mine_count, theirs_count = _Counter(progress), _Counter(progress)
    parts, selections, checks = [], [], []
    for spec in specs:
        one = replace(config, datasets=(spec,), methods=(*builtins, user))
        plan = plan_experiment(one)
        kept = _kept_fits(plan, folds, budgets)
        mine = [i for i in kept if _label(plan, i) == user.display]
        others = [i for i in kept if _label(plan, i) != user.display]
        name = plan.selections[0].dataset.name
        if reuse:
            check = check_committed(suite, spec, plan, others, cache_dir=cache_dir)
        else:
            check = Check(name, False, "reuse switched off")
        times["checks"] += check.probe_seconds
        if check.missing and not _all_cached(plan.with_fits(others), cache_dir):
            checks.append(
                replace(
                    check,
                    left_out=True,
                    reason=f"{check.reason}, nor in the cache: left out "
                    "(--recompute computes its methods)",
                )
            )
            continue
        checks.append(check)
        t0 = time.perf_counter()
        outcome = execute_plan(
            plan.with_fits(mine),
            cache_dir=cache_dir,
            n_jobs=n_jobs,
            progress=mine_count,
        )
        times["method"] += time.perf_counter() - t0
        tables = result_tables(outcome)
        times["method_task_seconds"] += _task_seconds(tables.timings)
        parts.append(compact_results(tables.results))
        selections.append(_compact_selections(tables.selections, config.protocol))
        if check.usable:
            folder = Path(suite.data_dir) / _folder_name(spec)
            parts.append(_committed_rows(folder, plan, others))
            selections.append(_committed_selections(folder, plan, others))
            continue
        t0 = time.perf_counter()
        theirs = execute_plan(
            plan.with_fits(others),
            cache_dir=cache_dir,
            n_jobs=n_jobs,
            progress=theirs_count,
        )
        times["builtin"] += time.perf_counter() - t0
        tables = result_tables(theirs)
        parts.append(compact_results(tables.results))
        selections.append(_compact_selections(tables.selections, config.protocol))
    used = [c.dataset for c in checks if not c.left_out]
    if len(used) < 2:
        raise ConfigError(
            f"a benchmark needs at least 2 datasets with the suite's values, got "
            f"{used}: " + "; ".join(f"{c.dataset}: {c.reason}" for c in checks)
        )
    counts = {
        "n_method_tasks": mine_count.total,
        "n_method_computed": mine_count.computed,
        "n_builtin_tasks": theirs_count.total,
        "n_builtin_computed": theirs_count.computed,
    }
    results = pd.concat(parts, ignore_index=True)
    methods = [*suite.methods, user.display]
    ranks, friedman, figures = rank_methods(
        results,
        methods,
        title=suite.title,
        figures=None if all_figures else (suite.metric,),
    )
    by_budget = _ranks_by_budget(results, suite.metric)
    times["wall"] = time.perf_counter() - start
    timings = {k: round(v, 2) for k, v in times.items()} | counts
    result = BenchmarkResult(
        suite=suite,
        method=user.display,
        quick=quick,
        results=results,
        average_ranks=ranks,
        friedman=friedman,
        ranks_by_budget=by_budget,
        checks=tuple(checks),
        timings=timings,
        figures=figures,
    )
    if out is not None:
        sel = pd.concat(selections, ignore_index=True)
        result = replace(result, folder=write_benchmark(result, out, user, sel))
    return result


class _Counter:
    """A progress callback counting the tasks it sees, and those not cached."""

    def __init__(self, progress: Progress | None):
        self.progress, self.total, self.computed = progress, 0, 0

    def __call__(self, done: int, total: int, message: str) -> None:
        self.total += 1
        self.computed += not message.endswith(("(cached)", "(reused)"))
        if self.progress is not None:
            self.progress(done, total, message)


def _all_cached(plan, cache_dir) -> bool:
    """Whether the cache holds every selection and fit of ``plan``."""
    from .cache import DiskCache

    cache = DiskCache(cache_dir)
    if cache.directory is None:
        return False
    keys = [plan.selections[j].key for j in plan.needed_selections]
    keys += [plan.fit_key(i) for i in range(len(plan.fits))]
    return all(cache.get(k) is not None for k in keys)


def _method_config(method):
    from collections.abc import Mapping

    from .evaluation.config import MethodConfig

    if isinstance(method, MethodConfig):
        return method
    if isinstance(method, str):
        return MethodConfig(name=method)
    if isinstance(method, Mapping):
        allowed = {"name", "params", "label"}
        unknown = sorted(set(method) - allowed)
        if unknown or "name" not in method:
            raise ConfigError(
                f"method: a table needs 'name' and may have 'params' and 'label', "
                f"got keys {sorted(method)}"
            )
        return MethodConfig(
            name=str(method["name"]),
            params=dict(method.get("params") or {}),
            label=method.get("label"),
        )
    raise ConfigError(f"method: cannot use a {type(method).__name__} here")


def _folder_name(spec) -> str:
    return Path(spec.path).name


def _chosen_datasets(suite: Suite, config, quick: bool, only):
    specs = list(config.datasets)
    names = [_folder_name(s) for s in specs]
    wanted = list(suite.quick.datasets) if quick else names
    if only is not None:
        unknown = [d for d in only if d not in wanted]
        if unknown:
            raise ConfigError(
                f"datasets {unknown} are not in suite {suite.name!r}"
                f"{' (quick)' if quick else ''}; it has {wanted}"
            )
        wanted = [d for d in wanted if d in only]
    missing = [d for d in wanted if d not in names]
    if missing:
        raise ConfigError(f"suite {suite.name!r}: {missing} not in {config.name}")
    if len(wanted) < 2:
        raise ConfigError(
            f"a benchmark needs at least 2 datasets (the Friedman test), got {wanted}"
        )
    return [specs[names.index(d)] for d in wanted]


def _label(plan, i: int) -> str:
    return plan.selections[plan.fits[i].selection].method.label


def _kept_fits(plan, folds, budgets) -> list[int]:
    """Indices of the plan's fits in ``folds`` and at ``budgets`` (None: all)."""
    unit = plan.config.protocol.budget_unit
    wanted = None if budgets is None else {float(b) for b in budgets}
    kept = []
    for i, f in enumerate(plan.fits):
        s = plan.selections[f.selection]
        if folds is not None and s.fold not in folds:
            continue
        if wanted is not None and not s.method.is_all_features:
            value = f.pct if unit == "percent" else f.k
            if float(value) not in wanted:
                continue
        kept.append(i)
    return kept


def _task_seconds(timings: pd.DataFrame) -> float:
    return float(np.nansum(timings["seconds"].to_numpy(dtype=float)))


def compact_results(results: pd.DataFrame) -> pd.DataFrame:
    """Results with stochastic repeats averaged, as the studies commit them.

    Parameters
    ----------
    results : DataFrame
        The runner's tidy results.

    Returns
    -------
    DataFrame
        One row per (dataset, protocol, method, budget, budget_pct, fold,
        metric), no ``repeat`` column.
    """
    keys = [c for c in results.columns if c not in (REPEAT, VALUE)]
    return results.groupby(keys, as_index=False, dropna=False, sort=False)[VALUE].mean()


def _compact_selections(selections: pd.DataFrame, protocol) -> pd.DataFrame:
    """First-repeat rankings cut at the similarity budget, features as text."""
    from ._validation import budget_from_percent
    from .evaluation.config import middle_budget

    first = selections[selections[REPEAT] == 0].copy()
    middle = middle_budget(protocol)

    def cut(row) -> str:
        m = int(row["n_features"])
        if protocol.budget_unit == "percent":
            k = budget_from_percent(middle, m)
        else:
            k = int(max(protocol.budgets))
        return " ".join(map(str, np.asarray(row[FEATURES])[:k]))

    first[FEATURES] = [cut(r) for _, r in first.iterrows()] if len(first) else []
    return first


def _needed(plan, fit_indices) -> pd.DataFrame:
    """The (method, fold, budget) rows the built-ins' kept fits stand for."""
    rows = {
        (
            plan.selections[plan.fits[i].selection].method.label,
            plan.selections[plan.fits[i].selection].fold,
            plan.fits[i].k,
        )
        for i in fit_indices
    }
    return pd.DataFrame(sorted(rows), columns=[METHOD, FOLD, BUDGET])


def _read_committed(folder: Path) -> pd.DataFrame:
    return pd.read_csv(folder / "results.csv.gz")


def _committed_rows(folder: Path, plan, fit_indices) -> pd.DataFrame:
    table = _read_committed(folder)
    needed = _needed(plan, fit_indices)
    return table.merge(needed, on=[METHOD, FOLD, BUDGET], how="inner")


def _committed_selections(folder: Path, plan, fit_indices) -> pd.DataFrame:
    path = folder / "selections.csv.gz"
    if not path.is_file():
        return pd.DataFrame()
    table = pd.read_csv(path, dtype={FEATURES: str}, keep_default_na=False)
    needed = _needed(plan, fit_indices)[[METHOD, FOLD]].drop_duplicates()
    return table.merge(needed, on=[METHOD, FOLD], how="inner")


def current_engine() -> str:
    """This engine's version as the studies record it (``<version>+cache<N>``)."""
    from . import __version__
    from .cache import CACHE_VERSION

    return f"{__version__}+cache{CACHE_VERSION}"


def check_committed(
    suite: Suite, spec, plan, fit_indices, *, cache_dir=None, probe: bool = True
) -> Check:
    """Whether a dataset's committed data holds the built-ins' values of ``plan``.

    Parameters
    ----------
    suite : Suite
    spec : DatasetSpec
        The dataset, as the suite's config lists it.
    plan : Plan
        The dataset's plan (the suite's protocol, built-ins and the method).
    fit_indices : sequence of int
        The built-ins' fits the benchmark needs.
    cache_dir : path, optional
        Task cache of the probe.
    probe : bool, default=True
        Recompute the probe task (see the module docstring).

    Returns
    -------
    Check
    """
    from .evaluation import execute_plan

    name = plan.selections[0].dataset.name
    folder = Path(suite.data_dir) / _folder_name(spec)

    def no(reason: str, seconds: float = 0.0) -> Check:
        return Check(name, False, reason, seconds)

    if (
        not (folder / "results.csv.gz").is_file()
        or not (folder / "meta.json").is_file()
    ):
        return Check(name, False, f"no committed data in {folder}", missing=True)
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    engine = meta.get("code_version", {}).get("engine", "unrecorded")
    if engine != current_engine():
        return no(f"committed by engine {engine}, this is {current_engine()}")
    recorded = Path(str(meta.get("config", ""))).name
    if recorded != Path(suite.config).name:
        return no(f"committed from config {recorded!r}, not {Path(suite.config).name}")
    ds = plan.selections[0].dataset.dataset
    shape = {"N": ds.X.shape[0], "M": ds.X.shape[1], "q": np.asarray(ds.Y).shape[1]}
    stats = meta.get("stats", {})
    if any(stats.get(k) != v for k, v in shape.items()):
        return no(f"dataset size {shape} differs from the committed {stats}")
    table = _read_committed(folder)
    protocols = set(table["protocol"].astype(str))
    if protocols != {plan.config.protocol.name}:
        return no(
            f"committed protocol {sorted(protocols)}, suite's is "
            f"{plan.config.protocol.name!r}"
        )
    needed = _needed(plan, fit_indices)
    metrics = list(plan.config.protocol.metrics)
    have = table[table[METRIC].isin(metrics)].groupby([METHOD, FOLD, BUDGET])[METRIC]
    counts = have.nunique().rename("n").reset_index()
    joined = needed.merge(counts, on=[METHOD, FOLD, BUDGET], how="left")
    short = joined[joined["n"].fillna(0) < len(metrics)]
    if len(short):
        first = short.iloc[0]
        return no(
            f"{len(short)} (method, fold, budget) value sets missing from the "
            f"committed data (first: {first[METHOD]} fold {first[FOLD]} budget "
            f"{first[BUDGET]})"
        )
    if not probe:
        return Check(name, True, "committed data (not probed)")
    return _probe(folder, plan, fit_indices, table, cache_dir, execute_plan)


def _probe(folder, plan, fit_indices, table, cache_dir, execute_plan) -> Check:
    """Recompute the cheapest deterministic built-in's first kept fit; compare."""
    name = plan.selections[0].dataset.name
    candidates = [
        i
        for i in fit_indices
        if not plan.selections[plan.fits[i].selection].method.stochastic
        and not plan.selections[plan.fits[i].selection].method.is_all_features
    ]
    if not candidates:
        return Check(name, False, "no deterministic method to probe the data with")
    cost = _selection_cost(folder)
    first = min(
        candidates,
        key=lambda i: (
            cost.get(_label(plan, i), np.inf),
            plan.selections[plan.fits[i].selection].fold,
            plan.fits[i].k,
        ),
    )
    fit = plan.fits[first]
    s = plan.selections[fit.selection]
    t0 = time.perf_counter()
    outcome = execute_plan(plan.with_fits([first]), cache_dir=cache_dir)
    seconds = time.perf_counter() - t0
    where = f"{s.method.label} fold {s.fold} budget {fit.k}"
    order = np.asarray(outcome.orders[fit.selection]["order"], dtype=np.int64)
    committed = _committed_selections(folder, plan, [first])
    committed = committed[committed[REPEAT] == 0] if len(committed) else committed
    if len(committed) != 1:
        return Check(name, False, f"no committed ranking of {where}", seconds)
    text = str(committed[FEATURES].iloc[0])
    features = np.asarray([int(x) for x in text.split()], dtype=np.int64)
    n = min(len(features), len(order))
    if n == 0 or not np.array_equal(order[:n], features[:n]):
        return Check(name, False, f"probe {where}: the ranking differs", seconds)
    rows = table[
        (table[METHOD] == s.method.label)
        & (table[FOLD] == s.fold)
        & (table[BUDGET] == fit.k)
    ]
    values = dict(zip(rows[METRIC], rows[VALUE]))
    mine = outcome.fits[0]["metrics"]
    differ = [
        m
        for m, v in mine.items()
        if m in values and not np.isclose(v, values[m], rtol=1e-9, atol=1e-12)
    ]
    if differ or not set(mine) <= set(values):
        return Check(
            name, False, f"probe {where}: {differ or 'metrics'} differ", seconds
        )
    return Check(name, True, f"probe {where} recomputed equal", seconds)


def _selection_cost(folder: Path) -> dict[str, float]:
    path = folder / "timings.csv"
    if not path.is_file():
        return {}
    t = pd.read_csv(path)
    t = t[t[STAGE] == "selection"]
    return t.groupby(METHOD)["seconds"].sum().to_dict()


def rank_methods(
    results: pd.DataFrame,
    methods: Sequence[str],
    *,
    title: str = "",
    alpha: float = 0.05,
    figures: Sequence[str] | None = None,
):
    """Average ranks, Friedman/Nemenyi per metric and a CD diagram per metric.

    Each method's value on a dataset is its mean over budgets of the means
    over folds (:func:`mlfs_core.analysis.dataset_means`); only datasets on
    which every method has a value take part.

    Parameters
    ----------
    results : DataFrame
        Tidy results (``dataset, method, budget, fold, metric, value``).
    methods : sequence of str
        The methods to rank.
    title : str
        Prefix of the figures' titles.
    alpha : float, default=0.05
        Significance level of the critical difference.
    figures : sequence of str, optional
        The metrics to draw a diagram of (default every metric).

    Returns
    -------
    (DataFrame, DataFrame, dict)
        Average ranks (``metric, method, mean, std, n_datasets``), the
        Friedman table (one row per metric) and metric -> CD figure. A metric
        with fewer than 2 complete datasets is left out.
    """
    from .analysis import dataset_means, friedman_nemenyi
    from .evaluation import higher_is_better
    from .plots import cd_diagram

    means = dataset_means(results[results[METHOD].isin(list(methods))])
    rank_rows, test_rows, drawn = [], [], {}
    for metric, sub in means.groupby(METRIC, sort=False):
        table = sub.rename(columns={MEAN: VALUE})[[DATASET, METHOD, VALUE]]
        complete = table.groupby(DATASET)[METHOD].transform("nunique") == len(methods)
        table = table[complete]
        if table[DATASET].nunique() < 2:
            continue
        res = friedman_nemenyi(
            table, alpha=alpha, higher_is_better=higher_is_better(metric)
        )
        ranks = res.ranks
        for m, row in ranks.iterrows():
            rank_rows.append(
                {
                    METRIC: metric,
                    METHOD: m,
                    MEAN: float(row[MEAN]),
                    STD: float(row[STD]),
                    "n_datasets": res.n_datasets,
                }
            )
        test_rows.append({METRIC: metric, **res.summary(), "best": ranks.index[0]})
        if figures is None or metric in figures:
            label = f"{title}: {metric}" if title else metric
            drawn[metric] = cd_diagram(ranks[MEAN], res.cd, title=label)
    rank_cols = [METRIC, METHOD, MEAN, STD, "n_datasets"]
    from .analysis.stats import SUMMARY_COLUMNS

    test_cols = [METRIC, *SUMMARY_COLUMNS, "best"]
    return (
        pd.DataFrame(rank_rows, columns=rank_cols),
        pd.DataFrame(test_rows, columns=test_cols),
        drawn,
    )


def _ranks_by_budget(results: pd.DataFrame, metric: str) -> pd.DataFrame:
    from .analysis import rank_table
    from .evaluation import higher_is_better

    if metric not in set(results[METRIC]):
        return pd.DataFrame()
    return rank_table(results, metric=metric, higher_is_better=higher_is_better(metric))


def write_benchmark(result: BenchmarkResult, out, method, selections) -> Path:
    """Write a benchmark's files to the folder ``out`` (created).

    Files: ``results.csv.gz`` and ``selections.csv.gz`` (the app's results
    source), ``average_ranks.csv``, ``friedman.csv``, ``ranks_by_budget.csv``,
    ``cd_<metric>.html`` (with ``plotly.min.js`` beside them, no network
    needed to view them) and ``benchmark.json`` (suite, method, subset, where
    the built-ins' values came from, times).

    Returns
    -------
    Path
        The folder.
    """
    import plotly.io as pio

    from .evaluation.outputs import write_table

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
        "engine": current_engine(),
        "plugins": _plugin_specs(),
    }
    text = json.dumps(manifest, indent=2, default=str) + "\n"
    (folder / MANIFEST).write_text(text, encoding="utf-8")
    return folder


def _source(check: Check) -> str:
    if check.left_out:
        return LEFT_OUT
    return COMMITTED if check.usable else COMPUTED


def _plugin_specs() -> list[str]:
    try:
        from .plugins import plugin_specs
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
    """Benchmark folders under ``roots`` and ``$MLFS_BENCHMARKS``: label -> folder.

    A folder counts when it holds ``benchmark.json`` and ``results.csv.gz``;
    a root may itself be one. Unreadable manifests are skipped; a label that
    repeats gets the folder name appended.

    Parameters
    ----------
    *roots : path
        Folders to look in (one level deep).

    Returns
    -------
    dict
        Label -> folder, sorted by folder path.
    """
    extra = os.environ.get(BENCHMARKS_ENV, "")
    candidates: list[Path] = []
    for root in [*roots, *(p for p in extra.split(os.pathsep) if p)]:
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


__all__ = [
    "BENCHMARKS_ENV",
    "BenchmarkResult",
    "Check",
    "MANIFEST",
    "QuickPlan",
    "SUITES",
    "Suite",
    "benchmark_label",
    "check_committed",
    "compact_results",
    "current_engine",
    "find_benchmarks",
    "get_suite",
    "list_suites",
    "rank_methods",
    "read_manifest",
    "register_suite",
    "run_benchmark",
    "write_benchmark",
]
