"""Alias of :mod:`mlfs_core.evaluation.runner.prepare` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".runner.prepare", __package__)
