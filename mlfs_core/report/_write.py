"""Every file of ``mlfs experiment --out``: run files, analysis, summary, README."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

from ..evaluation.outputs import write_run_files, write_table
from ..evaluation.runner import ExperimentResult
from ._readme import PARQUET_FILE, README_FILE, readme_markdown
from ._summary import SUMMARY_FILE, summary_markdown, summary_metrics_of
from ._tables import analysis_tables


def write_outputs(
    result: ExperimentResult,
    out: str | Path,
    *,
    summary_metrics: Sequence[str] | None = None,
) -> list[Path]:
    """Write every file of ``mlfs experiment --out``: results, analysis, summary.

    Parameters
    ----------
    result, out
        The run and the folder, as for
        :func:`~mlfs_core.evaluation.outputs.write_run_files`, which writes
        the run's own files first.
    summary_metrics : sequence of str, optional
        The metrics ``summary.md`` reports (default
        micro-F1 when the results hold it, else their first metric).

    Returns
    -------
    list of Path
        The files written: those of :func:`write_run_files` (``tuning.csv``,
        the values chosen for the grids, among them when there were any),
        ``results.parquet`` (when pyarrow is installed), the tables of
        :func:`analysis_tables`,
        ``summary.md`` and ``README.md`` (what every file holds).

    Raises
    ------
    ConfigError
        For a summary metric the results do not hold (before anything is
        written).
    """
    metrics = summary_metrics_of(result.results, summary_metrics)
    out = Path(out)
    written = write_run_files(result, out)
    if importlib.util.find_spec("pyarrow") is not None:
        result.results.to_parquet(out / PARQUET_FILE, index=False)
        written.append(out / PARQUET_FILE)
    tables = analysis_tables(result)
    written += [
        write_table(t, out / f"{name}.csv", index=name == "similarity")
        for name, t in tables.items()
    ]
    summary = out / SUMMARY_FILE
    text = summary_markdown(result, tables, metrics=metrics)
    summary.write_text(text, encoding="utf-8")
    written.append(summary)
    readme = out / README_FILE
    names = [p.name for p in written]
    readme.write_text(readme_markdown(names, result), encoding="utf-8")
    return [*written, readme]
