"""Recompute an experiment's tasks and compare with its stored results.

``mlfs verify DIR`` (:func:`verify_experiment`) reruns a seeded sample of the
classifier fits of an experiment written by ``mlfs experiment --out DIR``
(or all of them), from its saved ``config.toml``, without any cache and
without reusing identical fits (each sampled fit really runs), and reports
the largest absolute difference from ``results.csv``. Every rule that
decides a value (exact ties, deterministic neighbours, one classifier
representation, seeded folds and methods, the pinned BLAS kernel) is meant to
make that difference 0.

A compact table, with stochastic repeats averaged and no ``repeat`` column
(a study's ``results.csv.gz``, :func:`_average_repeats`), is verified the same
way: every repeat of a sampled fit is recomputed and averaged as it was.

A config whose methods give options as grids is planned as the experiment
was (:func:`~mlfs_core.evaluation.runner.plan_tuned`): the inner
experiments that choose each grid's value run again, without any cache, and
the values chosen per dataset and fold are compared with the run's
``tuning.csv`` (:attr:`VerifyResult.tuning`) before the sampled fits, which
use them, are compared.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ....columns import BUDGET, DATASET, FOLD, METHOD, METRIC, REPEAT, VALUE
from ...config import ExperimentConfig
from ..execute.run import execute_plan
from ..identity import fit_kernel
from ..plan.tuning import TUNING_COLUMNS, plan_tuned
from .tables import result_tables

KEYS = [DATASET, METHOD, BUDGET, FOLD, REPEAT, METRIC]
LINE = "line"
"""The comparison table's column giving the stored row's line in its file."""


@dataclass(frozen=True)
class VerifyResult:
    """Stored vs recomputed values of the verified fits.

    Attributes
    ----------
    table : DataFrame
        ``dataset, method, budget, fold, repeat, metric, stored, recomputed,
        abs_diff, line``, one row per recomputed metric value; ``line`` is
        the stored row's line in its file (the header is line 1; missing
        where the file has no such row).
    n_fits, n_fits_total : int
        Fits recomputed, and fits in the experiment.
    kernel : str or None
        The BLAS kernel the recomputed kernel-dependent fits ran under, or
        None when the classifier's values follow no kernel.
    tuning : DataFrame or None
        For a config with grids: ``dataset, method, fold, option, stored,
        recomputed, same``, one row per option chosen on an inner split
        (``stored`` missing where the run recorded no choice); None without
        grids.
    """

    table: pd.DataFrame
    n_fits: int
    n_fits_total: int
    kernel: str | None = None
    tuning: pd.DataFrame | None = None

    # kernel: the BLAS kernel the recomputed kernel-dependent fits ran under
    # (:func:`mlfs_core.blas.kernel_id`), None when the classifier's values do
    # not depend on the kernel.

    @property
    def max_abs_diff(self) -> float:
        """Largest absolute difference (NaN-safe; inf if a value is missing)."""
        if self.table.empty:
            return 0.0
        return float(self.table["abs_diff"].max())

    @property
    def tuning_identical(self) -> bool:
        """Whether every grid option's recomputed choice is the stored one."""
        return self.tuning is None or bool(self.tuning["same"].all())

    @property
    def identical(self) -> bool:
        """Whether every recomputed value equals the stored one bit for bit
        (and every recomputed choice of a grid option the stored one)."""
        return bool((self.table["abs_diff"] == 0).all()) and self.tuning_identical


