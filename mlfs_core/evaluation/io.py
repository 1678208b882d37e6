"""Former location of :mod:`mlfs_core.evaluation.runner.io` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.runner.io`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.runner.io', __package__)
