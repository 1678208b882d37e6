"""How the runner executes tasks and organises the classifier fits.

- :func:`execute`: cached results first, the rest through joblib (any
  backend: loky processes, threads, or a Dask cluster); the *parent* process
  writes every result to the cache as it arrives, so workers on other
  machines never touch the cache folder.
- :func:`run_fits`: every (selection, budget) fit of an experiment, with two
  savings that leave every value unchanged:

  1. **Reuse.** A fit whose columns were already fitted on the same fold
     (AF and a 100 % budget, two methods selecting the same top k) is not
     run again: it gets a copy of that fit's values, marked ``reused``
     (timings 0). "Same columns" means the same ordered column list for
     classifiers whose result may depend on the column order in the last
     bits (LinearSVC sums in column order), and the same column *set* for
     ML-kNN on integer codes (exact distances, order-free). Each fit still
     gets its own cache entry under its own key.
  2. **Budgets together.** Under protocol B (ML-kNN on discretized codes,
     see :func:`~._budget_fits.batchable`) all budgets of one ranking run
     in one task (:func:`~._budget_fits.run_mlknn_budgets`); elsewhere each
     fit is a task of :func:`~._tasks.run_fit`.
"""

from __future__ import annotations

import atexit
import os
import warnings
import zlib
from collections.abc import Iterator
from contextlib import closing

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs

from ... import blas
from ..._entries import check_fit
from ...cache import DiskCache
from ...columns import REUSED
from ...errors import MLFSError
from ...plugins import pack, plugin_specs, registered_here, run_with_plugins
from ..classifiers import kernel_dependent
from .budget_fits import batchable, run_mlknn_budgets
from .keys import task_key
from .stops import on_shutdown, run_watched
from .tasks import run_fit

GROUP_BUDGETS = True
"""Run protocol B's budgets of a ranking together (False: one task per fit;
the benchmark switches it off to show the gain; values are the same)."""


def task_seed(*parts) -> int:
    """A 32-bit seed derived deterministically from ``parts`` (stable across runs)."""
    return zlib.crc32(repr(parts).encode("utf-8"))


def execute(
    keys, make_call, cache: DiskCache, n_jobs: int, tracker, label, check=None
) -> list:
    """Results for ``keys``: from the cache, else by running ``make_call(i)`` tasks.

    Calls are built lazily, only for cache misses, so joblib holds only a few
    tasks' data at a time; each result is cached (by this process) as soon as
    it arrives. ``check(i)``, when given, is the check a cached value of task
    ``i`` must pass (:mod:`mlfs_core._entries`); a refused entry is recomputed.
    """
    out: list = [
        cache.get(k, None if check is None else check(i)) for i, k in enumerate(keys)
    ]
    todo = [i for i, v in enumerate(out) if v is None]
    for i, v in enumerate(out):
        if v is not None:
            tracker.step(f"{label(i)} (cached)")
    with closing(_parallel(todo, make_call, n_jobs)) as results:
        for i, value in results:
            cache.set(keys[i], value)
            out[i] = value
            tracker.step(label(i))
    return out


def _parallel(todo, make_call, n_jobs: int, *, kernel_dependent: bool = False):
    """Run ``make_call(i)`` for each ``i`` in ``todo``; yield ``(i, result)`` pairs.

    Pairs come in ``todo``'s order, each as soon as it and those before it
    are done, and the caller caches each at once: a task that fails ends the
    run (joblib cancels the rest, without its warning about cancelled tasks)
    with the tasks handed over before it cached. (In completion order, joblib
    would let a worker that got no task yet outlive a parent killed with
    ``kill -9``: a worker's watchdog starts with its first task.)

    Kernel-dependent tasks (see :func:`~.classifiers.kernel_dependent`) never
    run in a process whose BLAS is not the pinned kernel (numpy was imported
    before :mod:`mlfs_core`): where joblib would run them in this process, they
    go to one worker process started with the pinned environment instead.
    Worker processes joblib starts inherit the pin from ``os.environ``.
    Each task carries this process's plug-in specs
    (:func:`mlfs_core.plugins.plugin_specs`) and what it registered outside
    plug-ins (:func:`mlfs_core.plugins.registered_here`): a worker process
    (loky, Dask) loads and registers them before it runs the task.
    """
    if not todo:
        return _quiet(iter(()))
    if kernel_dependent and not blas.kernel_matches() and effective_n_jobs(n_jobs) == 1:
        return _in_pinned_worker(todo, make_call)
    specs, additions = plugin_specs(), pack(registered_here())
    parent = os.getpid()

    def jobs():
        for i in todo:
            fn, args, kwargs = make_call(i)
            if specs or additions:
                args = (specs, fn, args, kwargs, additions)
                fn, kwargs = run_with_plugins, {}
            # a loky worker ends itself once this process is gone (stops.py)
            yield delayed(_indexed)(i, parent, fn, args, kwargs)

    parallel = Parallel(n_jobs=n_jobs, return_as="generator")
    return _quiet(parallel(jobs()))


