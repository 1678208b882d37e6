"""Alias of :mod:`mlfs_core.evaluation.metrics.ranking` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".metrics.ranking", __package__)
