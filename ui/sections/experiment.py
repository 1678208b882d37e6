"""The Experiment page's engine side: config from widgets, run with progress, save.

The runner caches every task on disk under :func:`ui.state.work_dir`, so a
rerun with the same settings is instant, changing one method recomputes only
that method's tasks, and a stopped run resumes where it was. What the form
offers, the config it builds and the run-time estimate are the engine's
(:mod:`mlfs_core.views`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from mlfs_core.columns import MAX_N_ITER
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import (
    REUSE_ENV,
    TIMINGS_FILE,
    DatasetSpec,
    ExperimentConfig,
    ExperimentResult,
    check_text_trusted,
    config_from_toml,
    config_to_toml,
    estimate_output_bytes,
    output_lock,
    run_experiment,
    write_atomically,
    write_run_files,
)
from mlfs_core.plugins import ENV_VAR
from mlfs_core.report import convergence_line
from mlfs_core.views import config_digest, eta_text, settings_text

from .. import cached, state
from ..datasets import DatasetKey


def dataset_item(name: str, key: DatasetKey) -> object:
    """A config dataset: "sample", a path spec, or (uploads) the loaded Dataset."""
    if key.kind == "upload":
        return cached.load(key)
    if Path(key.path) == state.SAMPLE_DIR:
        return DatasetSpec(path="sample", name="sample")
    return DatasetSpec(
        path=key.path,
        name=name,
        labels=key.labels,
        label_count=key.label_count,
        label_prefix=key.label_prefix,
    )


def config_toml(config: ExperimentConfig) -> str | None:
    """The config as TOML, or None when it holds uploaded (in-memory) datasets."""
    try:
        return config_to_toml(config)
    except ConfigError:
        return None


def read_config(text: str) -> ExperimentConfig:
    """Parse an uploaded TOML config (ConfigError with the reason if invalid).

    A config naming plug-in code is refused before anything is imported: the
    server runs only plug-ins installed or given when it was started (loaded,
    or named in its ``MLFS_PLUGINS``, which the app reads here).
    """
    check_text_trusted(
        text,
        state.ROOT,
        trust=False,
        command="the app",
        where="the uploaded config",
        advice="The app runs only plug-ins installed as packages or given to "
        "`mlfs app --plugin` when the server was started.",
        chosen=[s for s in os.environ.get(ENV_VAR, "").split(os.pathsep) if s],
    )
    return config_from_toml(text, base_dir=str(state.ROOT))


def run(config: ExperimentConfig, report: Callable[[int, int, str, str], None]) -> Path:
    """Run ``config`` with the disk cache; call ``report(done, total, eta, msg)``.

    ``eta`` is the time-left text of :func:`eta_text`.

    Returns the folder where ``results.csv`` and ``selections.csv`` were written.
    """
    start = time.monotonic()
    stamps: list[float] = []

    def progress(done: int, total: int, message: str) -> None:
        now = time.monotonic()
        stamps.append(now)
        window = stamps[-6:]
        recent = None
        if len(window) > 1:
            recent = (window[-1] - window[0]) / (len(window) - 1)
        report(done, total, eta_text(now - start, done, total, recent), message)

    cache_dir = state.work_dir() / "experiment_cache"
    folder = _run_folder(config)
    # one writer per folder, as `mlfs experiment --out` (a second tab running the
    # same config gets the engine's FolderBusy message naming this run)
    with output_lock(folder, "MLFS Explorer app run", note=lambda text: None):
        result = run_experiment(
            config,
            cache_dir=cache_dir,
            progress=progress,
            reuse_unidentified=os.environ.get(REUSE_ENV) == "1",
        )
        save(result, folder)
        (folder / STATEMENT_FILE).write_text(settings_text(config) + "\n", "utf-8")
    return folder


STATEMENT_FILE = "settings.txt"
"""A run folder's file holding :func:`settings_text` of the config it ran.

The page reads it back to spell out which settings results belong to when
they are not those of the form (:func:`statement_of`)."""


def statement_of(folder: str | Path) -> str | None:
    """The :func:`settings_text` saved with the run in ``folder`` (None if none)."""
    path = Path(folder) / STATEMENT_FILE
    if not path.is_file():
        return None
    return path.read_text("utf-8").strip() or None


def is_run_of(folder: str | Path, config: ExperimentConfig | None) -> bool:
    """Whether ``folder`` holds the results of ``config`` (its run folder's name).

    False for ``config`` None (the form's settings do not make a config).
    """
    return config is not None and Path(folder).name == config_digest(config)


def _run_folder(config: ExperimentConfig) -> Path:
    """This session's folder for ``config``'s output files.

    Under the session's own ``runs`` folder: another session running the same
    config writes its own copy, never over this one's (the task cache, keyed
    by content, stays shared).
    """
    return state.session_dir("runs") / config_digest(config)


def save(result: ExperimentResult, folder: Path) -> Path:
    """Write results.csv, selections.csv, timings.csv and (if possible) config.toml.

    The engine's writer (:func:`mlfs_core.evaluation.outputs.write_run_files`)
    writes them, with the config's paths as given, through the atomic writer
    ``mlfs experiment`` uses (:func:`~mlfs_core.evaluation.outputs.write_atomically`):
    a write the free space cannot take is refused before it starts, and a
    failure midway leaves the folder's previous results as they were.
    """

    def write(scratch: Path) -> list[Path]:
        return write_run_files(result, scratch, resolve_paths=False)

    write_atomically(folder, write, need=estimate_output_bytes(result))
    return folder


def solver_summary(folder: Path) -> str | None:
    """The run's classifier-convergence sentence.

    None without timings, and None when no fit ran an iterative solver (no
    ``max_n_iter`` recorded, e.g. ML-kNN): "0 stopped at max_iter" would say
    nothing there.
    """
    import pandas as pd

    path = Path(folder) / TIMINGS_FILE
    if not path.is_file():
        return None
    timings = pd.read_csv(path)
    fits = timings[timings["stage"] == "fit"]
    if MAX_N_ITER not in fits or not fits[MAX_N_ITER].fillna(0).gt(0).any():
        return None
    return convergence_line(timings)
