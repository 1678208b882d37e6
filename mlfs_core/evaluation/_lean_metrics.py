"""Former location of :mod:`mlfs_core.evaluation.metrics.lean` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.metrics.lean`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.metrics.lean', __package__)
