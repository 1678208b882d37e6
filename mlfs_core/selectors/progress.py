"""Progress reports of long rankings, for a caller that wants a progress bar.

The greedy engine reports after every selection step. A caller installs a
callback with :func:`ranking_progress`; the callback receives
``(done, total)`` and may raise (e.g. a user's stop request) to abandon the
ranking: the engine holds no state that an exception could leave broken.
Without a callback, reports cost one context-variable look-up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["ranking_progress", "report_progress"]

_ProgressCallback = Callable[[int, int], None]

_CALLBACK: ContextVar[_ProgressCallback | None] = ContextVar(
    "mlfs_ranking_progress", default=None
)


@contextmanager
def ranking_progress(callback: _ProgressCallback) -> Iterator[None]:
    """Call ``callback(done, total)`` after each step of rankings run inside.

    Parameters
    ----------
    callback : callable
        Receives the number of features ranked so far and the number asked for.

    Examples
    --------
    >>> import numpy as np
    >>> from mlfs_core import compute_ranking
    >>> seen = []
    >>> X = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 0, 0]])
    >>> with ranking_progress(lambda done, total: seen.append((done, total))):
    ...     _ = compute_ranking(X, [[1], [1], [0], [0]], "D2F", k=2)
    >>> seen
    [(1, 2), (2, 2)]
    """
    token = _CALLBACK.set(callback)
    try:
        yield
    finally:
        _CALLBACK.reset(token)


def report_progress(done: int, total: int) -> None:
    """Tell the installed callback (if any) that ``done`` of ``total`` are ranked."""
    callback = _CALLBACK.get()
    if callback is not None:
        callback(done, total)
