"""The engine's output writer: an experiment's tables as files, written atomically.

:func:`write_run_files` writes what every run leaves: ``results.csv``,
``config.toml``, ``selections.csv``, ``timings.csv`` and ``environment.json``
(engine version and BLAS kernel, :func:`~.runner.environment`);
:func:`write_atomically` writes a folder's files so that a failure midway
leaves its previous files as they were (``mlfs experiment`` and the app's
run folders both write through it), checking first that an estimate of their
size (:func:`estimate_output_bytes`) fits the free space (:func:`check_space`)
and naming the file a full device cut short; :func:`write_table` writes one table,
gzipped reproducibly when its name ends in ``.gz``; :func:`compact_results`
and :func:`compact_selections` are the studies' compact form of the tables.
The analysis tables, ``summary.md`` and ``README.md`` of ``mlfs experiment
--out`` are :mod:`mlfs_core.report`'s; :mod:`mlfs_core.evaluation.io` reads
these files back.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import budget_from_percent
from ..columns import DATASET, FEATURES, REPEAT, VALUE
from ..errors import ConfigError, DiskFullError
from .config import DatasetSpec, ExperimentConfig, config_to_toml, middle_budget
from .io import FEATURE_NAMES, escape_csv_text
from .runner import ExperimentResult
from .runner.plan.bounds import human
from .runner.plan.prepare import SAMPLE_NAME, resolve_path

__all__ = [
    "CONFIG_FILE",
    "ENVIRONMENT_FILE",
    "FEATURE_NAMES",
    "RESULTS_FILE",
    "RUN_FILES",
    "SCRATCH_PREFIX",
    "SELECTIONS_FILE",
    "TIMINGS_FILE",
    "TUNING_FILE",
    "absolute_paths",
    "check_space",
    "compact_results",
    "compact_selections",
    "estimate_output_bytes",
    "selections_table",
    "write_atomically",
    "write_run_files",
    "write_table",
]

RESULTS_FILE = "results.csv"
SELECTIONS_FILE = "selections.csv"
TIMINGS_FILE = "timings.csv"
ENVIRONMENT_FILE = "environment.json"
CONFIG_FILE = "config.toml"
TUNING_FILE = "tuning.csv"
"""The values chosen for grid options
(:mod:`mlfs_core.evaluation.runner.plan.tuning`)."""
RUN_FILES = (
    RESULTS_FILE,
    CONFIG_FILE,
    SELECTIONS_FILE,
    TIMINGS_FILE,
    ENVIRONMENT_FILE,
    TUNING_FILE,
)
"""The files :func:`write_run_files` may write, in the order it writes them."""
SCRATCH_PREFIX = ".writing-"
"""Name prefix of the scratch folder :func:`write_atomically` writes into."""
_NAME_SEPARATOR = "|"

_GZIP = {"method": "gzip", "mtime": 0}
"""Compression of ``*.gz`` tables: no time stamp, so equal tables give equal bytes."""


def write_table(table: pd.DataFrame, path: str | Path, *, index: bool = False) -> Path:
    """Write ``table`` as CSV to ``path``; gzip it when the name ends in ``.gz``.

    Text cells a spreadsheet would evaluate as a formula are escaped
    (:func:`escape_csv_text`).

    Parameters
    ----------
    table : DataFrame
        The table to write.
    path : str or Path
        Destination file. A ``.gz`` suffix writes gzip without a time stamp,
        so writing the same table twice gives the same bytes.
    index : bool, default False
        Whether to write the row index as the first column.

    Returns
    -------
    Path
        ``path``.

    Examples
    --------
    >>> import gzip, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> table = pd.DataFrame({"a": [1, 2]})
    >>> write_table(table, folder / "t.csv").read_text()
    'a\\n1\\n2\\n'
    >>> one = write_table(table, folder / "t.csv.gz").read_bytes()
    >>> one == write_table(table, folder / "t.csv.gz").read_bytes()
    True
    >>> gzip.decompress(one)
    b'a\\n1\\n2\\n'
    """
    path = Path(path)
    compression = _GZIP if path.suffix == ".gz" else None
    escape_csv_text(table).to_csv(path, index=index, compression=compression)
    return path


def selections_table(
    selections: pd.DataFrame, feature_names: Mapping[str, Sequence[str]] | None = None
) -> pd.DataFrame:
    """``selections`` with each ranking as space-separated indices (and names).

    Parameters
    ----------
    selections : DataFrame
        The runner's selections table (``features`` holds int arrays).
    feature_names : mapping of str to sequence of str, optional
        Dataset name -> its feature names
        (:attr:`~.runner.ExperimentResult.feature_names`). When given, a
        ``feature_names`` column follows ``features`` with the same ranking
        as names joined by ``|`` (a ``|`` inside a name is written ``\\|``);
        a dataset missing from the mapping gets an empty cell.

    Returns
    -------
    DataFrame

    Examples
    --------
    >>> import numpy as np
    >>> sel = pd.DataFrame({"dataset": ["d"], "features": [np.array([2, 0, 1])]})
    >>> selections_table(sel)["features"].tolist()
    ['2 0 1']
    >>> selections_table(sel, {"d": ["a", "b", "c"]})["feature_names"].tolist()
    ['c|a|b']
    """
    joined = selections[FEATURES].map(lambda a: " ".join(map(str, a)))
    out = selections.assign(**{FEATURES: joined})
    if feature_names is None:
        return out
    escaped = {
        d: [str(n).replace(_NAME_SEPARATOR, "\\" + _NAME_SEPARATOR) for n in names]
        for d, names in feature_names.items()
    }
    names = [
        _NAME_SEPARATOR.join(escaped[d][i] for i in order) if d in escaped else ""
        for d, order in zip(selections[DATASET], selections[FEATURES])
    ]
    position = list(out.columns).index(FEATURES) + 1
    out.insert(position, FEATURE_NAMES, names)
    return out


def absolute_paths(config: ExperimentConfig) -> ExperimentConfig:
    """``config`` with dataset paths resolved, so ``mlfs verify DIR`` works anywhere.

    The bundled ``"sample"`` and in-memory datasets are kept as they are.
    """

    def fix(spec):
        if not isinstance(spec, DatasetSpec) or spec.path == SAMPLE_NAME:
            return spec
        return replace(
            spec, path=str(resolve_path(spec.path, config.base_dir).resolve())
        )

    return replace(config, datasets=tuple(fix(d) for d in config.datasets))


def write_run_files(
    result: ExperimentResult, out: str | Path, *, resolve_paths: bool = True
) -> list[Path]:
    """Write results, config, selections, timings, environment (engine, BLAS)
    and, for a config with grids, the values chosen (``tuning.csv``).

    Parameters
    ----------
    result : ExperimentResult
        What :func:`mlfs_core.evaluation.runner.run_experiment` returns.
    out : str or Path
        Folder to write into (created if missing).
    resolve_paths : bool, default True
        Write the config's dataset paths resolved (:func:`absolute_paths`);
        False writes them as the config gives them.

    Returns
    -------
    list of Path
        The files written. ``config.toml`` is left out when the config holds
        in-memory datasets, which TOML cannot describe.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = [write_table(result.results, out / RESULTS_FILE)]
    config = absolute_paths(result.config) if resolve_paths else result.config
    try:
        text = config_to_toml(config)
    except ConfigError:  # an uploaded (in-memory) dataset has no path
        text = None
    if text is not None:
        (out / CONFIG_FILE).write_text(text, encoding="utf-8")
        written.append(out / CONFIG_FILE)
    names = getattr(result, "feature_names", None) or None
    written.append(
        write_table(selections_table(result.selections, names), out / SELECTIONS_FILE)
    )
    written.append(write_table(result.timings, out / TIMINGS_FILE))
    if result.environment:  # engine version and BLAS kernel (mlfs_core.blas)
        text = json.dumps(result.environment, indent=2, sort_keys=True) + "\n"
        (out / ENVIRONMENT_FILE).write_text(text, encoding="utf-8")
        written.append(out / ENVIRONMENT_FILE)
    if getattr(result, "tuning", None) is not None:
        written.append(write_table(result.tuning, out / TUNING_FILE))
    return written


