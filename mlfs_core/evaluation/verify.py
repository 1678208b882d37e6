"""Alias of :mod:`mlfs_core.evaluation.runner.verify` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".runner.verify", __package__)
