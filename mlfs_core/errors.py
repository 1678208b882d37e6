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


class ConflictingCellsError(MLFSError):
    """A results table holds one cell twice with different values.

    Raised by :func:`~mlfs_core.analysis.select` when two rows share every
    identity column (dataset, protocol, method, budget, fold, repeat, metric,
    ...) but not their value; the message names the first cells and how many
    there are, and ``duplicates="mean"`` averages each cell instead.

    Attributes
    ----------
    cells : list of tuple
        The conflicting cells, as tuples of their identity columns' values.
    """

    def __init__(self, message: str, cells=()):
        super().__init__(message)
        self.cells = list(cells)


class MixedTableError(MLFSError):
    """A results table mixes protocols, classifiers or evaluation settings.

    Raised by :func:`~mlfs_core.analysis.select` unless ``mix="allow"``; the
    message names the column and its values.
    """


class DroppedBlocksWarning(UserWarning):
    """``missing="drop-blocks"`` left incomplete blocks out of an analysis; the
    message says how many of how many."""


class RankingError(MLFSError):
    """A ranking method returned an unusable ranking (wrong shape, indices out
    of range, repeated features, non-finite scores); the message names the
    method. Not a :class:`ConfigError`: the configuration was fine, the
    method's output was not."""


class UserCodeError(MLFSError):
    """User code (a plug-in's or a script's method, classifier or metric) raised.

    The message names what raised, where, and the original exception:
    ``method 'MLFisher' (hplug.py:12) raised ZeroDivisionError: division by
    zero (on dataset 'emotions', fold 0, repeat 0)`` (the place where the
    runner knows it). The same message comes back from worker processes (joblib, Dask):
    the error pickles with its text, and :attr:`details` holds the original
    traceback (what ``mlfs --debug`` and ``MLFS_DEBUG=1`` print).

    Attributes
    ----------
    kind : {"method", "classifier", "metric"}
    name : str
        The registered name.
    where : str
        ``file:line`` of the deepest frame in the user's own code ("" if none).
    error_type, error_message : str
        The original exception's type name and message.
    details : str
        The original traceback, formatted.
    place : str
        The data it was called on (``dataset 'emotions', fold 0, repeat 0``),
        "" where unknown.
    """

    def __init__(
        self,
        kind: str,
        name: str,
        where: str,
        error_type: str,
        error_message: str,
        details: str = "",
        place: str = "",
    ):
        self.kind = kind
        self.name = name
        self.where = where
        self.error_type = error_type
        self.error_message = error_message
        self.details = details
        self.place = place
        at = f" ({where})" if where else ""
        said = f": {error_message}" if error_message else ""
        on = f" (on {place})" if place else ""
        super().__init__(f"{kind} {name!r}{at} raised {error_type}{said}{on}")

    def located(self, place: str) -> UserCodeError:
        """The same error, said to have happened on ``place`` (e.g. ``dataset
        'emotions', fold 0, repeat 0``); unchanged if it already names one."""
        if self.place or not place:
            return self
        return type(self)(*self.__reduce__()[1][:-1], place)

    def __reduce__(self):
        args = (
            self.kind,
            self.name,
            self.where,
            self.error_type,
            self.error_message,
            self.details,
            self.place,
        )
        return (type(self), args)


class DiskFullError(MLFSError):
    """A file could not be written for want of space on its device.

    Raised for an ``ENOSPC`` (``OSError`` errno 28) while writing a task
    cache entry or a run's output files, and before such a write when the
    free space is known to be too small for an estimate of what it writes.
    The message names the path, and where it is known the space needed and
    free; the files already in place are left as they were.

    Attributes
    ----------
    path : str
        The file or folder being written.
    """

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.path = path

    def __reduce__(self):
        return (type(self), (str(self), self.path))