def write_atomically(
    out: str | Path,
    write: Callable[[Path], Sequence[Path]],
    *,
    replaces: Iterable[str] = RUN_FILES,
    need: int | None = None,
) -> list[Path]:
    """Write a folder's files so that a failure midway leaves the old ones intact.

    ``write(folder)`` writes the files into a scratch folder inside ``out``
    and returns them; only once it has returned are they moved into ``out``,
    one rename each (the same file system, so no copy). An exception while
    writing, or a process killed then, leaves the files already in ``out``
    as they were. Files named in ``replaces`` that this write did not
    produce (an earlier run's ``config.toml`` or ``recovery.csv``) are
    removed; anything else in ``out`` (a task cache, a lock file) is left
    alone.

    Parameters
    ----------
    out : str or Path
        The folder (created if missing).
    write : callable
        ``write(folder) -> list of Path``: writes the files into ``folder``
        (e.g. ``lambda d: write_run_files(result, d)``).
    replaces : iterable of str, default=RUN_FILES
        The file names a write owns in ``out``.
    need : int, optional
        Bytes the files are estimated to take (:func:`estimate_output_bytes`):
        checked against the free space of ``out``'s device first
        (:func:`check_space`), so a write that cannot fit is refused before
        it starts.

    Returns
    -------
    list of Path
        The files, now in ``out``.

    Raises
    ------
    DiskFullError
        When ``need`` is more than the free space, or the device fills while
        writing (``ENOSPC``): the message names the file being written (or
        the folder) and says that the files already in ``out`` are as they
        were; the scratch folder is removed.

    Examples
    --------
    >>> folder = Path(tempfile.mkdtemp())
    >>> def two(d):
    ...     table = pd.DataFrame({"a": [0]})
    ...     return [write_table(table, d / f"{i}.csv") for i in (1, 2)]
    >>> [p.name for p in write_atomically(folder, two, replaces=["1.csv", "2.csv"])]
    ['1.csv', '2.csv']
    >>> sorted(p.name for p in folder.iterdir())
    ['1.csv', '2.csv']
    """
    out = Path(out)
    scratch = None
    try:
        out.mkdir(parents=True, exist_ok=True)
        if need is not None:
            check_space(out, need)
        scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=out))
        written = list(write(scratch))
        names = {p.name for p in written}
        for stale in set(replaces) - names:
            (out / stale).unlink(missing_ok=True)
        final = []
        for path in written:
            os.replace(path, out / path.name)
            final.append(out / path.name)
    except OSError as exc:  # pyarrow's carries no errno, only the text
        if exc.errno != errno.ENOSPC and "No space left" not in str(exc):
            raise
        path = exc.filename or _newest(scratch) or out
        raise DiskFullError(
            f"no space left on device writing {path}; the files already in {out} "
            "are as they were",
            str(path),
        ) from None
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    return final


