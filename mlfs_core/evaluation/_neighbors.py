"""Former location of :mod:`mlfs_core.evaluation.classifiers.neighbors` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.classifiers.neighbors`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.classifiers.neighbors', __package__)
