"""Alias of :mod:`mlfs_core.evaluation.config` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".config", __package__)
