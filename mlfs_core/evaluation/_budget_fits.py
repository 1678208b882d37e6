"""Alias of :mod:`mlfs_core.evaluation.runner.budget_fits` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".runner.budget_fits", __package__)
