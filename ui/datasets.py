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

from .state import SAMPLE_DIR, SAMPLE_NAME, work_dir


class DatasetKey(NamedTuple):
    """How to load one dataset: a tuple, so it hashes for ``st.cache_data``."""

    kind: str  # "path" (file or folder read by load_dataset) or "upload" (a folder)
    path: str
    labels: tuple[str, ...] | None = None
    label_count: int | None = None
    label_prefix: str | None = None


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


UPLOAD_QUOTA_MB = 500
"""Default total size of kept uploads (``MLFS_UPLOAD_QUOTA_MB`` overrides it)."""


def upload_quota() -> int:
    """Bytes the kept uploads may take under the work dir before the oldest go."""
    value = os.environ.get("MLFS_UPLOAD_QUOTA_MB", "")
    megabytes = float(value) if value.strip() else UPLOAD_QUOTA_MB
    return int(megabytes * 1024 * 1024)


def uploads_dir() -> Path:
    """The folder holding one sub-folder per kept upload."""
    return work_dir() / "uploads"


def save_upload(files: list[tuple[str, bytes]]) -> str:
    """Write uploaded files to a folder named by their content hash; return its path.

    The same files always land in the same folder, so the cache key of an
    upload is stable across reruns and pages. Kept uploads are held within
    :func:`upload_quota`: the least recently used ones are removed first
    (:func:`touch_upload` marks a use), never the one just saved.
    """
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    folder = uploads_dir() / digest.hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files:
        (folder / Path(name).name).write_bytes(data)
    touch_upload(str(folder))
    prune_uploads(keep=folder)
    return str(folder)


def touch_upload(folder: str) -> None:
    """Mark an upload as just used (its folder's modification time)."""
    path = Path(folder)
    if path.is_dir():
        now = time.time()
        os.utime(path, (now, now))


def prune_uploads(*, keep: Path | None = None) -> list[Path]:
    """Remove least recently used uploads until the rest fit the quota.

    Returns
    -------
    list of Path
        The folders removed, oldest first.
    """
    root = uploads_dir()
    if not root.is_dir():
        return []
    folders = sorted(
        (p for p in root.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime
    )
    sizes = {
        p: sum(f.stat().st_size for f in p.rglob("*") if f.is_file()) for p in folders
    }
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
