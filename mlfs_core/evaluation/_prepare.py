"""Former location of :mod:`mlfs_core.evaluation.runner.prepare` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.runner.prepare`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.runner.prepare', __package__)
