"""Former location of :mod:`mlfs_core.evaluation.classifiers.prefix_knn` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.classifiers.prefix_knn`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.classifiers.prefix_knn', __package__)