def verify_experiment(
    config: ExperimentConfig,
    results: pd.DataFrame,
    *,
    sample: int | None = None,
    seed: int = 0,
    n_jobs: int = 1,
    progress=None,
    max_tasks: int | None = None,
    max_memory: int | None = None,
    tuning: pd.DataFrame | None = None,
    reuse_unidentified: bool = False,
) -> VerifyResult:
    """Recompute ``sample`` fits (default all) of ``config``; compare with ``results``.

    Parameters
    ----------
    config : ExperimentConfig
        The experiment's config (``DIR/config.toml``).
    results : DataFrame
        Its stored results (``DIR/results.csv``, one row per repeat), or a
        compact table without the ``repeat`` column (repeats averaged).
    sample : int, optional
        Number of fits to recompute, drawn with ``seed``; the selections they
        need are recomputed too. Default: every fit.
    seed : int, default=0
        Seed of the sample.
    n_jobs : int, default=1
        Parallel workers (the values do not depend on it).
    progress : callable, optional
        ``progress(done, total, message)`` after every task.
    max_tasks, max_memory, reuse_unidentified
        As for :func:`~mlfs_core.evaluation.runner.plan_experiment`.
    tuning : DataFrame, optional
        The run's ``tuning.csv`` (the values chosen for its grid options), to
        compare with the choices made again; a config with grids and no
        table compares every choice with a missing one.

    Returns
    -------
    VerifyResult
    """
    plan = plan_tuned(
        config,
        n_jobs=n_jobs,
        progress=progress,
        max_tasks=max_tasks,
        max_memory=max_memory,
        reuse_unidentified=reuse_unidentified,
    )
    fits = plan.fits
    chosen = np.arange(len(fits))
    if sample is not None and sample < len(fits):
        rng = np.random.default_rng(seed)
        chosen = np.sort(rng.choice(len(fits), size=sample, replace=False))
    compact = REPEAT not in results.columns
    if compact:
        chosen = _with_every_repeat(chosen, fits, plan.selections)
    sub = plan.with_fits(chosen)
    outcome = execute_plan(sub, n_jobs=n_jobs, progress=progress, reuse=False)
    fresh = result_tables(outcome).results
    keys = KEYS
    if compact:
        keys = [k for k in KEYS if k != REPEAT]
        fresh = _average_repeats(fresh[KEYS + [VALUE]])
    c = config.protocol.classifier
    kernel = fit_kernel(c.name, c.params)
    chosen_again = None
    if plan.tuning is not None:
        chosen_again = _compare_tuning(tuning, plan.tuning)
    return VerifyResult(
        _compare(results, fresh, keys), len(sub.fits), len(fits), kernel, chosen_again
    )


def _compare_tuning(stored: pd.DataFrame | None, fresh: pd.DataFrame) -> pd.DataFrame:
    """The recomputed choices of grid options beside the stored ones.

    Parameters
    ----------
    stored : DataFrame or None
        A run's ``tuning.csv`` (columns of
        :data:`~mlfs_core.evaluation.runner.plan.tuning.TUNING_COLUMNS`), None
        when it has none.
    fresh : DataFrame
        The same table, chosen again (:attr:`~mlfs_core.evaluation.Plan.tuning`).

    Returns
    -------
    DataFrame
        ``dataset, method, fold, option, stored, recomputed, same``, one row
        per recomputed choice. Two values are the same when both read as
        numbers and are equal (a CSV gives 3 back as 3.0 in a column of
        numbers), else when their text is equal.

    Examples
    --------
    >>> fresh = pd.DataFrame({"dataset": ["d"], "method": ["M"], "fold": [0],
    ...                       "option": ["alpha"], "value": [0.01], "score": [0.5]})
    >>> stored = fresh.assign(value=["0.010"])
    >>> _compare_tuning(stored, fresh)["same"].tolist()
    [True]
    >>> _compare_tuning(None, fresh)["same"].tolist()
    [False]
    """
    keys = [c for c in TUNING_COLUMNS if c not in ("value", "score")]
    left = fresh[keys + ["value"]].rename(columns={"value": "recomputed"})
    left[FOLD] = left[FOLD].astype(np.int64)
    if stored is None:
        right = pd.DataFrame({**{k: [] for k in keys}, "stored": []})
    else:
        right = stored[keys + ["value"]].rename(columns={"value": "stored"})
    right = right.astype({FOLD: np.int64, DATASET: str, METHOD: str, "option": str})
    table = left.merge(right, on=keys, how="left")
    table["same"] = [
        _same_value(a, b)
        for a, b in zip(table["stored"], table["recomputed"], strict=True)
    ]
    return table[keys + ["stored", "recomputed", "same"]]


def tuning_lines(table) -> list[str]:
    """What ``mlfs verify`` says of the grid options' choices made again.

    One line with the count and the verdict, then one per choice that
    differs from the stored one (at most five, then how many more); nothing
    for a config without grids.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"dataset": ["d", "d"], "method": ["M", "M"],
    ...     "fold": [0, 1], "option": ["alpha"] * 2, "stored": ["0.1", "1"],
    ...     "recomputed": [0.1, 0.01], "same": [True, False]})
    >>> for line in tuning_lines(t):
    ...     print(line)
    chose the values of 2 grid options again on their inner splits: 1 DIFFERENT
      d, M, fold 1: alpha stored 1, chosen again 0.01
    """
    if table is None:
        return []
    differ = table[~table["same"]]
    verdict = "identical" if differ.empty else f"{len(differ)} DIFFERENT"
    lines = [
        f"chose the values of {len(table)} grid options again on their inner "
        f"splits: {verdict}"
    ]
    for row in differ.head(5).itertuples(index=False):
        stored = "none recorded" if pd.isna(row.stored) else f"stored {row.stored}"
        lines.append(
            f"  {row.dataset}, {row.method}, fold {row.fold}: {row.option} "
            f"{stored}, chosen again {row.recomputed}"
        )
    if len(differ) > 5:
        lines.append(f"  ... and {len(differ) - 5} more")
    return lines


