"""Session-state keys and their defaults, set once per session.

Session state holds only small things: names, paths, parameters and the seed.
Datasets, rankings and results are recomputed through :mod:`ui.cached`.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import streamlit as st

from mlfs_core.data import SAMPLE_DIR

from . import workspace

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
SESSION = "session_token"  # this session's workspace token (the URL's ws)

SOURCE_SAMPLE = "Precomputed (sample)"
SOURCE_SESSION = "This session's experiment"
SOURCE_UPLOAD = "Uploaded results CSV"

DEFAULTS: dict[str, object] = {
    DATASET: SAMPLE_NAME,
    SEED: "0",  # text: the sidebar's seed box is a checked text box
    UPLOADS: {},
    EXTRA_PATHS: {},
    EXPERIMENT_RESULTS: None,
    EXPERIMENT_CONFIG: None,
    RESULTS_SOURCE: SOURCE_SAMPLE,
    UPLOADED_RESULTS: None,
}


WORKSPACE_NOTE = "workspace_note"  # what was removed from the workspace, to say once
_SAVED = "_workspace_saved"  # the manifest last written by this session
PERSISTED = (UPLOADS, EXPERIMENT_RESULTS, EXPERIMENT_CONFIG, RESULTS_SOURCE)
"""Session-state keys kept in the workspace's manifest (and UPLOADED_RESULTS)."""


def browser_path() -> str | None:
    """The Chromium the PNG export drives: kaleido's ``BROWSER_PATH`` variable,
    read here (the engine reads none), else None (the first on ``PATH``)."""
    return os.environ.get("BROWSER_PATH") or None


def init_state() -> None:
    """Put every default into ``st.session_state`` unless already there.

    On a session's first run the workspace named by the URL's ``ws`` token
    is restored (:func:`restore_workspace`) before any widget is drawn, so
    the sidebar's dataset list already holds the restored uploads when the
    URL names one. Every run puts the token back into the URL.
    """
    first = SESSION not in st.session_state
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value.copy() if isinstance(value, dict) else value
    if first:
        restore_workspace(st.query_params.get(workspace.PARAM))
    token = session_token()
    if st.query_params.get(workspace.PARAM) != token:
        st.query_params[workspace.PARAM] = token
    _trim(workspace_dir())  # before the sidebar lists the uploads


def session_token() -> str:
    """This browser session's workspace token (made on first use).

    It names the session's workspace folder under the work dir (uploads,
    runs, the manifest) and is the URL's ``ws`` parameter: the same link
    opens the same workspace after a reload, in a new tab or after a server
    restart. It is not Streamlit's session id, and says nothing about the user.
    """
    token = st.session_state.get(SESSION)
    if not token:
        token = st.session_state[SESSION] = workspace.new_token()
    return token


def workspace_dir() -> Path:
    """This session's workspace folder (created)."""
    path = workspace.folder(work_dir(), session_token())  # validates the token
    path.mkdir(parents=True, exist_ok=True)
    return path


def session_dir(kind: str) -> Path:
    """``<workspace>/kind``: this session's folder of ``kind`` (created)."""
    if not re.fullmatch(r"[a-z_]+", kind):  # never a path from elsewhere
        raise ValueError(f"invalid folder kind {kind!r}")
    path = workspace_dir() / kind
    path.mkdir(parents=True, exist_ok=True)
    return path


def _relative(path: str | None, base: Path) -> str | None:
    if not path:
        return None
    try:
        return Path(path).resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return None  # not in the workspace (a config's path): not kept


def _inside(relative: object, base: Path) -> Path | None:
    """``base / relative`` when it is an existing folder inside ``base``."""
    if not isinstance(relative, str) or not relative:
        return None
    path = (base / relative).resolve()
    if not path.is_relative_to(base.resolve()) or not path.is_dir():
        return None
    return path


def manifest() -> dict:
    """What the workspace keeps of this session, paths relative to the workspace."""
    base = workspace.folder(work_dir(), session_token())
    uploads = {}
    for name, spec in st.session_state.get(UPLOADS, {}).items():
        relative = _relative(spec.get("dir"), base)
        if relative is not None:
            uploads[name] = {**spec, "dir": relative}
    return {
        "version": 1,
        UPLOADS: uploads,
        EXPERIMENT_RESULTS: _relative(st.session_state.get(EXPERIMENT_RESULTS), base),
        EXPERIMENT_CONFIG: st.session_state.get(EXPERIMENT_CONFIG),
        RESULTS_SOURCE: st.session_state.get(RESULTS_SOURCE),
        UPLOADED_RESULTS: _relative(st.session_state.get(UPLOADED_RESULTS), base),
    }


