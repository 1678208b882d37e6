"""The baselines suite: a method against every registered baseline family.

:func:`run_baselines` runs a method (a plug-in's, or any registered one) and
the registry's baselines on a set of datasets under a protocol preset (the
field's, :data:`~mlfs_core.evaluation.config.FIELD`, by default), then
compares them as papers of the field do (Demšar 2006): per metric, each
method's value on a dataset is its mean over the splits and budgets; the
methods are ranked per dataset (1 = best, ties share the mean rank), the
Friedman test asks whether they differ at all, and the preset's post-hoc test
(Bonferroni-Dunn by default) compares every baseline with the user's method
as the control.

The baselines are found by family in the method registry, never by name
(:func:`baseline_methods`): every family of
:data:`~mlfs_core.selectors.FAMILIES` but :data:`_SKIPPED_FAMILIES`, its first
:data:`_PER_FAMILY` methods in registry order (all of them with
``all_baselines=True``), leaving out the "all features" reference (a
classifier on every feature is no selection). Each runs with its defaults,
except ``binarize = "median"`` for the methods that have that option (the
presence of a feature: above its median, which on sparse counts is
non-zero, as the default; on dense data the default would tie nearly every
score). A family added to the registry
joins the suite when its methods are registered.

Every task goes through the runner's cache: a stopped run resumes where it
stopped, and a table with a missing value is refused
(:func:`~mlfs_core.analysis.select`, ``missing="refuse"``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from ..errors import ConfigError
from ._baselines_analysis import compare

SUITE = "baselines"
"""The suite's name on the command line (``mlfs benchmark --suite baselines``)."""
_DATASETS = ("emotions", "yeast", "scene", "birds", "medical", "enron")
"""The default datasets: music, biology, images, audio and two text sets
(Mulan's, in ``MLFS_DATASETS``), small enough for a laptop."""
_QUICK_DATASETS = ("emotions", "scene", "medical")
"""The datasets of ``quick=True``: two non-text sets and one text set."""
_QUICK = {"n_holdouts": 2, "n_folds": 3, "budgets": (5, 10, 20, 30, 40, 50)}
"""What ``quick=True`` changes in the preset: 2 random splits (or 3 folds),
six budgets."""
_PER_FAMILY = 2
"""Representatives of each family by default: its first two methods."""
_SKIPPED_FAMILIES = ("extra",)
"""Families left out by default: this project's extra measures (IG, OR, DF
with the aggregations), which no paper of the field compares with."""


@dataclass(frozen=True)
class BaselinesResult:
    """What :func:`run_baselines` computed (and wrote).

    Attributes
    ----------
    method : str
        The control: the user's method's label.
    preset : str
        The protocol preset.
    quick : bool
    baselines : tuple of str
        The compared baselines, family after family.
    families : dict
        Baseline name -> its family.
    results : DataFrame
        Tidy results, stochastic repeats averaged (``dataset, protocol,
        method, budget, fold, metric, value``).
    per_dataset : DataFrame
        ``dataset, method, metric, mean, std``: the mean and population std
        over the splits of the mean over budgets.
    average_ranks : DataFrame
        ``metric, method, rank``: average ranks over the datasets (1 = best).
    friedman : DataFrame
        Per metric: Friedman's chi2 and p-value, Iman-Davenport's F and
        p-value, ``n_datasets``, ``n_methods``.
    control : DataFrame
        Per metric and baseline: ``rank, control_rank, statistic, pvalue,
        pvalue_adjusted, significant``, and the test's critical difference
        ``cd``.
    summary : str
        One paragraph: what was and was not significant.
    timings : dict
        Seconds: ``wall``, ``tasks`` (running or reading the tasks),
        ``selection`` and ``fit`` (the tasks' measured times, computed ones
        only), ``analysis``; ``n_tasks``, ``n_computed``.
    figures : dict
        Metric -> its critical-difference diagram (plotly).
    alpha : float
    test : str
        ``"bonferroni_dunn"`` or ``"nemenyi"``.
    folder : Path or None
    chosen : DataFrame or None
        The values chosen for a grid in the method's parameters, per dataset
        and split (:mod:`mlfs_core.evaluation.runner.plan.tuning`).
    """

    method: str
    preset: str
    quick: bool
    baselines: tuple
    families: dict
    results: pd.DataFrame
    per_dataset: pd.DataFrame
    average_ranks: pd.DataFrame
    friedman: pd.DataFrame
    control: pd.DataFrame
    summary: str
    timings: dict
    figures: dict = field(default_factory=dict)
    alpha: float = 0.05
    test: str = "bonferroni_dunn"
    folder: Path | None = None
    chosen: pd.DataFrame | None = None


