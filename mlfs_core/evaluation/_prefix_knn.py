"""Alias of :mod:`mlfs_core.evaluation.classifiers.prefix_knn` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".classifiers.prefix_knn", __package__)
