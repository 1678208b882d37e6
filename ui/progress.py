"""The progress text of a long run: a time-left estimate that moves while a task runs.

The runner reports when a task finishes. One task can run for a minute (a
greedy method on a large dataset), and a text computed only at those
moments would stand still ("about 10 s left" for a minute). :class:`TimeLeft`
computes the text at any moment from the finished tasks' pace and the time
the current task has run; :func:`ticking` redraws it every second from a
helper thread while the script thread is inside the engine.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

WINDOW = 5
"""How many of the last finished tasks give the pace."""
SETTLE = 2.0
"""Seconds a task may outlast the pace before the text says how long it runs."""


def duration_text(seconds: float) -> str:
    """A duration as the progress text says it: "8 s", "about 40 s", "3 min".

    Examples
    --------
    >>> duration_text(8.4), duration_text(44), duration_text(170)
    ('8 s', 'about 40 s', 'about 3 min')
    """
    if seconds < 10:
        return f"{int(seconds)} s"
    if seconds < 90:
        return f"about {10 * int(seconds / 10 + 0.5)} s"
    return f"about {int(seconds / 60 + 0.5)} min"


class TimeLeft:
    """Time-left estimate of a run of ``total`` tasks, readable at any moment.

    Parameters
    ----------
    clock : callable, default=time.monotonic
        Seconds as a float; a test passes a fake clock.

    Examples
    --------
    >>> now = [0.0]
    >>> eta = TimeLeft(clock=lambda: now[0])
    >>> now[0] = 10.0; eta.update(1, 5)
    >>> eta.text()
    ' · about 40 s left'
    >>> now[0] = 20.0; eta.text()  # 10 s into the second task: counts down
    ' · about 30 s left'
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._start = clock()
        self._stamps: list[tuple[float, int]] = [(self._start, 0)]
        self._lock = threading.Lock()  # updated by one thread, read by another
        self.done = 0
        self.total = 0

    def update(self, done: int, total: int) -> None:
        """Record that ``done`` of ``total`` tasks have finished (now)."""
        with self._lock:
            if done > self.done:
                self._stamps.append((self._clock(), done))
                del self._stamps[: -(WINDOW + 1)]
            self.done, self.total = done, total

    def elapsed(self) -> float:
        """Seconds since the estimate was made (the run started)."""
        return self._clock() - self._start

    def pace(self) -> float | None:
        """Mean seconds per task over the last finished ones (None before any)."""
        (t0, d0), (t1, d1) = self._stamps[0], self._stamps[-1]
        return (t1 - t0) / (d1 - d0) if d1 > d0 else None

    def text(self) -> str:
        """The time-left part of the progress text, as of now.

        Between two finished tasks it counts down from the pace of the last
        few. When the current task outlasts that pace, it says how long the
        task has run and, if more follow, the time left at its pace; so the
        text moves every second or ten while one long task runs, and never
        sits at a figure that has run out.
        """
        with self._lock:
            left_tasks = self.total - self.done
            since = self._clock() - self._stamps[-1][0]
            pace = self.pace()
        if self.total <= 0 or left_tasks <= 0:
            return ""
        if pace is None:  # the first task still runs
            return f" · first task, {duration_text(since)} so far" if since >= 2 else ""
        left = max(pace * left_tasks - since, 0.0)
        if since <= max(pace, SETTLE):
            return (
                " · a few seconds left"
                if left < 10
                else f" · {duration_text(left)} left"
            )
        running = f"this task has run {duration_text(since)}"
        if left_tasks == 1:
            return f" · {running}, the last one"
        more = duration_text(since * (left_tasks - 1))
        return f" · {running}; {more} more at its pace"


@contextmanager
def ticking(draw: Callable[[], None], interval: float = 1.0) -> Iterator[Callable]:
    """Call ``draw`` every ``interval`` seconds from a helper thread, meanwhile.

    Yields a function that draws at once (the script thread calls it when a
    task finishes); both go through one lock, so the two threads never draw
    at the same moment. The helper thread carries the script's run context,
    which Streamlit needs to update an element from another thread; it
    never handles a stop or rerun request (only the script thread does), so
    Stop still ends the run at the next finished task. A failing draw (the
    session is gone) ends the helper thread quietly.
    """
    lock = threading.Lock()
    stop = threading.Event()

    def draw_now() -> None:
        with lock:
            draw()

    def loop() -> None:
        while not stop.wait(interval):
            try:
                draw_now()
            except Exception:  # e.g. the browser session closed
                return

    thread = threading.Thread(target=loop, name="mlfs-progress", daemon=True)
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        add_script_run_ctx(thread, ctx)
    thread.start()
    try:
        yield draw_now
    finally:
        stop.set()
        thread.join(timeout=interval + 1.0)
