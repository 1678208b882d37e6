"""Per-user workspaces on the server's disk, named by a random token in the URL.

A workspace is the folder ``work_dir()/workspaces/<token>``: the user's uploads
(``uploads/``), experiment runs (``runs/``) and a small ``manifest.json``
naming what the session had (uploaded datasets, this session's experiment,
the results source, an uploaded results CSV). The token is the URL's ``ws``
query parameter, made by :func:`secrets.token_urlsafe` (128 random bits):
whoever holds the link opens the workspace, nobody else can guess it. A
token from the URL is only ever used after :func:`valid` accepted it, so no
path is ever taken from the URL.

The disk stays bounded: each workspace within :func:`workspace_limit` (its
oldest uploads and runs go first), all of them within :func:`total_limit`
(the least recently used workspaces go first), and a workspace unused for
:func:`max_age_seconds` is removed. ``mlfs app --clear-workspaces`` empties
them all (:func:`clear_all`). This module does not import Streamlit.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import tempfile
import time
from pathlib import Path

PARAM = "ws"
"""The query parameter holding the workspace token."""
MANIFEST = "manifest.json"
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{22,64}")
WORKSPACE_MB = 500
"""Default size of one workspace (``MLFS_WORKSPACE_MB``)."""
TOTAL_MB = 8000
"""Default size of all workspaces together (``MLFS_WORKSPACES_TOTAL_MB``)."""
MAX_AGE_DAYS = 7
"""A workspace unused this long is removed (``MLFS_WORKSPACE_DAYS``)."""
ITEM_KINDS = ("uploads", "runs")
"""The sub-folders whose entries (one upload, one run) are evicted one by one."""


def new_token() -> str:
    """A fresh, unguessable workspace token (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def valid(token: object) -> bool:
    """Whether ``token`` has the form of a workspace token (and so is no path).

    Examples
    --------
    >>> valid(new_token())
    True
    >>> valid("../../etc"), valid("short"), valid(None)
    (False, False, False)
    """
    return isinstance(token, str) and TOKEN_PATTERN.fullmatch(token) is not None


def root(work_dir: Path) -> Path:
    """The folder holding every workspace."""
    return Path(work_dir) / "workspaces"


def folder(work_dir: Path, token: str) -> Path:
    """The workspace folder of ``token`` (not created).

    Raises
    ------
    ValueError
        If ``token`` is not a valid token.
    """
    if not valid(token):
        raise ValueError("invalid workspace token")
    return root(work_dir) / token


def _number(variable: str, default: float) -> float:
    value = os.environ.get(variable, "")
    try:
        number = float(value) if value.strip() else float(default)
    except ValueError:
        raise ValueError(f"{variable}={value!r} is not a number") from None
    if number <= 0:
        raise ValueError(f"{variable}={value!r} must be positive")
    return number


def workspace_limit() -> int:
    """Bytes one workspace may hold (``MLFS_WORKSPACE_MB``, default 500)."""
    return int(_number("MLFS_WORKSPACE_MB", WORKSPACE_MB) * 1024 * 1024)


def total_limit() -> int:
    """Bytes all workspaces may hold together (``MLFS_WORKSPACES_TOTAL_MB``)."""
    return int(_number("MLFS_WORKSPACES_TOTAL_MB", TOTAL_MB) * 1024 * 1024)


def max_age_seconds() -> float:
    """Seconds after its last use when a workspace goes (``MLFS_WORKSPACE_DAYS``)."""
    return _number("MLFS_WORKSPACE_DAYS", MAX_AGE_DAYS) * 86400.0


def size(path: Path) -> int:
    """Bytes of the files under ``path`` (0 when it does not exist)."""
    total = 0
    for dirpath, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, name)).st_size
    return total