class _Failed:
    """A task's exception, handed back as its value (see :func:`_indexed`)."""

    def __init__(self, error: Exception):
        self.error = error


def _indexed(i: int, parent: int, fn, args, kwargs) -> tuple:
    """``(i, run_watched(parent, fn, args, kwargs))``: a result and its index.

    An exception comes back as a :class:`_Failed` value instead of failing
    the batch joblib grouped the task in, so the batch's finished tasks
    still reach the cache; :func:`_quiet` raises it in turn.
    """
    try:
        return i, run_watched(parent, fn, args, kwargs)
    except Exception as exc:  # noqa: BLE001 - raised again by _quiet, in order
        return i, _Failed(exc)


_EXIT_EARLY = r".*tasks (which were still being processed|have been successfully)"
"""joblib's warning when its generator is closed early (a task failed, the
cache's device filled, a signal): the run's own message says what was kept."""


def _quiet(results) -> Iterator:
    """Yield joblib's results; closed early, end its workers without its warning."""
    try:
        for i, value in results:
            if isinstance(value, _Failed):
                raise value.error
            yield i, value
    finally:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=_EXIT_EARLY)
            close = getattr(results, "close", None)
            if close is not None:
                close()


_PINNED_WORKER: list = []  # the one pinned worker process, started on first use


def _in_pinned_worker(todo, make_call) -> Iterator:
    """Run the tasks in the pinned worker; it is shut down when they are done.

    The worker is shut down when the last result arrives, when the caller
    stops early (an error, Ctrl-C) and at interpreter exit, so it never
    outlives the work nor holds this process's stdout/stderr; it also ends
    itself if this process dies (:func:`~.stops.watch_parent`). A worker that
    dies (a kernel this CPU cannot run) is reported as an error naming the
    kernel.
    """
    from joblib.externals.loky import ProcessPoolExecutor
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    if not _PINNED_WORKER:
        env = blas.pinned_environment()
        _PINNED_WORKER.append(ProcessPoolExecutor(max_workers=1, env=env))
        atexit.register(shutdown_pinned_worker)
    executor = _PINNED_WORKER[0]
    specs, additions = plugin_specs(), pack(registered_here())
    parent = os.getpid()
    try:
        for i in todo:
            fn, args, kwargs = make_call(i)
            call = executor.submit(
                run_watched,
                parent,
                run_with_plugins,
                (specs, fn, args, kwargs, additions),
                {},
            )
            try:
                value = call.result()
            except TerminatedWorkerError as exc:
                kernel = blas.pinned_environment().get(blas.CORETYPE, "?")
                raise MLFSError(
                    f"the worker computing under the pinned BLAS kernel {kernel} "
                    f"died ({exc.__class__.__name__}); set MLFS_BLAS_KERNEL to a "
                    "kernel this CPU runs, or to native"
                ) from None
            yield i, value
    finally:
        shutdown_pinned_worker()


def shutdown_pinned_worker() -> None:
    """Shut the pinned worker down (if it runs) and wait for its process to end."""
    while _PINNED_WORKER:
        _PINNED_WORKER.pop().shutdown(wait=True, kill_workers=True)


on_shutdown(shutdown_pinned_worker)  # stops.shutdown_workers ends it too


