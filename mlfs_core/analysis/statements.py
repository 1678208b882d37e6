"""Deprecated: this module moved to
:mod:`mlfs_core.reproduction.statements`.
"""

from ..reproduction._moved import forward

__getattr__, __dir__ = forward(__name__, "mlfs_core.reproduction.statements")
