"""Former location of :mod:`mlfs_core.evaluation.metrics.ranking` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.metrics.ranking`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.metrics.ranking', __package__)
