"""Exception types of mlfs_core.

All are :class:`ValueError` subclasses so callers can catch bad input with one
``except ValueError`` and show the message to the user.
"""

from __future__ import annotations


class MLFSError(ValueError):
    """Base class of every error raised on bad user input."""


class DatasetError(MLFSError):
    """A dataset file or folder could not be read; the message names
    file/line/attribute.
    """


class ConfigError(MLFSError):
    """An experiment or method configuration is invalid; the message names the
    parameter.
    """


class IncompleteTableError(MLFSError):
    """A results table misses values in some blocks an analysis ranks over.

    Raised by the rank-based analysis functions (average ranks, Friedman,
    post-hoc tests, ...) when a (dataset, method, budget) cell of a block has
    no value (no row, or NaN); the message names the missing cells, and
    ``missing="drop-blocks"`` ranks only the complete blocks instead.

    Attributes
    ----------
    cells : list of tuple
        The missing cells, ``(dataset, method)`` or ``(dataset, method,
        budget)`` (followed by the values of any other grouping columns).
    """

    def __init__(self, message: str, cells=()):
        super().__init__(message)
        self.cells = list(cells)


class DroppedBlocksWarning(UserWarning):
    """``missing="drop-blocks"`` left incomplete blocks out of an analysis; the
    message says how many of how many."""


class RankingError(MLFSError):
    """A ranking method returned an unusable ranking (wrong shape, indices out
    of range, repeated features, non-finite scores); the message names the
    method. Not a :class:`ConfigError`: the configuration was fine, the
    method's output was not."""
