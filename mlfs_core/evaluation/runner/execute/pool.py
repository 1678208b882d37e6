"""The runner's task pool: cached results first, the rest through joblib.

:func:`execute` fetches each task's value from the cache, else runs it with
:func:`parallel` (any joblib backend: loky processes, threads, or a Dask
cluster, :mod:`.cluster`); the *parent* process writes every result to the
cache as it arrives, so workers on other machines never touch the cache
folder. Kernel-dependent tasks never run under a BLAS kernel other than the
pinned one (:func:`parallel`'s pinned worker), and no worker outlives the
run (:mod:`.stops`).
"""

from __future__ import annotations

import atexit
import os
import warnings
from collections.abc import Iterator
from contextlib import closing

from joblib import Parallel, delayed, effective_n_jobs

from .... import blas
from ....cache import DiskCache
from ....errors import MLFSError
from ....plugins import pack, plugin_specs, registered_here, run_with_plugins
from .stops import on_shutdown, run_watched


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
    with closing(parallel(todo, make_call, n_jobs)) as results:
        for i, value in results:
            cache.set(keys[i], value)
            out[i] = value
            tracker.step(label(i))
    return out


def parallel(todo, make_call, n_jobs: int, *, kernel_dependent: bool = False):
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

    pool = Parallel(n_jobs=n_jobs, return_as="generator")
    return _quiet(pool(jobs()))


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
        atexit.register(_shutdown_pinned_worker)
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
        _shutdown_pinned_worker()


def _shutdown_pinned_worker() -> None:
    """Shut the pinned worker down (if it runs) and wait for its process to end."""
    while _PINNED_WORKER:
        _PINNED_WORKER.pop().shutdown(wait=True, kill_workers=True)


on_shutdown(_shutdown_pinned_worker)  # stops.shutdown_workers ends it too
