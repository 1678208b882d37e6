"""Former location of :mod:`mlfs_core.evaluation.runner.tasks` (same module object).

Kept so that old imports keep working; import ``mlfs_core.evaluation.runner.tasks`` instead.
"""

import importlib
import sys

sys.modules[__name__] = importlib.import_module('.runner.tasks', __package__)
