"""The ``mlfs clean DIR`` sub-command: remove a run folder's results and cache.

A failed or stopped ``mlfs experiment`` keeps its finished tasks
(:mod:`.experiment`); this command, and ``--overwrite`` for the output files,
are the only ways results are removed. It removes only what a run writes:
the output files (:data:`mlfs_core.report.OUTPUT_FILES`, ``results.parquet``),
the default task cache ``DIR/cache`` (unless ``--keep-cache``), scratch
folders a killed write left (``.writing-*``), then ``DIR`` itself when that
leaves it empty. A folder holding anything else (a file of the user's, a
cache folder with files no run writes) is refused, naming what is not a
run's, and nothing is removed; so is a folder a live run holds
(``.mlfs-lock``).
"""

from __future__ import annotations

import argparse
import re
import shutil
from pathlib import Path

from ..errors import ConfigError

_CACHE_NAME = "cache"
"""The default task cache's name inside a run folder."""

_CACHE_ENTRY = re.compile(r"[0-9a-f]{64}\.json|.*\.tmp")
_CACHE_SHARD = re.compile(r"[0-9a-f]{2}")


def add_clean_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``clean`` sub-command to an argparse ``subparsers`` object."""
    p = subparsers.add_parser(
        "clean",
        help="remove an experiment's output files and its cache folder DIR/cache "
        "(refuses a folder that is not a run folder)",
    )
    p.add_argument("dir", help="an output folder of `mlfs experiment`")
    p.add_argument(
        "--keep-cache",
        action="store_true",
        help="remove the output files only, keep DIR/cache (a rerun is then quick)",
    )
    p.set_defaults(func=_run_clean_command)
    return p


def _run_clean_command(args: argparse.Namespace) -> int:
    """Run ``mlfs clean``: print what was removed; ConfigError when refused."""
    from ..evaluation.runner.guard.lock import LOCK_NAME, output_lock

    folder = Path(args.dir)
    outputs, cache, scratch = _run_folder_parts(folder)
    if not outputs and cache is None and not scratch:
        print(f"{folder}: nothing to clean")
        return 0
    keep = getattr(args, "keep_cache", False)
    with output_lock(folder, f"mlfs clean {folder}"):
        for path in outputs:
            path.unlink(missing_ok=True)
        for path in scratch:
            shutil.rmtree(path, ignore_errors=True)
        tasks = 0 if cache is None else sum(1 for _ in cache.glob("*/*.json"))
        if cache is not None and not keep:
            shutil.rmtree(cache)
    left = [p.name for p in folder.iterdir() if p.name != LOCK_NAME]
    if not left:
        folder.rmdir()
    said = f"removed {len(outputs)} output file{'s' if len(outputs) != 1 else ''}"
    if cache is not None:
        said += (
            f"; kept the cache {cache} ({tasks} tasks)"
            if keep
            else f" and the cache {cache} ({tasks} tasks)"
        )
    print(f"{said}{'' if left else f'; {folder} removed'}")
    return 0


def _run_folder_parts(folder: Path) -> tuple[list[Path], Path | None, list[Path]]:
    """A run folder's output files, default cache (or None) and scratch folders.

    Raises
    ------
    ConfigError
        When ``folder`` is not a folder, or holds anything a run does not
        write (naming it): nothing is removed then.
    """
    from ..evaluation.outputs import SCRATCH_PREFIX
    from ..evaluation.runner.guard.lock import LOCK_NAME
    from ..report import OUTPUT_FILES, PARQUET_FILE, README_FILE, SUMMARY_FILE

    if not folder.is_dir():
        raise ConfigError(f"{folder}: no such folder")
    known = {*OUTPUT_FILES, PARQUET_FILE, README_FILE, SUMMARY_FILE}
    outputs, scratch, cache, foreign = [], [], None, []
    for path in sorted(folder.iterdir()):
        if path.name == LOCK_NAME:
            continue
        if path.name in known and path.is_file() and not path.is_symlink():
            outputs.append(path)
        elif path.name.startswith(SCRATCH_PREFIX) and path.is_dir():
            scratch.append(path)
        elif path.name == _CACHE_NAME and _is_cache(path):
            cache = path
        else:
            foreign.append(path.name)
    if foreign:
        shown = ", ".join(foreign[:5]) + (" ..." if len(foreign) > 5 else "")
        raise ConfigError(
            f"{folder} is not a run folder of mlfs experiment: it holds {shown}, "
            "which no run writes; nothing was removed (remove them by hand first "
            "if the folder is yours to clean)"
        )
    return outputs, cache, scratch


def _is_cache(path: Path) -> bool:
    """Whether ``path`` is a task cache folder: ``xx/<sha256>.json`` files only."""
    if path.is_symlink() or not path.is_dir():
        return False
    for shard in path.iterdir():
        if not (shard.is_dir() and _CACHE_SHARD.fullmatch(shard.name)):
            return False
        if not all(
            f.is_file() and _CACHE_ENTRY.fullmatch(f.name) for f in shard.iterdir()
        ):
            return False
    return True
