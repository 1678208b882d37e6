"""The upload form of the Data page: files -> a saved folder -> a catalogue entry.

When the files say where their labels are (a Mulan XML, MEKA's ``-C n``, a
known dataset), the form says so and fills in its label fields from
:func:`mlfs_core.data.upload_label_layout` as soon as the files are chosen;
left as filled in, the fields pass no label argument, so the files decide
exactly as the loader reads them.

Loading runs in the button's callback, before the script, so the sidebar's
dataset selection can switch to the new upload. Errors are kept as a short
message and shown with ``st.error``; the previous dataset stays selected.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from mlfs_core.data import LabelLayout
from mlfs_core.views import upload_form_words

from . import cached, state
from .datasets import DatasetKey, UploadSpaceError, save_upload

FILES = "upload_files"  # widget key: FILES_<round>, a new round after each load
ROUND = "upload_round"
LABELS = "upload_labels"
LABEL_COUNT = "upload_label_count"
LABEL_END = "upload_label_end"
LABEL_PREFIX = "upload_label_prefix"
ERROR = "upload_error"
LOADED = "upload_loaded"
LAYOUT_FOR = "upload_layout_for"  # the file ids the label fields were filled for
FILLED = "upload_label_filled"  # the label fields' values as filled from the files
FIELDS_AT_REST = {LABELS: "", LABEL_COUNT: 0, LABEL_END: "first", LABEL_PREFIX: ""}
TYPES = ["arff", "xml", "csv", "svm", "svmlight", "libsvm", "txt", "mat"]
ENDS = {"first": "first attributes", "last": "last attributes"}


def files_key() -> str:
    """The uploader's current key; a new key empties the uploader."""
    return f"{FILES}_{st.session_state.get(ROUND, 0)}"


def upload_form() -> None:
    """Render the uploader, its label options and the load button."""
    with st.expander(
        "Load your own dataset", expanded=bool(st.session_state.get(ERROR))
    ):
        st.file_uploader(
            "Dataset files: ARFF (+ Mulan XML), MEKA ARFF, CSV, svmlight or .mat",
            type=TYPES,
            accept_multiple_files=True,
            key=files_key(),
        )
        layout, problem = _layout_of(st.session_state.get(files_key()) or [])
        if st.session_state.get(ERROR):  # above the fields its advice names
            st.error(st.session_state[ERROR])
        elif problem:
            st.error(problem)
        if layout is not None:
            st.info(f"{layout.describe()} The fields below are filled in from it.")
        cols = st.columns(4)
        cols[0].text_input(
            "Label names",
            key=LABELS,
            help="Comma-separated; only when the file does not say which "
            "columns are labels.",
        )
        cols[1].number_input(
            "Label count (0 = from the file)", min_value=0, step=1, key=LABEL_COUNT
        )
        cols[2].radio(
            "Labels are the",
            list(ENDS),
            format_func=ENDS.get,
            key=LABEL_END,
            help="With a label count: MEKA puts the labels first, Mulan last.",
        )
        cols[3].text_input("Label name prefix", key=LABEL_PREFIX, help="e.g. Label")
        st.button("Load uploaded files", key="load_upload", on_click=_load_upload)
    if st.session_state.get(LOADED) and not st.session_state.get(ERROR):
        st.success(st.session_state[LOADED])


def _layout_of(files: list) -> tuple[LabelLayout | None, str | None]:
    """The uploaded files' label layout (or None) and a message when they
    contradict each other; fills in the label fields once per new set of files."""
    layout, problem = None, None
    if files:
        ids = tuple((f.name, f.file_id) for f in files)
        try:
            layout = cached.upload_label_layout(ids, tuple(files))
        except ValueError as exc:
            problem = f"Could not tell the labels: {state.redact(str(exc))}"
        except Exception as exc:  # a reader bug must not show a traceback
            message = state.redact(str(exc))
            problem = f"Could not tell the labels ({type(exc).__name__}): {message}"
    signature = tuple(f.file_id for f in files)
    if st.session_state.get(LAYOUT_FOR) != signature:
        st.session_state[LAYOUT_FOR] = signature
        _fill_fields(layout)
    return layout, problem


