"""Former location of :mod:`mlfs_core.evaluation.config` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.config`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.config', __package__)
