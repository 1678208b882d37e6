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
