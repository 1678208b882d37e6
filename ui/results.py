"""Where the analysis pages get experiment results from, as small folder references.

A results source is a folder holding ``results.csv`` (and, for the Similarity
page, ``selections.csv``) in the layout ``mlfs experiment --out`` writes. The
session stores only the folder path; tables are read through :mod:`ui.cached`.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import NamedTuple

import pandas as pd
import streamlit as st

from mlfs_core.benchmark import BENCHMARKS_ENV, find_benchmarks
from mlfs_core.published import get_published, registered_published

from . import state
from .datasets import UploadSpaceError, save_upload, touch_upload

RESULTS_FILE = "results.csv"
SELECTIONS_FILE = "selections.csv"
CURVES_FILE = "curves.csv"
ROOT = Path(__file__).resolve().parents[1]
# where `mlfs benchmark` writes by default (run from the project root), and
# $MLFS_BENCHMARKS: docs/user-guide/benchmark.md
BENCHMARKS_DIR = ROOT / "results" / "benchmarks"
INSTALL = (
    "The studies' results and the papers' published numbers beside them come "
    "with the papers' package, not installed here: from the project root, "
    "`pip install -e ./mlfs_papers`, then restart the app."
)


def data_file(folder: Path | str, name: str) -> Path:
    """``folder/name``, or its gzip-compressed ``name.gz`` when only that exists."""
    plain = Path(folder) / name
    gz = plain.with_name(name + ".gz")
    return gz if not plain.is_file() and gz.is_file() else plain


RESULTS_UPLOAD = "results_upload"
SELECTIONS_UPLOAD = "selections_upload"
RESULTS_UPLOAD_ERROR = "results_upload_error"


class ResultsRef(NamedTuple):
    """A results folder and a digest of its files' content (the cache key).

    The digest covers ``results.csv`` and ``selections.csv`` (plain or
    gzipped), so a changed selections file, or a file rewritten within the
    same second, gives another key.
    """

    folder: str
    digest: str


def results_ref(folder: Path | str) -> ResultsRef:
    """The :class:`ResultsRef` of a results folder, from its files' content."""
    parts = [
        _file_digest(str(path), *_stamp(path))
        for path in (
            data_file(folder, RESULTS_FILE),
            data_file(folder, SELECTIONS_FILE),
        )
    ]
    return ResultsRef(str(folder), "-".join(parts))


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st_ = path.stat()
    except FileNotFoundError:
        return (-1, -1)
    return (st_.st_size, st_.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    """SHA-256 (16 hex digits) of a file's bytes; "none" if it does not exist.

    Memoized on (path, size, mtime_ns) so an unchanged file is read once, not
    on every rerun; the content, not the time, is the key.
    """
    if size < 0:
        return "none"
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def sample_sources() -> dict[str, Path]:
    """The precomputed sample results shipped in ``sample_data/results/<protocol>/``."""
    root = state.SAMPLE_RESULTS_DIR
    if not root.is_dir():
        return {}
    return {
        f"{state.SOURCE_SAMPLE}: {p.name.replace('_', ' ')}": p
        for p in sorted(root.iterdir())
        if (p / RESULTS_FILE).is_file()
    }


def study_sources() -> dict[str, Path]:
    """The studies' results registered by plug-ins, where their folders hold results.

    Each :class:`mlfs_core.published.Published` record with a results folder
    is a source, named by its ``results_label`` (else its ``title``); without
    a plug-in that registers studies (the papers' ``mlfs_papers``) there is none.
    """
    entries = [get_published(name) for name in registered_published()]
    return {
        entry.results_label or entry.title: Path(entry.results)
        for entry in entries
        if entry.results is not None
        and data_file(entry.results, RESULTS_FILE).is_file()
    }


def available_sources(studies: dict[str, Path]) -> dict[str, Path | None]:
    """Source label -> folder (None for an upload not made yet), the
    ``studies`` (:func:`study_sources`) among them."""
    sources: dict[str, Path | None] = {**sample_sources(), **studies}
    extra = [p for p in os.environ.get(BENCHMARKS_ENV, "").split(os.pathsep) if p]
    sources.update(find_benchmarks(BENCHMARKS_DIR, *extra))  # `mlfs benchmark`'s
    session = st.session_state.get(state.EXPERIMENT_RESULTS)
    if session and (Path(session) / RESULTS_FILE).is_file():
        sources[state.SOURCE_SESSION] = Path(session)
    sources[state.SOURCE_UPLOAD] = _uploaded_folder()
    return sources


def _uploaded_folder() -> Path | None:
    """This session's uploaded results folder (None before an upload).

    Reading it marks it used, so the session's quota removes its other
    uploads first.
    """
    folder = st.session_state.get(state.UPLOADED_RESULTS)
    if not folder:
        return None
    touch_upload(folder)
    return Path(folder)


def _remember_choice() -> None:
    st.session_state[state.RESULTS_SOURCE] = st.session_state["results_source_widget"]


def _protocol_of(folder: Path | None) -> str | None:
    """The protocol of a results folder's first row (None: no readable results)."""
    if folder is None or not data_file(folder, RESULTS_FILE).is_file():
        return None
    try:
        first = pd.read_csv(data_file(folder, RESULTS_FILE), nrows=1)
        return str(first["protocol"].iloc[0])
    except (OSError, ValueError, KeyError, IndexError):
        return None


def choose_source(*, protocol: str | None = None) -> ResultsRef | None:
    """Radio of the results sources (remembered across pages) -> the chosen folder.

    When the session has not chosen yet, the first registered study whose
    results are of ``protocol`` is chosen, else the first other source of it
    (e.g. ``"B"`` on Metric vs budget: the studies cover several datasets, so
    their average ranks are not one dataset's), else the first source.
    """
    studies = study_sources()
    sources = available_sources(studies)
    labels = list(sources)
    current = st.session_state.get(state.RESULTS_SOURCE)
    if current not in labels:
        ordered = [*studies, *(s for s in labels if s not in studies)]
        current = next(  # reads results until the first of the protocol, no more
            (s for s in ordered if protocol and _protocol_of(sources[s]) == protocol),
            labels[0],
        )
    st.radio(
        "Results to analyse",
        labels,
        index=labels.index(current),
        key="results_source_widget",
        on_change=_remember_choice,
        horizontal=True,
    )
    if not studies:
        st.caption(INSTALL)
    choice = st.session_state["results_source_widget"]
    if choice == state.SOURCE_UPLOAD:
        _upload_form()
    folder = (
        sources.get(choice) if choice != state.SOURCE_UPLOAD else _uploaded_folder()
    )
    if choice == state.SOURCE_UPLOAD and folder is not None and not folder.is_dir():
        st.info(
            "The uploaded results were removed to keep this session's uploads "
            "within their quota: upload them again."
        )
        return None
    if folder is None or not data_file(folder, RESULTS_FILE).is_file():
        st.info("No results here yet: run an experiment, or upload a results CSV.")
        return None
    note = in_progress_note(folder)
    if note:
        st.caption(note)
    return results_ref(folder)


UPLOAD_NAME_FILE = "uploaded_name.txt"  # the uploaded results file's own name


def source_name(ref: ResultsRef) -> str:
    """The name of the results ``ref`` on screen: the radio's label of its
    folder (a study, a benchmark run, the sample, this session's experiment),
    for an upload the uploaded file's own name."""
    folder = Path(ref.folder)
    named = folder / UPLOAD_NAME_FILE
    if named.is_file():
        return f"uploaded file {named.read_text('utf-8')[:120]}"
    sources = available_sources(study_sources())
    return next(
        (label for label, path in sources.items() if path and Path(path) == folder),
        folder.name,
    )


IN_PROGRESS_FILE = "in_progress.csv"  # written by studies.status.write_in_progress


def in_progress_note(folder: Path | str) -> str | None:
    """The datasets a study is still computing, which its results leave out.

    ``folder/in_progress.csv`` (``dataset, done, total``, written by the
    reproduction report beside a study's results) lists the datasets with
    partial data only; no table or chart of the study uses them.

    Parameters
    ----------
    folder : path
        A results folder.

    Returns
    -------
    str or None
        A sentence naming them with their progress, or None when the folder
        has no such list (or an unreadable one: the results stand without it).
    """
    path = Path(folder) / IN_PROGRESS_FILE
    if not path.is_file():
        return None
    try:
        rows = pd.read_csv(path)
        listed = [
            f"{r.dataset} ({int(r.done):,} of {int(r.total):,} tasks)"
            for r in rows.itertuples()
        ]
    except (OSError, ValueError, AttributeError):  # parser errors are ValueErrors
        return None
    if not listed:
        return None
    return (
        "Still being computed, so in no table or chart here yet: "
        + ", ".join(listed)
        + "."
    )


def _upload_form() -> None:
    left, right = st.columns(2)
    left.file_uploader(
        "results.csv", type=["csv"], key=RESULTS_UPLOAD, on_change=_save_uploads
    )
    right.file_uploader(
        "selections.csv (optional, for Similarity)",
        type=["csv"],
        key=SELECTIONS_UPLOAD,
        on_change=_save_uploads,
    )
    if st.session_state.get(RESULTS_UPLOAD_ERROR):
        st.error(st.session_state[RESULTS_UPLOAD_ERROR])


def _save_uploads() -> None:
    """Keep the uploaded CSVs in this browser session's own upload folder.

    They go through :func:`ui.datasets.save_upload`, as dataset uploads do:
    under the session's token, within its quota and the global cap, so one
    session never sees, evicts or overwrites another's results. A failure
    is kept as a message for :func:`_upload_form` (``st.error``).
    """
    st.session_state[RESULTS_UPLOAD_ERROR] = None
    results = st.session_state.get(RESULTS_UPLOAD)
    if results is None:
        return
    selections = st.session_state.get(SELECTIONS_UPLOAD)
    files = [
        (RESULTS_FILE, results.getvalue()),
        (UPLOAD_NAME_FILE, results.name.encode("utf-8")),
    ]
    if selections is not None:
        files.append((SELECTIONS_FILE, selections.getvalue()))
    try:
        folder = save_upload(files, session=state.session_token())
    except UploadSpaceError as exc:
        st.session_state[RESULTS_UPLOAD_ERROR] = f"Could not keep the upload: {exc}"
        return
    st.session_state[state.UPLOADED_RESULTS] = folder
