"""Deprecated: the ``mlfs experiment`` pieces moved.

The parsers and commands are in :mod:`mlfs_core.cli.experiment`; the output
writers (:func:`write_outputs`, :func:`analysis_tables`,
:func:`summary_markdown`, :func:`markdown_table`, :func:`convergence_line`,
:func:`reuse_line`) are in :mod:`mlfs_core.evaluation.outputs`. The old names
still work here, with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import importlib
import warnings

_MOVED = {
    "add_experiment_parser": "mlfs_core.cli.experiment",
    "add_verify_parser": "mlfs_core.cli.experiment",
    "run_experiment_command": "mlfs_core.cli.experiment",
    "run_verify_command": "mlfs_core.cli.experiment",
    "jobs": "mlfs_core.cli",
    "write_outputs": "mlfs_core.evaluation.outputs",
    "analysis_tables": "mlfs_core.evaluation.outputs",
    "summary_markdown": "mlfs_core.evaluation.outputs",
    "markdown_table": "mlfs_core.evaluation.outputs",
    "convergence_line": "mlfs_core.evaluation.outputs",
    "reuse_line": "mlfs_core.evaluation.outputs",
}

__all__ = sorted(_MOVED)


def __getattr__(name: str):
    """The moved name ``name`` from its new module, with a DeprecationWarning."""
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _MOVED[name]
    warnings.warn(
        f"mlfs_core.cli_experiment.{name} moved to {module}.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(module), name)