def baseline_methods(
    *, all_baselines: bool = False, exclude: Sequence[str] = ()
) -> dict[str, str]:
    """The suite's baselines, by family from the method registry.

    Parameters
    ----------
    all_baselines : bool, default=False
        Every method of every built-in family; else the first
        :data:`_PER_FAMILY` of each family but :data:`_SKIPPED_FAMILIES`.
    exclude : sequence of str
        Names left out (the benchmarked method).

    Returns
    -------
    dict
        Method name -> its family, family after family in registry order.
        The "all features" reference never takes part.
    """
    from ..selectors import FAMILIES, get_method, list_methods

    out: dict[str, str] = {}
    for family in FAMILIES:
        if not all_baselines and family in _SKIPPED_FAMILIES:
            continue
        names = [
            n
            for n in list_methods(family)
            if get_method(n).reference != "all" and n not in exclude
        ]
        for name in names if all_baselines else names[:_PER_FAMILY]:
            out[name] = family
    return out


def _baseline_config(name: str):
    """A baseline's config: its defaults, but ``binarize = "median"`` where it
    has that option (on sparse counts the median of a column is 0, so it is
    presence; on dense numeric data presence would tie nearly every score)."""
    from ..evaluation.config import MethodConfig
    from ..selectors import get_method

    if "binarize" in get_method(name).defaults:
        return MethodConfig(name, {"binarize": "median"})
    return MethodConfig(name)


def _dataset_specs(items: Sequence, data_dir=None) -> tuple:
    """The suite's datasets: a name is a folder under ``data_dir`` (the
    ``mlfs`` command passes ``--data`` or ``MLFS_DATASETS``); a
    :class:`~mlfs_core.evaluation.config.DatasetSpec` or an in-memory
    :class:`~mlfs_core.data.Dataset` is taken as it is.

    Raises
    ------
    ConfigError
        When a name is given without a folder, or is not in it (naming
        ``--data`` and ``MLFS_DATASETS``); fewer than 2 datasets.
    """
    from ..evaluation.config import DatasetSpec

    root = data_dir
    specs = []
    for item in items:
        if not isinstance(item, str):
            specs.append(item)
            continue
        if not root:
            raise ConfigError(
                "the baselines suite needs the datasets' folder: pass mlfs "
                "benchmark --data DIR or set MLFS_DATASETS"
            )
        path = Path(root) / item
        if not path.exists():
            raise ConfigError(
                f"suite {SUITE!r}: dataset {item!r} not found at {path}; pass "
                "--data DIR (the folder holding the datasets' folders) or set "
                "MLFS_DATASETS to it"
            )
        specs.append(DatasetSpec(path=str(path), name=item))
    if len(specs) < 2:
        raise ConfigError(
            f"suite {SUITE!r}: a comparison needs at least 2 datasets, got {len(specs)}"
        )
    return tuple(specs)


