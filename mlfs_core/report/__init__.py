"""The report of an experiment: its analysis tables and Markdown files.

A view of what the runner computed (:mod:`mlfs_core.evaluation`) and the
analysis makes of it (:mod:`mlfs_core.analysis`); the engine's output writer
(:mod:`mlfs_core.evaluation.outputs`) writes the run's own tables, this
package what ``mlfs experiment --out`` adds to them:

- :func:`write_outputs`: every file of ``mlfs experiment --out``: the run
  files, ``results.parquet`` (when pyarrow is installed), the analysis
  tables ``ranks.csv``, ``friedman.csv``, ``curves.csv``,
  ``dataset_means.csv``, ``similarity.csv`` (and ``recovery.csv`` for
  datasets with a planted truth), ``summary.md`` and a ``README.md``
  describing every file beside it column by column;
- :func:`analysis_tables` and :func:`curves_table`: the tables;
- :func:`summary_markdown` with :func:`markdown_table`,
  :func:`convergence_line` and :func:`reuse_line`: the summary;
- :data:`OUTPUT_FILES` and :func:`readme_markdown`: the README.
"""

from __future__ import annotations

from ._readme import OUTPUT_FILES, PARQUET_FILE, README_FILE, readme_markdown
from ._summary import (
    SUMMARY_FILE,
    convergence_line,
    markdown_table,
    reuse_line,
    summary_markdown,
    summary_metrics_of,
)
from ._tables import analysis_tables, curves_table
from ._write import write_outputs

__all__ = [
    "OUTPUT_FILES",
    "PARQUET_FILE",
    "README_FILE",
    "SUMMARY_FILE",
    "analysis_tables",
    "convergence_line",
    "curves_table",
    "markdown_table",
    "readme_markdown",
    "reuse_line",
    "summary_markdown",
    "summary_metrics_of",
    "write_outputs",
]