def fit_key(s, k: int, config) -> str:
    """Cache key of the fit of selection ``s`` at budget ``k``."""
    p = config.protocol
    desc = {
        "kind": "fit",
        "selection": s.key,
        "budget": k,
        "classifier": [p.classifier.name, p.classifier.params],
        "seed": config.seed,
        "discretize": [p.discretize, p.bins],
        "scaling": p.scaling,
        "labels": p.label_handling,
        "metrics": list(p.metrics),
    }
    if p.evaluation != "definition":  # definition keys stay as they were
        desc["evaluation"] = p.evaluation
    kernel = fit_kernel(p.classifier.name, p.classifier.params)
    if kernel not in (None, blas.DEFAULT_KERNEL_ID):  # pinned keys stay as they were
        desc["blas"] = kernel
    return task_key(desc)


def fit_kernel(name: str, params: dict) -> str | None:
    """The BLAS kernel a fit's values follow, or None when they follow none.

    Kernel-dependent fits run under the pinned kernel where one is pinned
    (see :func:`_parallel`), else under this process's kernel.
    """
    if not kernel_dependent(name, params):
        return None
    return blas.expected_kernel_id() or blas.kernel_id()


def run_fits(
    selections, fits, orders, config, cache, n_jobs, tracker, *, reuse: bool = True
) -> list[dict]:
    """Run (or fetch) every fit; ``fits`` holds (selection index, k, pct) triples.

    With ``reuse`` (default), a fit whose columns equal an earlier fit's on the
    same fold gets a copy of its values (see the module docstring).
    """
    p = config.protocol
    classifier = (p.classifier.name, p.classifier.params)
    order_free = batchable(classifier, p.discretize, p.scaling)
    # a registered convention's fits (evaluation other than "definition")
    # exist only on the batched path (one budget per task when GROUP_BUDGETS
    # is off)
    grouped = order_free and (GROUP_BUDGETS or p.evaluation != "definition")
    keys = [fit_key(selections[j], k, config) for j, k, _ in fits]
    check = check_fit(p.metrics)
    out: list = [cache.get(key, check) for key in keys]
    for i, v in enumerate(out):
        if v is not None:
            tracker.step(f"{_label(selections, fits, i)} (cached)")
    source = _sources(selections, fits, orders, out, order_free, reuse)
    needed = sorted({source[i] for i, v in enumerate(out) if v is None})
    needed = [i for i in needed if out[i] is None]
    runner = _GroupedFits if grouped else _SingleFits
    with closing(runner(selections, fits, orders, config).run(needed, n_jobs)) as got:
        for i, value in got:
            cache.set(keys[i], value)
            out[i] = value
            tracker.step(_label(selections, fits, i))
    for i, v in enumerate(out):
        if v is not None:
            continue
        if keys[i] == keys[source[i]]:
            # The same task twice (e.g. one method under two labels): one
            # cache entry, both get its values as they would from the cache.
            out[i] = out[source[i]]
        else:
            out[i] = _reused(out[source[i]])
            cache.set(keys[i], out[i])
        tracker.step(f"{_label(selections, fits, i)} (reused)")
    return out


def _label(selections, fits, i: int) -> str:
    s, k = selections[fits[i][0]], fits[i][1]
    return f"fit {s.dataset.name} {s.method.label} k={k} fold {s.fold}"


def _sources(selections, fits, orders, out, order_free: bool, reuse: bool):
    """Per fit, the fit whose values it takes: itself, or an identical earlier one.

    A cached member of a group of identical fits is preferred as the source.
    """
    if not reuse:
        return list(range(len(fits)))
    groups: dict = {}
    for i, (j, k, _) in enumerate(fits):
        s = selections[j]
        cols = tuple(orders[j]["order"][:k])
        cols = tuple(sorted(cols)) if order_free else cols
        groups.setdefault((s.dataset.name, s.fold, cols), []).append(i)
    source = list(range(len(fits)))
    for members in groups.values():
        cached = [i for i in members if out[i] is not None]
        first = cached[0] if cached else members[0]
        for i in members:
            source[i] = i if out[i] is not None else first
    return source


def _reused(value: dict) -> dict:
    copy = dict(value)
    copy["metrics"] = dict(value["metrics"])
    copy.update(fit_seconds=0.0, predict_seconds=0.0, metric_seconds=0.0)
    copy[REUSED] = True
    return copy