def _same_value(stored, recomputed) -> bool:
    """Equal as numbers when both read as numbers, else equal as text."""
    if stored is None or (isinstance(stored, float) and np.isnan(stored)):
        return False
    try:
        return float(stored) == float(recomputed)
    except (TypeError, ValueError):
        return str(stored) == str(recomputed)


def _average_repeats(results: pd.DataFrame) -> pd.DataFrame:
    """Average stochastic repeats: one row per value's cell, without ``repeat``.

    Parameters
    ----------
    results : DataFrame
        A results table with a ``repeat`` column.

    Returns
    -------
    DataFrame
        The other columns, grouped in order of first appearance, with the mean
        ``value`` of the repeats (a deterministic method's single repeat is
        its value, exactly).

    Examples
    --------
    >>> t = pd.DataFrame({"method": ["R", "R", "M"], "repeat": [0, 1, 0],
    ...                   "value": [0.25, 0.75, 0.5]})
    >>> _average_repeats(t).to_dict("list")
    {'method': ['R', 'M'], 'value': [0.5, 0.5]}
    """
    keys = [c for c in results.columns if c not in (REPEAT, VALUE)]
    return results.groupby(keys, as_index=False, dropna=False, sort=False)[VALUE].mean()


def _with_every_repeat(chosen, fits, selections) -> np.ndarray:
    """The chosen fits plus every other repeat of the same cell."""

    def cell(i):
        j, k, _ = fits[i]
        s = selections[j]
        return (s.dataset.name, s.method.name, s.fold, k)

    wanted = {cell(i) for i in chosen}
    return np.array([i for i in range(len(fits)) if cell(i) in wanted], dtype=np.int64)


def _compare(stored: pd.DataFrame, fresh: pd.DataFrame, keys=KEYS) -> pd.DataFrame:
    left = fresh[keys + [VALUE]].rename(columns={VALUE: "recomputed"})
    right = stored[keys + [VALUE]].rename(columns={VALUE: "stored"})
    right[LINE] = np.arange(len(right), dtype=np.int64) + 2  # line 1: the header
    for key in (BUDGET, FOLD, REPEAT):
        if key in keys:
            left[key] = left[key].astype(np.int64)
            right[key] = right[key].astype(np.int64)
    table = left.merge(right, on=keys, how="left")
    diff = (table["recomputed"] - table["stored"]).abs()
    both_nan = table["recomputed"].isna() & table["stored"].isna()
    table["abs_diff"] = diff.where(~both_nan, 0.0).fillna(np.inf)
    table[LINE] = table[LINE].astype("Int64")  # missing where no stored row
    return table[keys + ["stored", "recomputed", "abs_diff", LINE]]


@dataclass(frozen=True)
class _StoredExperiment:
    """An experiment's config and stored values, as :func:`load_stored` finds them.

    Attributes
    ----------
    config : ExperimentConfig
    results : DataFrame
        One row per repeat, or compact (repeats averaged, no ``repeat``).
    recorded_kernel : str or None
        The BLAS kernel recorded with the values, None where none was.
    plugins : list of dict or None
        The code identity of the plug-ins recorded with the values
        (``environment.json``'s ``plugins``,
        :func:`~mlfs_core.evaluation.runner.identity.code_records`), None
        where none was recorded.
    results_file : str
        The file the values were read from.
    tuning : DataFrame or None
        The values chosen for the config's grid options (``tuning.csv``),
        None where the folder has none.
    """

    config: ExperimentConfig
    results: pd.DataFrame
    recorded_kernel: str | None
    plugins: list | None = None
    results_file: str = ""
    tuning: pd.DataFrame | None = None


