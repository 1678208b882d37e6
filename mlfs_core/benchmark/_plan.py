"""Planning a benchmark: the method, the datasets and the fits it keeps.

The benchmark runs the suite's own plan (its config: splits, seeds, budgets,
classifier, metrics), restricted, under ``quick``, to the suite's
:class:`~._suites.QuickPlan`: a few datasets, a subset of the folds of the
same cross-validation and a subset of the budgets. Never another protocol, so
the committed values of those folds and budgets stand as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from ..cache import DiskCache
from ..errors import ConfigError
from ..evaluation.config import MethodConfig
from ..evaluation.runner import Progress
from ._suites import Suite


class Counter:
    """A progress callback counting the tasks it sees, and those not cached."""

    def __init__(self, progress: Progress | None):
        self.progress, self.total, self.computed = progress, 0, 0

    def __call__(self, done: int, total: int, message: str) -> None:
        self.total += 1
        self.computed += not message.endswith(("(cached)", "(reused)"))
        if self.progress is not None:
            self.progress(done, total, message)


def all_cached(plan, cache_dir) -> bool:
    """Whether the cache holds every selection and fit of ``plan``."""
    cache = DiskCache(cache_dir)
    if cache.directory is None:
        return False
    keys = [plan.selections[j].key for j in plan.needed_selections]
    keys += [plan.fit_key(i) for i in range(len(plan.fits))]
    return all(cache.get(k) is not None for k in keys)


def method_config(method) -> MethodConfig:
    """``method`` (a name, a MethodConfig or a table) as a MethodConfig.

    Raises
    ------
    ConfigError
        For a table with other keys than ``name``, ``params`` and ``label``,
        or another type.
    """
    if isinstance(method, MethodConfig):
        return method
    if isinstance(method, str):
        return MethodConfig(name=method)
    if isinstance(method, Mapping):
        allowed = {"name", "params", "label"}
        unknown = sorted(set(method) - allowed)
        if unknown or "name" not in method:
            raise ConfigError(
                f"method: a table needs 'name' and may have 'params' and 'label', "
                f"got keys {sorted(method)}"
            )
        return MethodConfig(
            name=str(method["name"]),
            params=dict(method.get("params") or {}),
            label=method.get("label"),
        )
    raise ConfigError(f"method: cannot use a {type(method).__name__} here")


def folder_name(spec) -> str:
    """The folder name of a dataset (that of its committed data too)."""
    return Path(spec.path).name


def chosen_datasets(suite: Suite, config, quick: bool, only) -> list:
    """The config's dataset specs the benchmark runs on (quick subset, ``only``).

    Raises
    ------
    ConfigError
        For a dataset not in the suite (or its quick subset) and for fewer
        than two datasets.
    """
    specs = list(config.datasets)
    names = [folder_name(s) for s in specs]
    wanted = list(suite.quick.datasets) if quick else names
    if only is not None:
        unknown = [d for d in only if d not in wanted]
        if unknown:
            raise ConfigError(
                f"datasets {unknown} are not in suite {suite.name!r}"
                f"{' (quick)' if quick else ''}; it has {wanted}"
            )
        wanted = [d for d in wanted if d in only]
    missing = [d for d in wanted if d not in names]
    if missing:
        raise ConfigError(f"suite {suite.name!r}: {missing} not in {config.name}")
    if len(wanted) < 2:
        raise ConfigError(
            f"a benchmark needs at least 2 datasets (the Friedman test), got {wanted}"
        )
    return [specs[names.index(d)] for d in wanted]


def label_of(plan, i: int) -> str:
    """The method label of fit ``i`` of ``plan``."""
    return plan.selections[plan.fits[i].selection].method.label


def kept_fits(plan, folds, budgets) -> list[int]:
    """Indices of the plan's fits in ``folds`` and at ``budgets`` (None: all)."""
    unit = plan.config.protocol.budget_unit
    wanted = None if budgets is None else {float(b) for b in budgets}
    kept = []
    for i, f in enumerate(plan.fits):
        s = plan.selections[f.selection]
        if folds is not None and s.fold not in folds:
            continue
        if wanted is not None and not s.method.is_all_features:
            value = f.pct if unit == "percent" else f.k
            if float(value) not in wanted:
                continue
        kept.append(i)
    return kept


def task_seconds(timings: pd.DataFrame) -> float:
    """The measured seconds of a timings table, summed (NaN left out)."""
    return float(np.nansum(timings["seconds"].to_numpy(dtype=float)))
