"""Alias of :mod:`mlfs_core.evaluation.classifiers.neighbors` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".classifiers.neighbors", __package__)
