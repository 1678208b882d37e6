"""The catalogue of datasets the app can show, and how an upload is kept.

A dataset is named by a small hashable :data:`DatasetKey`; session state keeps
only keys, and the data is loaded again through :mod:`ui.cached`.
"""

from __future__ import annotations

import hashlib
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


def save_upload(files: list[tuple[str, bytes]]) -> str:
    """Write uploaded files to a folder named by their content hash; return its path.

    The same files always land in the same folder, so the cache key of an
    upload is stable across reruns and pages.
    """
    digest = hashlib.sha256()
    for name, data in sorted(files):
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    folder = work_dir() / "uploads" / digest.hexdigest()[:16]
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files:
        (folder / Path(name).name).write_bytes(data)
    return str(folder)


def read_upload(folder: str) -> list[tuple[str, bytes]]:
    """The (name, bytes) pairs saved by :func:`save_upload`."""
    return [(p.name, p.read_bytes()) for p in sorted(Path(folder).iterdir())]
