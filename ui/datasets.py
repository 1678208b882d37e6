"""The catalogue of datasets the app can show, and how an upload is kept.

A dataset is named by a small hashable :data:`DatasetKey`; session state keeps
only keys, and the data is loaded again through :mod:`ui.cached`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path
from typing import NamedTuple

from . import workspace
from .state import SAMPLE_DIR, SAMPLE_NAME, session_dir, work_dir


class DatasetKey(NamedTuple):
    """How to load one dataset: a tuple, so it hashes for ``st.cache_data``."""

    kind: str  # "path" (file or folder read by load_dataset) or "upload" (a folder)
    path: str
    labels: tuple[str, ...] | None = None
    label_count: int | None = None
    label_prefix: str | None = None

    def options(self) -> dict:
        """The loader's label options: labels, label_count, label_prefix."""
        labels = list(self.labels) if self.labels else None
        return {
            "labels": labels,
            "label_count": self.label_count,
            "label_prefix": self.label_prefix,
        }


SAMPLE_KEY = DatasetKey("path", str(SAMPLE_DIR))


def catalogue(found: dict[str, str], uploads: dict[str, dict]) -> dict[str, DatasetKey]:
    """Names shown in the sidebar -> keys: the sample, ``found`` folders, uploads."""
    names: dict[str, DatasetKey] = {SAMPLE_NAME: SAMPLE_KEY}
    for name, path in sorted(found.items()):
        names[name] = DatasetKey("path", str(path))
    for name, spec in uploads.items():
        names[name] = DatasetKey(
            "upload",
            spec["dir"],
            tuple(spec["labels"]) if spec.get("labels") else None,
            spec.get("label_count"),
            spec.get("label_prefix"),
        )
    return names


UPLOAD_QUOTA_MB = 200
"""Default size of one session's kept uploads (``MLFS_UPLOAD_QUOTA_MB``)."""
UPLOAD_TOTAL_MB = 4000
"""Default size of all sessions' uploads together (``MLFS_UPLOAD_TOTAL_MB``)."""
UPLOAD_TTL_HOURS = 24
"""Uploads of a session idle this long may go when the total is full
(``MLFS_UPLOAD_TTL_HOURS``); a session's own uploads never go before that."""


class UploadSpaceError(ValueError):
    """The server's space for uploads (all sessions together) is full."""


def _megabytes(variable: str, default: float) -> int:
    value = os.environ.get(variable, "")
    try:
        megabytes = float(value) if value.strip() else default
    except ValueError:
        raise ValueError(f"{variable}={value!r} is not a number of megabytes") from None
    return int(megabytes * 1024 * 1024)


def upload_quota() -> int:
    """Bytes one session's kept uploads may take before its oldest go."""
    return _megabytes("MLFS_UPLOAD_QUOTA_MB", UPLOAD_QUOTA_MB)


def upload_total() -> int:
    """Bytes all sessions' uploads may take together (the global cap)."""
    return _megabytes("MLFS_UPLOAD_TOTAL_MB", UPLOAD_TOTAL_MB)


def upload_ttl_seconds() -> float:
    """Seconds after which an idle session's uploads may be removed."""
    value = os.environ.get("MLFS_UPLOAD_TTL_HOURS", "")
    return 3600.0 * (float(value) if value.strip() else UPLOAD_TTL_HOURS)


def uploads_root() -> Path:
    """The folder of every workspace (``<token>/uploads/<upload>``)."""
    return workspace.root(work_dir())


def uploads_dir(session: str | None = None) -> Path:
    """The folder of one session's kept uploads (default: the current session):
    ``uploads`` in its workspace (:mod:`ui.workspace`)."""
    if session is None:
        return session_dir("uploads")
    return workspace.folder(work_dir(), session) / "uploads"


def _sessions_uploads() -> list[Path]:
    """Every workspace's uploads folder."""
    root = uploads_root()
    if not root.is_dir():
        return []
    return [p / "uploads" for p in root.iterdir() if (p / "uploads").is_dir()]


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def save_upload(files: list[tuple[str, bytes]], *, session: str | None = None) -> str:
    """Write uploaded files to a folder named by their content hash; return its path.

    The folder lies in the session's own upload folder (:func:`uploads_dir`),
    so sessions never share, evict or overwrite each other's uploads. The
    same files always land in the same folder, so the cache key of an upload
    is stable across reruns and pages. A session's uploads are held within
    :func:`upload_quota`: its least recently used ones are removed first
    (:func:`touch_upload` marks a use), never the one just saved.

    Raises
    ------
    UploadSpaceError
        When all sessions' uploads together would pass :func:`upload_total`
        even after removing those of sessions idle for
        :func:`upload_ttl_seconds`; nothing is written then.
    """
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    own = uploads_dir(session)
    folder = own / digest.hexdigest()[:16]
    size = sum(len(data) for _, data in files)
    if not folder.is_dir():
        _make_room(size, own)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files:
        (folder / Path(name).name).write_bytes(data)
    touch_upload(str(folder))
    prune_uploads(keep=folder, session=own.parent.name)
    return str(folder)


def _make_room(size: int, own: Path) -> None:
    """Check the global cap for ``size`` more bytes (see :func:`save_upload`)."""
    sessions = _sessions_uploads()
    total = sum(_size(p) for p in sessions)
    if total + size <= upload_total():
        return
    now = time.time()
    for folder in sorted(sessions, key=lambda p: p.stat().st_mtime):
        if folder == own or now - folder.stat().st_mtime < upload_ttl_seconds():
            continue
        total -= _size(folder)
        shutil.rmtree(folder, ignore_errors=True)
        if total + size <= upload_total():
            return
    mb = 1024 * 1024
    raise UploadSpaceError(
        f"the server's space for uploads is full ({total / mb:.0f} MB of "
        f"{upload_total() / mb:.0f} MB, all sessions together), so this upload "
        f"({size / mb:.1f} MB) was not kept. Ask whoever runs the server to raise "
        "MLFS_UPLOAD_TOTAL_MB or to clear old uploads; the datasets already "
        "loaded stay available."
    )


def touch_upload(folder: str) -> None:
    """Mark an upload as just used (its folder's and its session's times)."""
    path = Path(folder)
    if path.is_dir():
        now = time.time()
        os.utime(path, (now, now))
        in_workspace = path.parent.parent.parent == uploads_root()
        if path.parent.name == "uploads" and in_workspace:
            os.utime(path.parent, (now, now))  # the session is not idle


def prune_uploads(
    *, keep: Path | None = None, session: str | None = None
) -> list[Path]:
    """Remove a session's least recently used uploads until the rest fit its quota.

    Parameters
    ----------
    keep : Path, optional
        An upload never removed (the one just saved).
    session : str, optional
        The session's token (default: the current session).

    Returns
    -------
    list of Path
        The folders removed, oldest first.
    """
    root = uploads_dir(session)
    if not root.is_dir():
        return []
    folders = sorted(
        (p for p in root.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime
    )
    sizes = {p: _size(p) for p in folders}
    total, quota, removed = sum(sizes.values()), upload_quota(), []
    for folder in folders:
        if total <= quota:
            break
        if keep is not None and folder == keep:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        total -= sizes[folder]
        removed.append(folder)
    return removed


def truth_file(key: DatasetKey) -> Path | None:
    """The ``*_truth.json`` of a dataset folder (planted features), if any."""
    if key.kind != "path":
        return None
    base = Path(key.path)
    found = sorted(base.glob("*_truth.json")) if base.is_dir() else []
    return found[0] if found else None