def read_manifest(path: Path) -> dict | None:
    """The manifest of the workspace at ``path``; None if missing or unreadable."""
    try:
        data = json.loads((Path(path) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_manifest(path: Path, data: dict) -> None:
    """Write ``data`` as the manifest of ``path``, atomically (temp file, rename)."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path, prefix=".manifest-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
        os.replace(temp, path / MANIFEST)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def last_used(path: Path) -> float:
    """When a workspace was last used: its manifest's (else its folder's) time."""
    for candidate in (Path(path) / MANIFEST, Path(path)):
        with contextlib.suppress(OSError):
            return candidate.stat().st_mtime
    return 0.0


def touch(path: Path) -> None:
    """Mark the workspace at ``path`` as used now."""
    target = Path(path) / MANIFEST
    with contextlib.suppress(OSError):
        os.utime(target if target.exists() else path)


def items(path: Path) -> list[Path]:
    """The workspace's evictable entries (each upload, each run), oldest first."""
    found = []
    for kind in ITEM_KINDS:
        sub = Path(path) / kind
        if sub.is_dir():
            found += [p for p in sub.iterdir() if p.is_dir()]
    return sorted(found, key=lambda p: p.stat().st_mtime)


def trim(path: Path, *, protect: tuple[Path, ...] = ()) -> list[Path]:
    """Remove the workspace's oldest entries until it fits :func:`workspace_limit`.

    Parameters
    ----------
    path : Path
        The workspace folder.
    protect : tuple of Path
        Entries never removed (the upload or run in use now).

    Returns
    -------
    list of Path
        The entries removed, oldest first.
    """
    limit = workspace_limit()
    entries = items(path)
    sizes = {p: size(p) for p in entries}
    total = size(path)
    removed = []
    keep = {Path(p).resolve() for p in protect}
    for entry in entries:
        if total <= limit:
            break
        if entry.resolve() in keep:
            continue
        shutil.rmtree(entry, ignore_errors=True)
        total -= sizes[entry]
        removed.append(entry)
    return removed


SWEEP_EVERY = 30.0
"""Seconds between two sweeps started by :func:`maybe_sweep` (per process)."""
_LAST_SWEEP = [float("-inf")]


def maybe_sweep(work_dir: Path, *, keep: str | None = None) -> list[str]:
    """:func:`sweep`, unless this process swept less than :data:`SWEEP_EVERY`
    seconds ago (a class opening the app at once walks the folders once)."""
    now = time.monotonic()
    if now - _LAST_SWEEP[0] < SWEEP_EVERY:
        return []
    _LAST_SWEEP[0] = now
    return sweep(work_dir, keep=keep)


def sweep(work_dir: Path, *, keep: str | None = None, now: float | None = None):
    """Remove workspaces past the age limit, then the least recently used ones
    until all fit :func:`total_limit`; never the workspace ``keep``.

    Returns
    -------
    list of str
        The tokens of the workspaces removed.
    """
    base = root(work_dir)
    if not base.is_dir():
        return []
    now = time.time() if now is None else now
    spaces = sorted(
        (p for p in base.iterdir() if p.is_dir() and valid(p.name)), key=last_used
    )
    removed = []
    for space in list(spaces):
        if space.name != keep and now - last_used(space) > max_age_seconds():
            shutil.rmtree(space, ignore_errors=True)
            spaces.remove(space)
            removed.append(space.name)
    sizes = {p: size(p) for p in spaces}
    total, limit = sum(sizes.values()), total_limit()
    for space in spaces:
        if total <= limit:
            break
        if space.name == keep:
            continue
        shutil.rmtree(space, ignore_errors=True)
        total -= sizes[space]
        removed.append(space.name)
    return removed


def clear_all(work_dir: Path) -> int:
    """Remove every workspace; return how many there were."""
    base = root(work_dir)
    if not base.is_dir():
        return 0
    spaces = [p for p in base.iterdir() if p.is_dir()]
    for space in spaces:
        shutil.rmtree(space, ignore_errors=True)
    return len(spaces)