def restore_workspace(token: object) -> list[str]:
    """Load the workspace of ``token`` into session state (a session's first run).

    An invalid token, or one whose workspace does not exist (never made,
    removed for its age or to make room), gets a new, empty workspace: a
    token is only ever accepted when the server made it. Entries whose
    files were removed are left out and named in :data:`WORKSPACE_NOTE`.

    Returns
    -------
    list of str
        The names of what the manifest listed but was no longer there.
    """
    with contextlib.suppress(ValueError, OSError):
        workspace.maybe_sweep(
            work_dir(), keep=token if workspace.valid(token) else None
        )
    if not workspace.valid(token):
        return []
    base = workspace.folder(work_dir(), token)
    data = workspace.read_manifest(base)
    if data is None:
        if base.is_dir():  # a workspace with no manifest yet (nothing to restore)
            st.session_state[SESSION] = token
        return []
    st.session_state[SESSION] = token
    missing = []
    uploads = {}
    for name, spec in (data.get(UPLOADS) or {}).items():
        path = _inside(spec.get("dir") if isinstance(spec, dict) else None, base)
        if path is None:
            missing.append(str(name))
            continue
        uploads[str(name)] = {**spec, "dir": str(path)}
    st.session_state[UPLOADS] = uploads
    results = _inside(data.get(EXPERIMENT_RESULTS), base)
    if data.get(EXPERIMENT_RESULTS) and results is None:
        missing.append("this session's experiment results")
    st.session_state[EXPERIMENT_RESULTS] = str(results) if results else None
    uploaded = _inside(data.get(UPLOADED_RESULTS), base)
    if data.get(UPLOADED_RESULTS) and uploaded is None:
        missing.append("the uploaded results CSV")
    st.session_state[UPLOADED_RESULTS] = str(uploaded) if uploaded else None
    if isinstance(data.get(EXPERIMENT_CONFIG), str):
        st.session_state[EXPERIMENT_CONFIG] = data[EXPERIMENT_CONFIG]
    source = data.get(RESULTS_SOURCE)
    if isinstance(source, str) and not (
        (source == SOURCE_SESSION and results is None)
        or (source == SOURCE_UPLOAD and uploaded is None)
    ):
        st.session_state[RESULTS_SOURCE] = source
    st.session_state[_SAVED] = manifest()
    if missing:
        st.session_state[WORKSPACE_NOTE] = _removed_note(missing)
    workspace.touch(base)
    return missing


def _removed_note(names: list[str]) -> str:
    return (
        "Removed from your workspace to keep the server's disk within its "
        "limits (oldest first): " + ", ".join(names) + "."
    )


def save_workspace() -> None:
    """Write the manifest if it changed (else mark the workspace used).

    Called at the end of every run, so an upload, a run or a chosen results
    source is on disk when the run ends.
    """
    base = workspace_dir()
    data = manifest()
    if data != st.session_state.get(_SAVED):
        workspace.write_manifest(base, data)
        st.session_state[_SAVED] = data
    else:
        workspace.touch(base)


def _trim(base: Path) -> list[str]:
    """Keep the workspace within :func:`ui.workspace.workspace_limit`.

    Called at the start of every run: its oldest uploads and runs go first
    (never the dataset, results or uploaded results in use); what went is
    dropped from session state and named in :data:`WORKSPACE_NOTE`.
    """
    uploads = st.session_state.get(UPLOADS, {})
    current = uploads.get(st.session_state.get(DATASET), {}).get("dir")
    protect = tuple(
        Path(p)
        for p in (
            current,
            st.session_state.get(EXPERIMENT_RESULTS),
            st.session_state.get(UPLOADED_RESULTS),
        )
        if p
    )
    gone = workspace.trim(base, protect=protect)
    if not gone:
        return []
    gone_set = {p.resolve() for p in gone}

    def was_removed(path: object) -> bool:
        return bool(path) and Path(str(path)).resolve() in gone_set

    names = [n for n, spec in uploads.items() if was_removed(spec.get("dir"))]
    st.session_state[UPLOADS] = {
        n: s for n, s in uploads.items() if not was_removed(s.get("dir"))
    }
    named = set()
    for n in names:
        named.add(Path(uploads[n]["dir"]).resolve())
    others = [p for p in gone if p.resolve() not in named]
    labels = names + [
        "an earlier experiment run" if p.parent.name == "runs" else "an upload"
        for p in others
    ]
    st.session_state[WORKSPACE_NOTE] = _removed_note(labels)
    return labels


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
