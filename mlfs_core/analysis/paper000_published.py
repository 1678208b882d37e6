"""Deprecated: this module moved to
:mod:`mlfs_core.reproduction.paper000.published`.
"""

from ..reproduction._moved import forward

__getattr__, __dir__ = forward(__name__, "mlfs_core.reproduction.paper000.published")
