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

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from ._baselines import (  # noqa: F401
        BaselinesResult,
        baseline_methods,
        run_baselines,
    )
    from ._baselines_report import latex_table  # noqa: F401
    from ._committed import Check, check_committed  # noqa: F401
    from ._folder import (  # noqa: F401
        BENCHMARKS_ENV,
        MANIFEST,
        benchmark_label,
        find_benchmarks,
        read_manifest,
        write_benchmark,
    )
    from ._ranking import rank_methods  # noqa: F401
    from ._run import BenchmarkResult, run_benchmark  # noqa: F401
    from ._suites import (  # noqa: F401
        SUITES,
        QuickPlan,
        Suite,
        get_suite,
        list_suites,
        register_suite,
        relocated,
    )

__all__ = [  # noqa: F822 - resolved lazily by __getattr__
    "BENCHMARKS_ENV",
    "BaselinesResult",
    "BenchmarkResult",
    "Check",
    "MANIFEST",
    "QuickPlan",
    "SUITES",
    "Suite",
    "baseline_methods",
    "benchmark_label",
    "check_committed",
    "find_benchmarks",
    "get_suite",
    "latex_table",
    "list_suites",
    "rank_methods",
    "read_manifest",
    "register_suite",
    "relocated",
    "run_baselines",
    "run_benchmark",
    "write_benchmark",
]
