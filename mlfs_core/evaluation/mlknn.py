"""Alias of :mod:`mlfs_core.evaluation.classifiers.mlknn` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".classifiers.mlknn", __package__)