def run_baselines(
    method,
    *,
    datasets: Sequence[str] | None = None,
    data_dir=None,
    quick: bool = False,
    all_baselines: bool = False,
    preset: str = "field",
    seed: int = 0,
    out=None,
    cache_dir=None,
    n_jobs: int = 1,
    all_figures: bool = True,
    progress=None,
    tuning=None,
) -> BaselinesResult:
    """Run ``method`` and the registry's baselines on datasets under a preset.

    Parameters
    ----------
    method : str or MethodConfig or mapping
        A registered method (e.g. from ``--plugin mine.py``), or its config
        (``name``, ``params``, ``label``; a parameter given as a list is a
        grid, chosen per dataset and split on an inner split,
        :mod:`mlfs_core.evaluation.runner.plan.tuning`).
    datasets : sequence, optional
        Dataset folder names under ``data_dir`` (default :data:`_DATASETS`,
        or :data:`_QUICK_DATASETS` with ``quick``), or dataset specs and
        in-memory datasets (:func:`_dataset_specs`).
    data_dir : path, optional
        The folder holding the datasets' folders, needed for dataset names
        (``mlfs benchmark`` passes ``--data``, else ``MLFS_DATASETS``).
    quick : bool, default=False
        The preset with :data:`_QUICK`'s changes.
    all_baselines : bool, default=False
        Every method of every family (:func:`baseline_methods`).
    preset : str, default="field"
        A registered protocol preset; its ``control_test`` and ``alpha``
        choose the post-hoc test.
    seed : int, default=0
        The experiment's seed (splits, stochastic methods).
    out : path, optional
        Write the folder (:func:`~._baselines_report.write_baselines`).
    cache_dir : path, optional
        The task cache: a stopped run resumes from it.
    n_jobs : int, default=1
    all_figures : bool, default=True
        A CD diagram per metric (else the first metric only).
    progress : callable, optional
        ``progress(done, total, message)``.
    tuning : TuningConfig or mapping, optional
        The inner split a grid in ``method``'s parameters is searched on
        (default :class:`~mlfs_core.evaluation.config.TuningConfig`'s); the
        choices are :attr:`BaselinesResult.chosen` and ``tuning.csv``.

    Returns
    -------
    BaselinesResult

    Raises
    ------
    ConfigError
        An unknown method, preset or dataset; a label a baseline has; fewer
        than 2 datasets; an incomplete results table.
    """
    from ..evaluation.config import ExperimentConfig, protocol_preset
    from ._plan import method_config

    start = time.perf_counter()
    user = method_config(method)
    families = baseline_methods(all_baselines=all_baselines, exclude=(user.name,))
    if user.display in families:
        raise ConfigError(
            f"method label {user.display!r} is a baseline's; give it another label"
        )
    names = datasets or (_QUICK_DATASETS if quick else _DATASETS)
    specs = _dataset_specs(list(names), data_dir)
    protocol = protocol_preset(preset, **(_QUICK if quick else {}))
    config = ExperimentConfig(
        datasets=specs,
        methods=(*(_baseline_config(n) for n in families), user),
        protocol=protocol,
        seed=seed,
        name=f"{SUITE}-{user.display}",
        tuning=tuning,
    )
    tables, times = _run_tasks(config, cache_dir, n_jobs, progress)
    t0 = time.perf_counter()
    compared = compare(tables, user.display, preset, all_figures=all_figures)
    compared["chosen"] = tables.tuning
    times["analysis"] = time.perf_counter() - t0
    times["wall"] = time.perf_counter() - start
    result = BaselinesResult(
        method=user.display,
        preset=preset,
        quick=quick,
        baselines=tuple(families),
        families=families,
        timings={
            k: round(v, 3) if isinstance(v, float) else v for k, v in times.items()
        },
        **compared,
    )
    if out is not None:
        from ._baselines_report import write_baselines

        result = replace(result, folder=write_baselines(result, out, user))
    return result


def _run_tasks(config, cache_dir, n_jobs, progress):
    """Plan and run (or read from the cache) every task; the tables and times.

    ``selection`` and ``fit`` are the tasks' measured seconds (a cached task
    brings the time it took when computed; ``fit`` counts fitting, predicting
    and scoring), ``tasks`` the wall time of running or reading them here.
    """
    from ..evaluation.runner import execute_plan, plan_tuned, result_tables
    from ._plan import Counter

    t0 = time.perf_counter()
    counter = Counter(progress)
    plan = plan_tuned(config, cache_dir=cache_dir, n_jobs=n_jobs, progress=counter)
    outcome = execute_plan(plan, cache_dir=cache_dir, n_jobs=n_jobs, progress=counter)
    tables = result_tables(outcome)
    stage = tables.timings.groupby("stage")["seconds"].sum()
    times = {
        "tasks": time.perf_counter() - t0,
        "selection": float(stage.get("selection", 0.0)),
        "fit": float(stage.drop("selection", errors="ignore").sum()),
        "n_tasks": counter.total,
        "n_computed": counter.computed,
    }
    return tables, times
