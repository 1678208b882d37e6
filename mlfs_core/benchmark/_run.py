"""Running a benchmark: the method's tasks, the built-ins' values, the ranking.

:func:`run_benchmark` runs a registered method on the suite's datasets under
the suite's protocol, exactly as the study ran its own methods (same splits,
seeds, budgets, classifier and metrics: the study's config itself), and puts
it among the study's methods, one dataset at a time:

1. the method's tasks run (or come from the task cache);
2. the built-in methods' values come from the committed study data of the
   dataset when it passes :func:`~._committed.check_committed`; otherwise they
   are computed once into the task cache. A dataset with no committed data at
   all (a study dataset still in progress) is left out unless the cache holds
   all its built-in tasks; ``reuse=False`` computes them;
3. the methods are ranked (:func:`~._ranking.rank_methods`) and, given an
   output folder, the folder is written (:func:`~._folder.write_benchmark`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from ..errors import ConfigError
from ..evaluation.outputs import compact_results, compact_selections
from ..evaluation.runner import (
    Progress,
    execute_plan,
    plan_experiment,
    result_tables,
)
from ._committed import Check, check_committed, committed_rows, committed_selections
from ._folder import write_benchmark
from ._plan import (
    Counter,
    all_cached,
    chosen_datasets,
    folder_name,
    kept_fits,
    label_of,
    method_config,
    task_seconds,
)
from ._ranking import rank_methods, ranks_by_budget
from ._suites import Suite, check_datasets_present, get_suite


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
    start = time.perf_counter()
    suite = get_suite(suite) if isinstance(suite, str) else suite
    config = suite.load_config(trust_plugins=trust_plugins)
    user = method_config(method)
    if user.display in suite.methods:
        raise ConfigError(
            f"method label {user.display!r} is one of suite {suite.name!r}'s "
            f"methods; give it another label"
        )
    specs = chosen_datasets(suite, config, quick, datasets)
    check_datasets_present(suite, specs)
    run = _Run(suite, config, user, quick, cache_dir, n_jobs, reuse, progress)
    for spec in specs:
        run.add_dataset(spec)
    result = run.result(all_figures, start)
    if out is not None:
        folder = write_benchmark(result, out, user, run.selections())
        result = replace(result, folder=folder)
    return result


class _Run:
    """The state of one :func:`run_benchmark` call, filled a dataset at a time."""

    def __init__(self, suite, config, user, quick, cache_dir, n_jobs, reuse, progress):
        self.suite, self.config, self.user, self.quick = suite, config, user, quick
        self.cache_dir, self.n_jobs, self.reuse = cache_dir, n_jobs, reuse
        self.builtins = tuple(m for m in config.methods if m.display in suite.methods)
        self.folds = suite.quick.folds if quick else None
        self.budgets = suite.quick.budgets if quick else None
        keys = ("method", "method_task_seconds", "builtin", "checks")
        self.times = dict.fromkeys(keys, 0.0)
        self.mine_count, self.theirs_count = Counter(progress), Counter(progress)
        self.parts, self.selection_parts, self.checks = [], [], []

    def add_dataset(self, spec) -> None:
        """Plan ``spec``'s tasks, run the method's, get the built-ins' values."""
        one = replace(
            self.config, datasets=(spec,), methods=(*self.builtins, self.user)
        )
        plan = plan_experiment(one)
        kept = kept_fits(plan, self.folds, self.budgets)
        mine = [i for i in kept if label_of(plan, i) == self.user.display]
        others = [i for i in kept if label_of(plan, i) != self.user.display]
        check = self._check(spec, plan, others)
        self.times["checks"] += check.probe_seconds
        if check.missing and not all_cached(plan.with_fits(others), self.cache_dir):
            reason = (
                f"{check.reason}, nor in the cache: left out "
                "(--recompute computes its methods)"
            )
            self.checks.append(replace(check, left_out=True, reason=reason))
            return
        self.checks.append(check)
        tables = self._execute(plan.with_fits(mine), self.mine_count, "method")
        self.times["method_task_seconds"] += task_seconds(tables.timings)
        self._add(tables)
        if check.usable:
            folder = Path(self.suite.data_dir) / folder_name(spec)
            self.parts.append(committed_rows(folder, plan, others))
            self.selection_parts.append(committed_selections(folder, plan, others))
        else:
            self._add(
                self._execute(plan.with_fits(others), self.theirs_count, "builtin")
            )

    def _check(self, spec, plan, others) -> Check:
        if not self.reuse:
            return Check(plan.selections[0].dataset.name, False, "reuse switched off")
        return check_committed(self.suite, spec, plan, others, cache_dir=self.cache_dir)

    def _execute(self, plan, counter: Counter, clock: str):
        """Run ``plan`` (or read it from the cache); its time goes to ``clock``."""
        t0 = time.perf_counter()
        outcome = execute_plan(
            plan, cache_dir=self.cache_dir, n_jobs=self.n_jobs, progress=counter
        )
        self.times[clock] += time.perf_counter() - t0
        return result_tables(outcome)

    def _add(self, tables) -> None:
        self.parts.append(compact_results(tables.results))
        protocol = self.config.protocol
        self.selection_parts.append(compact_selections(tables.selections, protocol))

    def selections(self) -> pd.DataFrame:
        """Every compared method's compact rankings, one table."""
        return pd.concat(self.selection_parts, ignore_index=True)

    def result(self, all_figures: bool, start: float) -> BenchmarkResult:
        """Rank the methods over the datasets used; ConfigError under two."""
        used = [c.dataset for c in self.checks if not c.left_out]
        if len(used) < 2:
            raise ConfigError(
                f"a benchmark needs at least 2 datasets with the suite's values, "
                f"got {used}: "
                + "; ".join(f"{c.dataset}: {c.reason}" for c in self.checks)
            )
        suite = self.suite
        results = pd.concat(self.parts, ignore_index=True)
        ranks, friedman, figures = rank_methods(
            results,
            [*suite.methods, self.user.display],
            title=suite.title,
            figures=None if all_figures else (suite.metric,),
        )
        by_budget = ranks_by_budget(results, suite.metric)
        self.times["wall"] = time.perf_counter() - start
        return BenchmarkResult(
            suite=suite,
            method=self.user.display,
            quick=self.quick,
            results=results,
            average_ranks=ranks,
            friedman=friedman,
            ranks_by_budget=by_budget,
            checks=tuple(self.checks),
            timings={k: round(v, 2) for k, v in self.times.items()} | self._counts(),
            figures=figures,
        )

    def _counts(self) -> dict:
        return {
            "n_method_tasks": self.mine_count.total,
            "n_method_computed": self.mine_count.computed,
            "n_builtin_tasks": self.theirs_count.total,
            "n_builtin_computed": self.theirs_count.computed,
        }
