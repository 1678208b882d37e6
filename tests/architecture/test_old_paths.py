"""Modules that moved exist at one path only: their former paths are gone."""

from __future__ import annotations

import importlib.util

import pytest

import mlfs_core.evaluation.config as config

FORMER_PATHS = (
    "mlfs_core._constants",
    "mlfs_core.cli_experiment",
    "mlfs_core.analysis.means",
    "mlfs_core.analysis.paper000_claims",
    "mlfs_core.analysis.paper000_published",
    "mlfs_core.analysis.paper001_evaluations",
    "mlfs_core.analysis.reproduction",
    "mlfs_core.analysis.statements",
    "mlfs_core.evaluation._budget_fits",
    "mlfs_core.evaluation._fits",
    "mlfs_core.evaluation._lean_metrics",
    "mlfs_core.evaluation._neighbors",
    "mlfs_core.evaluation._prefix_knn",
    "mlfs_core.evaluation._prepare",
    "mlfs_core.evaluation._ranking_metrics",
    "mlfs_core.evaluation._reference",
    "mlfs_core.evaluation._tasks",
    "mlfs_core.evaluation.cluster",
    "mlfs_core.evaluation.mlknn",
    "mlfs_core.evaluation.protocols",
    "mlfs_core.evaluation.reference_code",
    "mlfs_core.evaluation.reference_conventions",
    "mlfs_core.evaluation.runner.bounds",
    "mlfs_core.evaluation.runner.budget_fits",
    "mlfs_core.evaluation.runner.cluster",
    "mlfs_core.evaluation.runner.diagnose",
    "mlfs_core.evaluation.runner.execution",
    "mlfs_core.evaluation.runner.fits",
    "mlfs_core.evaluation.runner.keys",
    "mlfs_core.evaluation.runner.lock",
    "mlfs_core.evaluation.runner.planning",
    "mlfs_core.evaluation.runner.prepare",
    "mlfs_core.evaluation.runner.stops",
    "mlfs_core.evaluation.runner.tasks",
    "mlfs_core.evaluation.runner.trust",
    "mlfs_core.evaluation.runner.tuning",
    "mlfs_core.evaluation.runner.verify",
    "mlfs_core.evaluation.verify",
    "mlfs_core.evaluation.metrics.lean",
    "mlfs_core.evaluation.metrics.lean_variants",
    "mlfs_core.evaluation.metrics.spec",
    "mlfs_core.evaluation.metrics.variants",
)


@pytest.mark.parametrize("name", FORMER_PATHS)
def test_a_former_module_path_is_gone(name):
    """Check the module's old path imports nothing (no forwarding alias)."""
    assert importlib.util.find_spec(name) is None


@pytest.mark.parametrize(
    "name", ["EVALUATIONS", "CONVENTIONS", "REFERENCE_CODE_METRICS"]
)
def test_former_config_constants_are_gone(name):
    """Check the conventions are read from their registry only."""
    assert not hasattr(config, name)