def load_stored(
    folder, *, trust_plugins: bool = False, chosen_plugins=()
) -> _StoredExperiment:
    """Read an experiment folder, or one dataset's folder of a study.

    The config is read as plain TOML first: when it names plug-in code that
    is neither installed as an entry point nor loaded by the user, nothing is
    imported and
    :class:`~mlfs_core.evaluation.runner.guard.trust.UntrustedPlugins`
    names that code, unless ``trust_plugins`` (``mlfs verify --trust-plugins``).

    Parameters
    ----------
    folder : path
        Either an output folder of ``mlfs experiment --out`` (``config.toml``,
        ``results.csv`` and ``environment.json``; the config may also sit
        beside the folder as ``FOLDER.toml``, as the shipped sample's does), or a
        study dataset's folder (``meta.json`` naming the study's config file,
        relative to the project root, and ``results.csv.gz``).

    trust_plugins : bool, default=False
        Import the plug-in code the config names without asking.
    chosen_plugins : sequence of str, optional
        Plug-in specs the user chose besides those loaded in this process
        (``mlfs verify`` passes ``MLFS_PLUGINS``'s): trusted
        (:func:`~mlfs_core.evaluation.runner.guard.trust.check_config_trusted`).

    Returns
    -------
    _StoredExperiment

    Raises
    ------
    ConfigError
        When the folder holds neither layout, naming the missing file once.
    UntrustedPlugins
        When the config names plug-in code not chosen here.
    """
    from dataclasses import replace
    from pathlib import Path

    from ....errors import ConfigError
    from ...io import read_results

    trusted = {"trust": trust_plugins, "chosen": chosen_plugins}
    folder = Path(folder)
    if not folder.is_dir():
        raise ConfigError(f"{folder}: no such folder")
    config_path = folder / "config.toml"
    if not config_path.is_file() and folder.with_suffix(".toml").is_file():
        config_path = folder.with_suffix(".toml")  # the shipped sample's layout
    if config_path.is_file():
        results = folder / "results.csv"
        if not results.is_file():
            raise ConfigError(f"results.csv not found in {folder}")
        env = folder / "environment.json"
        recorded, plugins = None, None
        if env.is_file():
            data = _json(env)
            recorded = data.get("fit_kernels")
            recorded = "+".join(recorded) if recorded else None
            plugins = data.get("plugins")
        table = read_results(results)
        config = _trusted_config(config_path, trusted)
        tuning = _tuning_table(folder)
        return _StoredExperiment(config, table, recorded, plugins, str(results), tuning)
    meta_path = folder / "meta.json"
    if not meta_path.is_file():
        raise ConfigError(f"{folder} has neither config.toml nor a study's meta.json")
    meta = _json(meta_path)
    config_file = _find_upwards(folder, meta.get("config", ""))
    if config_file is None:
        raise ConfigError(f"{meta_path}: its config {meta.get('config')!r} not found")
    config = _trusted_config(config_file, trusted)
    name = meta.get("dataset")
    specs = [d for d in config.datasets if (d.name or Path(d.path).name) == name]
    if not specs:
        raise ConfigError(f"{config_file} has no dataset {name!r} (from {meta_path})")
    results = folder / "results.csv.gz"
    if not results.is_file():
        raise ConfigError(f"results.csv.gz not found in {folder}")
    table = read_results(results)
    recorded = (meta.get("blas") or {}).get("kernel")
    config = replace(config, datasets=tuple(specs))
    return _StoredExperiment(config, table, recorded, None, str(results))


def _trusted_config(path, trusted: dict):
    """The config at ``path``, read once ``mlfs verify`` may import the plug-in
    code it names (:func:`~mlfs_core.evaluation.runner.guard.trust.check_config_trusted`
    with ``trusted``'s ``trust`` and ``chosen``)."""
    from ...config import load_config
    from ..guard.trust import check_config_trusted

    check_config_trusted(path, command="mlfs verify", **trusted)
    return load_config(path)


def _tuning_table(folder) -> pd.DataFrame | None:
    """The folder's ``tuning.csv`` (None when absent), read with its values as
    text so that no value changes type on the way."""
    path = folder / "tuning.csv"
    if not path.is_file():
        return None
    return pd.read_csv(path, dtype={"value": str})


def _json(path) -> dict:
    """The JSON object in ``path``; a ConfigError naming the file and line if
    it is not one."""
    import json

    from ....errors import ConfigError

    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path} is not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{path}, line {exc.lineno}: not valid JSON ({exc.msg})"
        ) from None
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: expected a JSON object, got {type(value).__name__}")
    return value


def _find_upwards(folder, relative: str):
    if not relative:
        return None
    for base in [folder, *folder.resolve().parents]:
        if (base / relative).is_file():
            return base / relative
    return None
