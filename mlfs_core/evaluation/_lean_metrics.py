"""Alias of :mod:`mlfs_core.evaluation.metrics.lean` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".metrics.lean", __package__)
