"""Recompute an experiment's tasks and compare with its stored results.

``mlfs verify DIR`` (:func:`verify_experiment`) reruns a seeded sample of the
classifier fits of an experiment written by ``mlfs experiment --out DIR``
(or all of them), from its saved ``config.toml``, without any cache and
without reusing identical fits (each sampled fit really runs), and reports
the largest absolute difference from ``results.csv``. Every rule that
decides a value (exact ties, deterministic neighbours, one classifier
representation, seeded folds and methods) is meant to make that difference 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..cache import DiskCache
from ..columns import BUDGET, DATASET, FOLD, METHOD, METRIC, REPEAT, VALUE
from ._prepare import prepare
from .protocols import ExperimentConfig
from .runner import (
    _fit_grid,
    _results_table,
    _run_fits,
    _run_selections,
    _selection_grid,
    _Tracker,
)

KEYS = [DATASET, METHOD, BUDGET, FOLD, REPEAT, METRIC]


@dataclass(frozen=True)
class VerifyResult:
    """Stored vs recomputed values of the verified fits.

    Attributes
    ----------
    table : DataFrame
        ``dataset, method, budget, fold, repeat, metric, stored, recomputed,
        abs_diff``, one row per recomputed metric value.
    n_fits, n_fits_total : int
        Fits recomputed, and fits in the experiment.
    """

    table: pd.DataFrame
    n_fits: int
    n_fits_total: int

    @property
    def max_abs_diff(self) -> float:
        """Largest absolute difference (NaN-safe; inf if a value is missing)."""
        if self.table.empty:
            return 0.0
        return float(self.table["abs_diff"].max())

    @property
    def identical(self) -> bool:
        """Whether every recomputed value equals the stored one bit for bit."""
        return bool((self.table["abs_diff"] == 0).all())


def verify_experiment(
    config: ExperimentConfig,
    results: pd.DataFrame,
    *,
    sample: int | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    progress=None,
) -> VerifyResult:
    """Recompute ``sample`` fits (default all) of ``config``; compare with ``results``.

    Parameters
    ----------
    config : ExperimentConfig
        The experiment's config (``DIR/config.toml``).
    results : DataFrame
        Its stored results (``DIR/results.csv``, one row per repeat).
    sample : int, optional
        Number of fits to recompute, drawn with ``seed``; the selections they
        need are recomputed too. Default: every fit.
    seed : int, default=0
        Seed of the sample.
    n_jobs : int, default=1
        Parallel workers (the values do not depend on it).

    Returns
    -------
    VerifyResult
    """
    datasets, methods = prepare(config)
    selections = [s for d in datasets for s in _selection_grid(d, methods, config)]
    fits = _fit_grid(selections)
    chosen = np.arange(len(fits))
    if sample is not None and sample < len(fits):
        rng = np.random.default_rng(seed)
        chosen = np.sort(rng.choice(len(fits), size=sample, replace=False))
    subset = [fits[i] for i in chosen]
    needed = sorted({j for j, _, _ in subset})
    cache = DiskCache(None)
    tracker = _Tracker(progress, len(needed) + len(subset))
    done = _run_selections([selections[j] for j in needed], cache, n_jobs, tracker)
    orders: list = [None] * len(selections)
    for j, order in zip(needed, done):
        orders[j] = order
    fit_out = _run_fits(
        selections, subset, orders, config, cache, n_jobs, tracker, reuse=False
    )
    fresh = _results_table(selections, subset, fit_out, config.protocol.name)
    return VerifyResult(_compare(results, fresh), len(subset), len(fits))


def _compare(stored: pd.DataFrame, fresh: pd.DataFrame) -> pd.DataFrame:
    left = fresh[KEYS + [VALUE]].rename(columns={VALUE: "recomputed"})
    right = stored[KEYS + [VALUE]].rename(columns={VALUE: "stored"})
    for key in (BUDGET, FOLD, REPEAT):
        left[key] = left[key].astype(np.int64)
        right[key] = right[key].astype(np.int64)
    table = left.merge(right, on=KEYS, how="left")
    diff = (table["recomputed"] - table["stored"]).abs()
    both_nan = table["recomputed"].isna() & table["stored"].isna()
    table["abs_diff"] = diff.where(~both_nan, 0.0).fillna(np.inf)
    return table[KEYS + ["stored", "recomputed", "abs_diff"]]