def _fill_fields(layout: LabelLayout | None) -> None:
    """Set the label fields to ``layout`` (before they are drawn); with no
    layout, put back at rest the fields still holding the last filled values."""
    filled = st.session_state.get(FILLED)
    if layout is None:
        if filled and all(st.session_state.get(k) == v for k, v in filled.items()):
            st.session_state.update(FIELDS_AT_REST)
        st.session_state[FILLED] = None
        return
    values = dict(FIELDS_AT_REST)
    if layout.label_count is not None:
        values[LABEL_COUNT] = abs(layout.label_count)
        values[LABEL_END] = layout.end
    elif not any("," in name for name in layout.names):
        values[LABELS] = ", ".join(layout.names)
    st.session_state.update(values)
    st.session_state[FILLED] = values


def _options() -> dict:
    filled = st.session_state.get(FILLED)
    if filled and all(st.session_state.get(k) == v for k, v in filled.items()):
        return {"labels": None, "label_count": None, "label_prefix": None}
    labels = [
        s.strip() for s in st.session_state.get(LABELS, "").split(",") if s.strip()
    ]
    count = int(st.session_state.get(LABEL_COUNT) or 0)
    if st.session_state.get(LABEL_END) == "last":
        count = -count
    return {
        "labels": tuple(labels) or None,
        "label_count": count or None,
        "label_prefix": (st.session_state.get(LABEL_PREFIX) or "").strip() or None,
    }


def label_summary(label_names: list[str], n_features: int, shown: int = 3) -> str:
    """Which attributes became labels: the first and last few names, and q.

    Examples
    --------
    >>> label_summary(["a", "b", "c", "d", "e", "f", "g"], 10)
    'Labels (q = 7): a, b, c, ..., e, f, g; 10 features.'
    """
    names = list(label_names)
    if len(names) > 2 * shown:
        names = [*names[:shown], "...", *names[-shown:]]
    return (
        f"Labels (q = {len(label_names)}): {', '.join(names)}; {n_features} features."
    )


def _load_upload() -> None:
    files = st.session_state.get(files_key()) or []
    st.session_state[ERROR] = None
    st.session_state[LOADED] = None
    if not files:
        st.session_state[ERROR] = "Choose one or more files first."
        return
    # the engine's budgets (mlfs_core.data.limits): the upload's size here, the
    # declared attributes and labels when the files are read
    from mlfs_core.data import current_limits

    budget = current_limits().max_upload_mb
    total = sum(f.size for f in files)
    if total > budget * 2**20:
        st.session_state[ERROR] = (
            f"The upload is {total / 2**20:.1f} MB, above the limit of {budget} MB "
            "(MLFS_MAX_UPLOAD_MB raises it)."
        )
        return
    # On a failure the files stay in the uploader: the message says what to
    # fill in, and Load tries again with the same files.
    pairs = [(f.name, f.getvalue()) for f in files]
    options = _options()
    try:
        key = DatasetKey(
            "upload", save_upload(pairs, session=state.session_token()), **options
        )
        ds = cached.load(key)
    except UploadSpaceError as exc:
        st.session_state[ERROR] = f"Could not keep the upload: {exc}"
        return
    except ValueError as exc:
        message = upload_form_words(state.redact(str(exc)))
        st.session_state[ERROR] = f"Could not read the upload: {message}"
        return
    except Exception as exc:  # a reader bug must not show a traceback to the user
        message = state.redact(str(exc))
        st.session_state[ERROR] = (
            f"Could not read the upload ({type(exc).__name__}): {message}"
        )
        return
    st.session_state[ROUND] = st.session_state.get(ROUND, 0) + 1  # empty the uploader
    name = f"{ds.name} (upload)"
    spec = {"dir": key.path, **{k: v for k, v in options.items() if v is not None}}
    st.session_state[state.UPLOADS] = {**st.session_state[state.UPLOADS], name: spec}
    st.session_state[state.DATASET] = name
    summary = label_summary(ds.label_names, ds.n_features)
    st.session_state[LOADED] = f"Loaded {name}. {summary}"


def stats_table(name: str, stats: dict) -> pd.DataFrame:
    """One-row table in the order of Spolaôr and Tsoumakas (2013), Table 3:
    Name, N, M, q, LC, LD, DC."""
    row = {"Name": name, **{k: stats[k] for k in ("N", "M", "q", "LC", "LD", "DC")}}
    table = pd.DataFrame([row])
    return table.round({"LC": 2, "LD": 3})
