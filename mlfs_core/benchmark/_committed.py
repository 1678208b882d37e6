"""Checking a study's committed data: may it stand for the built-in methods?

Committed data of a dataset is reused only when every check holds
(:func:`check_committed`): the engine version of the run that wrote it equals
this one, it names the suite's config, the dataset's size (N, M, q) and the
protocol's name match, it holds every (method, fold, budget, metric) the
comparison needs, and a *probe* recomputes one task of it exactly: the
ranking of its cheapest deterministic method on the first fold (equal to the
committed ranking) and that ranking's fit at the smallest budget (equal
metric values). The probe checks the split, the seed, the preprocessing, the
classifier and the metrics at once.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..cache import engine_id
from ..columns import BUDGET, FEATURES, FOLD, METHOD, METRIC, REPEAT, STAGE, VALUE
from ..evaluation.runner import execute_plan
from ._plan import folder_name, label_of
from ._suites import Suite


@dataclass(frozen=True)
class Check:
    """Whether a dataset's committed data can stand for the built-in methods.

    Attributes
    ----------
    dataset : str
    usable : bool
    reason : str
        Why not (empty when usable), or what the probe compared.
    probe_seconds : float
        Time spent recomputing the probe task (0 when it came from the cache).
    missing : bool
        The dataset has no committed data (e.g. a study dataset in progress).
    left_out : bool
        The benchmark left the dataset out: no committed data, and the task
        cache does not hold every built-in task it needs.
    """

    dataset: str
    usable: bool
    reason: str
    probe_seconds: float = 0.0
    missing: bool = False
    left_out: bool = False


def _needed(plan, fit_indices) -> pd.DataFrame:
    """The (method, fold, budget) rows the built-ins' kept fits stand for."""
    rows = {
        (
            plan.selections[plan.fits[i].selection].method.label,
            plan.selections[plan.fits[i].selection].fold,
            plan.fits[i].k,
        )
        for i in fit_indices
    }
    return pd.DataFrame(sorted(rows), columns=[METHOD, FOLD, BUDGET])


def _read_committed(folder: Path) -> pd.DataFrame:
    """The committed results, read as any results table (bounded, exact)."""
    from ..evaluation.io import read_results

    return read_results(folder / "results.csv.gz")


def committed_rows(folder: Path, plan, fit_indices) -> pd.DataFrame:
    table = _read_committed(folder)
    needed = _needed(plan, fit_indices)
    return table.merge(needed, on=[METHOD, FOLD, BUDGET], how="inner")


def committed_selections(folder: Path, plan, fit_indices) -> pd.DataFrame:
    path = folder / "selections.csv.gz"
    if not path.is_file():
        return pd.DataFrame()
    table = pd.read_csv(path, dtype={FEATURES: str}, keep_default_na=False)
    needed = _needed(plan, fit_indices)[[METHOD, FOLD]].drop_duplicates()
    return table.merge(needed, on=[METHOD, FOLD], how="inner")


def check_committed(
    suite: Suite, spec, plan, fit_indices, *, cache_dir=None, probe: bool = True
) -> Check:
    """Whether a dataset's committed data holds the built-ins' values of ``plan``.

    Parameters
    ----------
    suite : Suite
    spec : DatasetSpec
        The dataset, as the suite's config lists it.
    plan : Plan
        The dataset's plan (the suite's protocol, built-ins and the method).
    fit_indices : sequence of int
        The built-ins' fits the benchmark needs.
    cache_dir : path, optional
        Task cache of the probe.
    probe : bool, default=True
        Recompute the probe task (see the module docstring).

    Returns
    -------
    Check
    """
    name = plan.selections[0].dataset.name
    folder = Path(suite.data_dir) / folder_name(spec)
    if (
        not (folder / "results.csv.gz").is_file()
        or not (folder / "meta.json").is_file()
    ):
        return Check(name, False, f"no committed data in {folder}", missing=True)
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    reason = _meta_differs(suite, plan, meta)
    if reason:
        return Check(name, False, reason)
    table = _read_committed(folder)
    reason = _values_missing(plan, fit_indices, table)
    if reason:
        return Check(name, False, reason)
    if not probe:
        return Check(name, True, "committed data (not probed)")
    return _probe(folder, plan, fit_indices, table, cache_dir)


