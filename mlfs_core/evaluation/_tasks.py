"""Alias of :mod:`mlfs_core.evaluation.runner.tasks` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".runner.tasks", __package__)
