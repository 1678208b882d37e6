"""Benchmark a method against a study's methods, reusing the study's committed results.

One concept a module:

- :mod:`._suites`: the registry of studies (:class:`Suite`,
  :class:`QuickPlan`, :func:`register_suite`, :func:`get_suite`,
  :func:`list_suites`, :func:`relocated`); plug-ins register suites, the
  engine knows none itself;
- :mod:`._plan`: the method, the datasets and the fits a benchmark keeps
  (``quick=True`` restricts the suite's own plan, never another protocol);
- :mod:`._committed`: whether a dataset's committed data may stand for the
  study's methods (:func:`check_committed`, :class:`Check`: same engine,
  config, dataset size and protocol, every value there, and a probe task
  recomputed equal);
- :mod:`._ranking`: average ranks, Friedman/Nemenyi and critical-difference
  diagrams (:func:`rank_methods`);
- :mod:`._run`: :func:`run_benchmark`, which runs the method on the suite's
  datasets under the suite's protocol and puts it among the study's methods
  (:class:`BenchmarkResult`);
- :mod:`._folder`: the output folder, a results source of the app
  (:func:`write_benchmark`, :func:`read_manifest`, :func:`find_benchmarks`);
- :mod:`._baselines`, :mod:`._baselines_analysis`, :mod:`._baselines_report`:
  the suite ``"baselines"`` (:func:`run_baselines`): a method against every
  registered baseline family under a protocol preset, with Friedman and
  Bonferroni-Dunn against the method, CSV and LaTeX tables.

The names are imported on first use, so that listing benchmark folders (the
app) imports neither the runner nor scikit-learn.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_EXPORTS = {
    "QuickPlan": "._suites",
    "SUITES": "._suites",
    "Suite": "._suites",
    "get_suite": "._suites",
    "list_suites": "._suites",
    "register_suite": "._suites",
    "relocated": "._suites",
    "Check": "._committed",
    "check_committed": "._committed",
    "rank_methods": "._ranking",
    "BenchmarkResult": "._run",
    "run_benchmark": "._run",
    "BENCHMARKS_ENV": "._folder",
    "MANIFEST": "._folder",
    "benchmark_label": "._folder",
    "find_benchmarks": "._folder",
    "read_manifest": "._folder",
    "write_benchmark": "._folder",
    "BaselinesResult": "._baselines",
    "baseline_methods": "._baselines",
    "run_baselines": "._baselines",
    "latex_table": "._baselines_report",
}

__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

__all__ = sorted(_EXPORTS)  # resolved lazily by __getattr__
