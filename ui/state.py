"""Session-state keys and their defaults, set once per session.

Session state holds only small things: names, paths, parameters and the seed.
Datasets, rankings and results are recomputed through :mod:`ui.cached`.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

import streamlit as st

from mlfs_core.data.bundled import SAMPLE_DIR

ROOT = Path(__file__).resolve().parents[1]  # the folder of app.py
SAMPLE_RESULTS_DIR = SAMPLE_DIR / "results"
SAMPLE_NAME = "sample (planted)"

DATASET = "dataset"  # name of the current dataset (a key of the catalogue)
SEED = "seed"  # the one seed passed to every engine call
UPLOADS = "uploads"  # {dataset name: {"dir": str, "labels": ..., ...}}
EXTRA_PATHS = "extra_paths"  # {dataset name: path} named by a loaded config
EXPERIMENT_RESULTS = "experiment_results"  # path of this session's results CSV
EXPERIMENT_CONFIG = "experiment_config"  # TOML text of the last experiment config
RESULTS_SOURCE = "results_source"  # which results the analysis pages show
UPLOADED_RESULTS = "uploaded_results"  # path of an uploaded results CSV
SESSION = "session_token"  # random name of this browser session's folders

SOURCE_SAMPLE = "Precomputed (sample)"
SOURCE_SESSION = "This session's experiment"
SOURCE_UPLOAD = "Uploaded results CSV"

DEFAULTS: dict[str, object] = {
    DATASET: SAMPLE_NAME,
    SEED: 0,
    UPLOADS: {},
    EXTRA_PATHS: {},
    EXPERIMENT_RESULTS: None,
    EXPERIMENT_CONFIG: None,
    RESULTS_SOURCE: SOURCE_SAMPLE,
    UPLOADED_RESULTS: None,
}


def init_state() -> None:
    """Put every default into ``st.session_state`` unless already there."""
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value.copy() if isinstance(value, dict) else value
    session_token()


def session_token() -> str:
    """This browser session's random token (made on first use).

    It names the session's own folders under the work dir (uploads, runs), so
    one session never reads, evicts or overwrites another's files. It is not
    Streamlit's session id, and says nothing about the user.
    """
    token = st.session_state.get(SESSION)
    if not token:
        token = st.session_state[SESSION] = secrets.token_hex(8)
    return token


def session_dir(kind: str) -> Path:
    """``work_dir() / kind / <session token>``: this session's folder of ``kind``."""
    token = session_token()
    if not re.fullmatch(r"[0-9a-f]{16}", token):  # never a path from elsewhere
        raise ValueError(f"invalid session token {token!r}")
    path = work_dir() / kind / token
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path | None:
    """Extra dataset folder from the ``MLFS_DATA_DIR`` environment variable."""
    value = os.environ.get("MLFS_DATA_DIR")
    return Path(value) if value else None


def work_dir() -> Path:
    """Folder for uploads, experiment caches and results (``MLFS_WORK_DIR``)."""
    default = Path.home() / ".cache" / "mlfs_explorer"
    path = Path(os.environ.get("MLFS_WORK_DIR", default))
    path.mkdir(parents=True, exist_ok=True)
    return path


def allowed_roots() -> list[Path]:
    """Folders whose datasets a loaded config may name: the data dir and work dir."""
    roots = [work_dir()]
    folder = data_dir()
    if folder is not None:
        roots.insert(0, folder)
    return [r.resolve() for r in roots]


def is_allowed_path(path: str | Path) -> bool:
    """Whether ``path`` (relative to the working directory) resolves, symbolic
    links followed, inside :func:`allowed_roots`."""
    resolved = Path(path).expanduser().resolve()
    return any(resolved.is_relative_to(root) for root in allowed_roots())


def redact(text: str) -> str:
    """``text`` with the server's folders cut out (data dir, work dir, project, home).

    Messages shown in the app name files relative to those folders, never
    where they are on the server.
    """
    roots = [*allowed_roots(), ROOT, Path.home()]
    for root in sorted({str(r) for r in roots}, key=len, reverse=True):
        text = text.replace(root + os.sep, "").replace(root, ".")
    return text
