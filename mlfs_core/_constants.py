"""Former private name of :mod:`mlfs_core.columns`, kept so old imports work."""

from .columns import *  # noqa: F401,F403
from .columns import __all__  # noqa: F401