def _meta_differs(suite: Suite, plan, meta: dict) -> str:
    """Why the committed data's engine, config or dataset size is not the plan's."""
    engine = meta.get("code_version", {}).get("engine", "unrecorded")
    if engine != engine_id():
        return f"committed by engine {engine}, this is {engine_id()}"
    recorded = Path(str(meta.get("config", ""))).name
    if recorded != Path(suite.config).name:
        return f"committed from config {recorded!r}, not {Path(suite.config).name}"
    ds = plan.selections[0].dataset.dataset
    shape = {"N": ds.X.shape[0], "M": ds.X.shape[1], "q": np.asarray(ds.Y).shape[1]}
    stats = meta.get("stats", {})
    if any(stats.get(k) != v for k, v in shape.items()):
        return f"dataset size {shape} differs from the committed {stats}"
    return ""


def _values_missing(plan, fit_indices, table: pd.DataFrame) -> str:
    """Why the committed table cannot give every value the plan's fits need."""
    protocols = set(table["protocol"].astype(str))
    if protocols != {plan.config.protocol.name}:
        return (
            f"committed protocol {sorted(protocols)}, suite's is "
            f"{plan.config.protocol.name!r}"
        )
    needed = _needed(plan, fit_indices)
    metrics = list(plan.config.protocol.metrics)
    have = table[table[METRIC].isin(metrics)].groupby([METHOD, FOLD, BUDGET])[METRIC]
    counts = have.nunique().rename("n").reset_index()
    joined = needed.merge(counts, on=[METHOD, FOLD, BUDGET], how="left")
    short = joined[joined["n"].fillna(0) < len(metrics)]
    if not len(short):
        return ""
    first = short.iloc[0]
    return (
        f"{len(short)} (method, fold, budget) value sets missing from the "
        f"committed data (first: {first[METHOD]} fold {first[FOLD]} budget "
        f"{first[BUDGET]})"
    )


def _probe(folder, plan, fit_indices, table, cache_dir) -> Check:
    """Recompute the cheapest deterministic built-in's first kept fit; compare."""
    name = plan.selections[0].dataset.name
    first = _probe_fit(folder, plan, fit_indices)
    if first is None:
        return Check(name, False, "no deterministic method to probe the data with")
    fit = plan.fits[first]
    s = plan.selections[fit.selection]
    t0 = time.perf_counter()
    outcome = execute_plan(plan.with_fits([first]), cache_dir=cache_dir)
    seconds = time.perf_counter() - t0
    where = f"{s.method.label} fold {s.fold} budget {fit.k}"
    order = np.asarray(outcome.orders[fit.selection]["order"], dtype=np.int64)
    committed = committed_selections(folder, plan, [first])
    committed = committed[committed[REPEAT] == 0] if len(committed) else committed
    if len(committed) != 1:
        return Check(name, False, f"no committed ranking of {where}", seconds)
    text = str(committed[FEATURES].iloc[0])
    features = np.asarray([int(x) for x in text.split()], dtype=np.int64)
    n = min(len(features), len(order))
    if n == 0 or not np.array_equal(order[:n], features[:n]):
        return Check(name, False, f"probe {where}: the ranking differs", seconds)
    rows = table[
        (table[METHOD] == s.method.label)
        & (table[FOLD] == s.fold)
        & (table[BUDGET] == fit.k)
    ]
    values = dict(zip(rows[METRIC], rows[VALUE]))
    mine = outcome.fits[0]["metrics"]
    differ = [
        m
        for m, v in mine.items()
        if m in values and not np.isclose(v, values[m], rtol=1e-9, atol=1e-12)
    ]
    if differ or not set(mine) <= set(values):
        return Check(
            name, False, f"probe {where}: {differ or 'metrics'} differ", seconds
        )
    return Check(name, True, f"probe {where} recomputed equal", seconds)


def _probe_fit(folder, plan, fit_indices) -> int | None:
    """The fit to probe: the cheapest deterministic built-in's, first fold and k."""
    candidates = [
        i
        for i in fit_indices
        if not plan.selections[plan.fits[i].selection].method.stochastic
        and not plan.selections[plan.fits[i].selection].method.is_all_features
    ]
    if not candidates:
        return None
    cost = _selection_cost(folder)
    return min(
        candidates,
        key=lambda i: (
            cost.get(label_of(plan, i), np.inf),
            plan.selections[plan.fits[i].selection].fold,
            plan.fits[i].k,
        ),
    )


def _selection_cost(folder: Path) -> dict[str, float]:
    path = folder / "timings.csv"
    if not path.is_file():
        return {}
    t = pd.read_csv(path)
    t = t[t[STAGE] == "selection"]
    return t.groupby(METHOD)["seconds"].sum().to_dict()
