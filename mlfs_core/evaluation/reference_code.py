"""Deprecated: paper 001's evaluation conventions moved to
:mod:`mlfs_core.reproduction.paper001.conventions` (registered through the
engine's public extension points; see :mod:`mlfs_core.evaluation.conventions`).
"""

from ..reproduction._moved import forward

__getattr__, __dir__ = forward(__name__, "mlfs_core.reproduction.paper001.conventions")
