"""Former location of :mod:`mlfs_core.evaluation.runner.verify` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.runner.verify`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.runner.verify', __package__)