def _fit_kwargs(p, seed: int) -> dict:
    """Keyword arguments every fit task gets from the protocol."""
    return {
        "classifier": (p.classifier.name, p.classifier.params),
        "seed": task_seed(seed),
        "metrics": tuple(p.metrics),
        "drop_constant": p.label_handling == "drop_constant",
    }


class _FoldRows:
    """Train/test rows of the current (dataset, fold); fits come ordered by both."""

    def __init__(self):
        self.key, self.value = None, None

    def get(self, d, fold: int):
        if self.key != (d.name, fold):
            train, test = d.splits[fold]
            X, Y = d.dataset.X, np.asarray(d.dataset.Y)
            self.key = (d.name, fold)
            self.value = (X[train], Y[train], X[test], Y[test])
        return self.value


class _SingleFits:
    """One :func:`run_fit` task per fit (discretized input if the protocol says so)."""

    def __init__(self, selections, fits, orders, config):
        self.selections, self.fits, self.orders = selections, fits, orders
        self.protocol, self.seed = config.protocol, config.seed
        self.rows = _FoldRows()
        self.codes_key, self.codes = None, None

    def run(self, needed, n_jobs: int) -> Iterator[tuple[int, dict]]:
        c = self.protocol.classifier
        dependent = kernel_dependent(c.name, c.params)
        calls = _parallel(needed, self._call, n_jobs, kernel_dependent=dependent)
        try:
            yield from calls
        finally:
            calls.close()

    def _call(self, i: int):
        j, k, _ = self.fits[i]
        s = self.selections[j]
        X_train, Y_train, X_test, Y_test = self._fold(s)
        cols = np.asarray(self.orders[j]["order"][:k], dtype=np.int64)
        kwargs = _fit_kwargs(self.protocol, self.seed)
        kwargs["scaling"] = self.protocol.scaling
        kwargs["place"] = (
            f"dataset {s.dataset.name!r}, fold {s.fold}, repeat {s.repeat}, budget {k}"
        )
        return run_fit, (X_train[:, cols], Y_train, X_test[:, cols], Y_test), kwargs

    def _fold(self, s):
        X_train, Y_train, X_test, Y_test = self.rows.get(s.dataset, s.fold)
        if self.protocol.discretize == "none":
            return X_train, Y_train, X_test, Y_test
        if self.codes_key != self.rows.key:
            from ...measures.discretize import Discretizer

            p = self.protocol
            disc = Discretizer(bins=p.bins, strategy=p.discretize)
            self.codes_key = self.rows.key
            self.codes = (
                disc.fit(X_train).transform(X_train).astype(np.float64),
                disc.transform(X_test).astype(np.float64),
            )
        return self.codes[0], Y_train, self.codes[1], Y_test


class _GroupedFits:
    """One :func:`run_mlknn_budgets` task per selection, for its needed budgets."""

    def __init__(self, selections, fits, orders, config):
        self.selections, self.fits, self.orders = selections, fits, orders
        self.protocol, self.seed = config.protocol, config.seed
        self.rows = _FoldRows()

    def run(self, needed, n_jobs: int) -> Iterator[tuple[int, dict]]:
        groups: dict[int, list[int]] = {}
        for i in needed:
            groups.setdefault(self.fits[i][0], []).append(i)
        members = list(groups.values())
        calls = range(len(members))
        results = _parallel(calls, lambda g: self._call(members[g]), n_jobs)
        try:
            for g, values in results:
                yield from zip(members[g], values)
        finally:
            results.close()

    def _call(self, group: list[int]):
        j = self.fits[group[0]][0]
        s = self.selections[j]
        budgets = [self.fits[i][1] for i in group]
        X_train, Y_train, X_test, Y_test = self.rows.get(s.dataset, s.fold)
        cols = np.asarray(self.orders[j]["order"][: max(budgets)], dtype=np.int64)
        kwargs = _fit_kwargs(self.protocol, self.seed)
        p = self.protocol
        kwargs.update(discretize=p.discretize, bins=p.bins, evaluation=p.evaluation)
        args = (X_train[:, cols], Y_train, X_test[:, cols], Y_test, budgets)
        return run_mlknn_budgets, args, kwargs
