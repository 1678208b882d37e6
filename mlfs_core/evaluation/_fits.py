"""Alias of :mod:`mlfs_core.evaluation.runner.fits` (old import path)."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module(".runner.fits", __package__)
