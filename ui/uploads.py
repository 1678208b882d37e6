"""The upload form of the Data page: files -> a saved folder -> a catalogue entry.

Loading runs in the button's callback, before the script, so the sidebar's
dataset selection can switch to the new upload. Errors are kept as a short
message and shown with ``st.error``; the previous dataset stays selected.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from . import cached, state
from .datasets import DatasetKey, save_upload

FILES = "upload_files"
LABELS = "upload_labels"
LABEL_COUNT = "upload_label_count"
LABEL_PREFIX = "upload_label_prefix"
ERROR = "upload_error"
LOADED = "upload_loaded"
TYPES = ["arff", "xml", "csv", "svm", "svmlight", "libsvm", "txt", "mat"]


def upload_form() -> None:
    """Render the uploader, its label options and the load button."""
    with st.expander(
        "Load your own dataset", expanded=bool(st.session_state.get(ERROR))
    ):
        st.file_uploader(
            "Dataset files: ARFF (+ Mulan XML), MEKA ARFF, CSV, svmlight or .mat",
            type=TYPES,
            accept_multiple_files=True,
            key=FILES,
        )
        cols = st.columns(3)
        cols[0].text_input(
            "Label names (comma-separated)",
            key=LABELS,
            help="Only when the file does not say which columns are labels.",
        )
        cols[1].number_input(
            "Label count (0 = from the file)", min_value=0, step=1, key=LABEL_COUNT
        )
        cols[2].text_input("Label name prefix", key=LABEL_PREFIX, help="e.g. Label")
        st.button("Load uploaded files", key="load_upload", on_click=_load_upload)
    if st.session_state.get(ERROR):
        st.error(st.session_state[ERROR])
    elif st.session_state.get(LOADED):
        st.success(f"Loaded {st.session_state[LOADED]}")


def _options() -> dict:
    labels = [
        s.strip() for s in st.session_state.get(LABELS, "").split(",") if s.strip()
    ]
    return {
        "labels": tuple(labels) or None,
        "label_count": int(st.session_state.get(LABEL_COUNT) or 0) or None,
        "label_prefix": (st.session_state.get(LABEL_PREFIX) or "").strip() or None,
    }


def _load_upload() -> None:
    files = st.session_state.get(FILES) or []
    st.session_state[ERROR] = None
    st.session_state[LOADED] = None
    if not files:
        st.session_state[ERROR] = "Choose one or more files first."
        return
    pairs = [(f.name, f.getvalue()) for f in files]
    options = _options()
    key = DatasetKey("upload", save_upload(pairs), **options)
    try:
        cached.load(key)
    except ValueError as exc:
        st.session_state[ERROR] = f"Could not read the upload: {exc}"
        return
    except Exception as exc:  # a reader bug must not show a traceback to the user
        st.session_state[ERROR] = (
            f"Could not read the upload ({type(exc).__name__}): {exc}"
        )
        return
    name = f"{Path(pairs[0][0]).stem} (upload)"
    spec = {"dir": key.path, **{k: v for k, v in options.items() if v is not None}}
    st.session_state[state.UPLOADS] = {**st.session_state[state.UPLOADS], name: spec}
    st.session_state[state.DATASET] = name
    st.session_state[LOADED] = name


def stats_table(name: str, stats: dict) -> pd.DataFrame:
    """One-row table in paper 000 Table 3 order: Name, N, M, q, LC, LD, DC."""
    row = {"Name": name, **{k: stats[k] for k in ("N", "M", "q", "LC", "LD", "DC")}}
    table = pd.DataFrame([row])
    return table.round({"LC": 2, "LD": 3})