def _newest(folder: Path | None) -> Path | None:
    """The file last written under ``folder`` (the one a full device cut short)."""
    if folder is None:
        return None
    files = [p for p in folder.rglob("*") if p.is_file()]
    return max(files, key=lambda p: p.stat().st_mtime_ns, default=None)


SPACE_OVERHEAD = 64 * 1024
"""Bytes :func:`estimate_output_bytes` adds for the small files (summary, README)."""


def estimate_output_bytes(result: ExperimentResult, *, sample: int = 200) -> int:
    """An estimate of the bytes the files of ``mlfs experiment --out`` take.

    Each table is rendered as CSV for its first ``sample`` rows, and the
    mean row length scaled to all its rows: ``results.csv`` counts twice
    (it is written again as ``results.parquet`` and summarised in the
    analysis tables), ``selections.csv`` and ``timings.csv`` once, plus
    :data:`SPACE_OVERHEAD` for ``summary.md``, ``README.md``,
    ``config.toml`` and ``environment.json``.

    Parameters
    ----------
    result : ExperimentResult
    sample : int, default=200
        Rows rendered per table.

    Returns
    -------
    int
    """
    names = getattr(result, "feature_names", None) or None
    head = result.selections.head(sample)
    tables = (
        (result.results, result.results.head(sample), 2),
        (result.selections, selections_table(head, names), 1),
        (result.timings, result.timings.head(sample), 1),
    )
    total = SPACE_OVERHEAD
    for table, rendered, times in tables:
        if len(rendered):
            size = len(rendered.to_csv(index=False).encode("utf-8"))
            total += times * int(size * len(table) / len(rendered))
    return total


def check_space(folder: str | Path, need: int) -> None:
    """Refuse a write of ``need`` bytes into ``folder`` that its device cannot take.

    Parameters
    ----------
    folder : str or Path
        An existing folder (its device's free space is read with
        :func:`shutil.disk_usage`).
    need : int
        Bytes the write is estimated to take.

    Raises
    ------
    DiskFullError
        Naming the folder, the bytes needed and the bytes free.

    Examples
    --------
    >>> check_space(tempfile.gettempdir(), 1)
    """
    free = shutil.disk_usage(folder).free
    if need > free:
        raise DiskFullError(
            f"not enough space to write the output files to {folder}: they need "
            f"about {human(need)}, the device has {human(free)} free",
            str(folder),
        )


def compact_results(results: pd.DataFrame) -> pd.DataFrame:
    """Results with stochastic repeats averaged, as the studies commit them.

    Parameters
    ----------
    results : DataFrame
        The runner's tidy results.

    Returns
    -------
    DataFrame
        One row per (dataset, protocol, method, budget, budget_pct, fold,
        metric), no ``repeat`` column.

    Examples
    --------
    >>> res = pd.DataFrame({"method": "Random", "repeat": [0, 1], "value": [0.2, 0.4]})
    >>> compact_results(res).round(2).values.tolist()
    [['Random', 0.3]]
    """
    keys = [c for c in results.columns if c not in (REPEAT, VALUE)]
    return results.groupby(keys, as_index=False, dropna=False, sort=False)[VALUE].mean()


def compact_selections(selections: pd.DataFrame, protocol) -> pd.DataFrame:
    """First-repeat rankings cut at the similarity budget, features as text.

    Parameters
    ----------
    selections : DataFrame
        The runner's selections table (``features`` holds int arrays).
    protocol : ProtocolConfig
        The protocol they were computed under: the rankings are cut at its
        middle budget (:func:`~.config.middle_budget`), or at its largest
        count budget.

    Returns
    -------
    DataFrame
        The rows of repeat 0, ``features`` as space-separated indices.
    """
    first = selections[selections[REPEAT] == 0].copy()
    middle = middle_budget(protocol)

    def cut(row) -> str:
        m = int(row["n_features"])
        if protocol.budget_unit == "percent":
            k = budget_from_percent(middle, m)
        else:
            k = int(max(protocol.budgets))
        return " ".join(map(str, np.asarray(row[FEATURES])[:k]))

    first[FEATURES] = [cut(r) for _, r in first.iterrows()] if len(first) else []
    return first
