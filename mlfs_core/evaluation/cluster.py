"""Alias of :mod:`mlfs_core.evaluation.runner.cluster` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".runner.cluster", __package__)
