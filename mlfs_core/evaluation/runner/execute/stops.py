"""Clean stops: no worker process outlives the run that started it.

- :func:`stop_on_signals` turns SIGTERM and SIGHUP into :class:`Stopped` (a
  :class:`KeyboardInterrupt`, as Ctrl-C's SIGINT already is) while a command
  runs, so the same cleanup runs for all three.
- :func:`shutdown_workers` ends the joblib/loky worker processes (the
  reusable pool and the pinned-kernel worker of :mod:`.pool`); their resource
  tracker then exits and removes the shared-memory files it registered.
- :func:`run_watched` wraps every task a worker process runs: the first task
  a loky worker runs starts a watchdog thread that ends the worker within a
  second once its parent is gone (``kill -9`` of the parent leaves no
  orphan). Workers of a Dask cluster are not children of the run and are
  left alone.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}
"""Exit status of a run stopped by each signal (128 + its number)."""

_WATCH_INTERVAL = 0.5
"""Seconds between a worker's checks that its parent is alive."""


class Stopped(KeyboardInterrupt):
    """The run was asked to stop by a signal (``signum``: which one)."""

    def __init__(self, signum: int):
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Raise :class:`Stopped` in the main thread on SIGINT, SIGTERM or SIGHUP.

    :class:`Stopped` is a :class:`KeyboardInterrupt`. A second signal while the
    first one's cleanup runs is ignored. The previous handlers come back when
    the block ends. Must be entered from the main thread.
    """
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

    def handler(signum, frame):
        for s in signals:
            signal.signal(s, signal.SIG_IGN)  # the cleanup is not interrupted
        raise Stopped(signum)

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread can take signals
        return
    previous = {s: signal.signal(s, handler) for s in signals}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)


def exit_status(exc: BaseException) -> int:
    """The exit status of a run stopped by ``exc`` (130 for Ctrl-C).

    Examples
    --------
    >>> exit_status(Stopped(signal.SIGTERM)), exit_status(KeyboardInterrupt())
    (143, 130)
    """
    return _EXIT_STATUS.get(getattr(exc, "signum", signal.SIGINT), 130)


_SHUTDOWNS: list = []
"""Functions :func:`shutdown_workers` calls first: each ends a worker process a
module of the runner keeps (:mod:`.pool` registers its pinned-kernel worker's
with :func:`on_shutdown`), so this module imports none of them."""


def on_shutdown(fn) -> None:
    """Have :func:`shutdown_workers` call ``fn()`` (once per function)."""
    if fn not in _SHUTDOWNS:
        _SHUTDOWNS.append(fn)


def shutdown_workers() -> None:
    """End every worker process this process started for tasks, and wait for them.

    The loky pool joblib reuses between calls and the pinned-kernel worker
    (:mod:`.pool`) are shut down, their processes killed; loky's resource
    tracker exits once no process holds its pipe, removing the semaphores and
    memory-mapped folders it registered.
    """
    for shutdown in _SHUTDOWNS:
        shutdown()
    try:
        from joblib.externals.loky import reusable_executor
    except ImportError:  # pragma: no cover
        return
    executor = reusable_executor._executor
    if executor is not None:
        executor.shutdown(wait=True, kill_workers=True)
        reusable_executor._executor = None
        reusable_executor._executor_kwargs = None


_WATCHING: list = []


def watch_parent(parent: int) -> None:
    """In a worker whose parent is ``parent``: exit once the parent is gone.

    Starts (once per process) a daemon thread that checks every
    :data:`_WATCH_INTERVAL` seconds whether this process has been re-parented,
    and then ends the process (status 1). Does nothing in the parent itself,
    or in a process that is not ``parent``'s child (a Dask worker).
    """
    if _WATCHING or os.getpid() == parent or os.getppid() != parent:
        return
    _WATCHING.append(parent)

    def watch():
        while os.getppid() == parent:
            time.sleep(_WATCH_INTERVAL)
        os._exit(1)

    threading.Thread(target=watch, name="mlfs-parent-watch", daemon=True).start()


def run_watched(parent: int, fn, args, kwargs):
    """``fn(*args, **kwargs)``, after :func:`watch_parent` (a worker's task)."""
    watch_parent(parent)
    return fn(*args, **kwargs)
