"""Widgets of the Experiment page, and loading a TOML config into them."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from mlfs_core.selectors import get_method

from .. import cached, progress, state, widgets
from ..results import RESULTS_FILE, SELECTIONS_FILE, results_ref
from .experiment import (
    LONG_RUN_S,
    TEACHING_DEFAULTS,
    config_digest,
    estimate,
    estimate_text,
    methods_by_family,
    parse_budgets,
    quick_budgets,
    read_config,
    run,
    run_statement,
    solver_summary,
    teaching_methods,
)

PROTOCOLS = {
    "A": "A: paper 000 (k-fold CV, BR + linear SVM, budgets in % of M)",
    "B": "B: paper 001 (train/test split, ML-kNN, top-k budgets)",
}
SPLITS = ["own", "holdout", "cv"]
CONFIG_UPLOAD = "exp_config_upload"
CONFIG_MESSAGE = "exp_config_message"


KEPT = "exp_kept"
"""Session-state key of the form's values: {widget key: value}.

Streamlit forgets the state of a widget not drawn on a run (another page, or
the other protocol's widgets), so every value is also kept here and put back
when its widget is drawn again (:func:`_restore`).
"""


def _restore(key: str, default, options=None) -> dict:
    """The keyword arguments of widget ``key``, its value put back first.

    The kept value (else ``default``) is written to the widget's key before
    the widget is drawn, on every run, so a value Streamlit dropped comes
    back; the widget's ``on_change`` keeps each new value (:func:`_keep`).
    With ``options``, a kept value (or list of values) not among them is
    dropped, e.g. a dataset no longer in the sidebar's list.
    """
    kept = st.session_state.setdefault(KEPT, {})
    value = kept.get(key, st.session_state.get(key, default))
    if options is not None:
        if isinstance(value, list):
            value = [v for v in value if v in options]
        elif value not in options:
            value = default
    st.session_state[key] = kept[key] = value
    return {"key": key, "on_change": _keep, "args": (key,)}


def _keep(key: str):
    """Store widget ``key``'s current value in :data:`KEPT`; return the value."""
    value = st.session_state[key]
    st.session_state.setdefault(KEPT, {})[key] = value
    return value


def uses_folds(protocol: str, split: str) -> bool:
    """Whether the protocol's split has folds (A always; B only with ``cv``)."""
    return protocol == "A" or split == "cv"


def settings(dataset_names: list[str], current: str) -> dict:
    """Render the experiment widgets; return their values as keyword arguments.

    Every value survives page visits and protocol switches; the methods,
    budgets, folds, runs and input settings are kept per protocol.
    """
    st.multiselect(
        "Datasets",
        dataset_names,
        **_restore("exp_datasets", [current], dataset_names),
    )
    datasets = _keep("exp_datasets")
    st.radio(
        "Protocol",
        list(PROTOCOLS),
        format_func=PROTOCOLS.get,
        **_restore("exp_protocol", "A", list(PROTOCOLS)),
        horizontal=True,
    )
    protocol = _keep("exp_protocol")
    defaults = TEACHING_DEFAULTS[protocol]
    known, family_of = methods_by_family()
    kw = _restore(f"exp_methods_{protocol}", teaching_methods(protocol), known)
    st.multiselect(
        "Methods",
        known,
        format_func=lambda name: f"{name} · {family_of[name]}",
        **kw,
        help="Listed family by family (the family after each name); a plug-in's "
        "methods come under their own family.",
    )
    methods = _keep(kw["key"])
    cols = st.columns(4)
    kw = _restore(f"exp_budgets_{protocol}", defaults["budgets"])
    cols[0].text_input(
        "Budgets (% of M)" if protocol == "A" else "Budgets (number of features)",
        **kw,
        help="Comma-separated values or ranges, e.g. 10, 30, 50 or 1-50.",
    )
    budgets = _keep(kw["key"])
    split = "cv"
    if protocol == "B":
        cols[1].selectbox(
            "Split",
            SPLITS,
            **_restore("exp_split", SPLITS[0], SPLITS),
            help="own = the dataset's split, else 60/40",
        )
        split = _keep("exp_split")
    kw = _restore(f"exp_folds_{protocol}", defaults["folds"])
    if uses_folds(protocol, split):
        cols[2].number_input("Folds (CV)", 2, 10, **kw, help="The papers use 10.")
    folds = _keep(kw["key"])
    kw = _restore(f"exp_repeats_{protocol}", 1)
    drawn = [m for m in methods if get_method(m).stochastic]
    cols[3].number_input(
        "Random runs",
        1,
        5,
        **kw,
        help="How many times each method that draws at random runs (of those "
        f"chosen: {', '.join(drawn) or 'none'}); paper 000 averages 3 runs.",
    )
    repeats = _keep(kw["key"])
    scaling, binarize = _input_settings(protocol)
    values = {
        "datasets": datasets,
        "methods": methods,
        "protocol": protocol,
        "budgets": budgets,
        "folds": folds,
        "repeats": repeats,
        "split": split,
        "scaling": scaling,
        "binarize": binarize,
    }
    if protocol == "B":
        st.selectbox(
            "Evaluation",
            list(EVALUATIONS),
            format_func=EVALUATIONS.get,
            **_restore("exp_evaluation", "definition", list(EVALUATIONS)),
            help="How the selected features are evaluated: METHODS.md's protocol "
            "B, the ATR authors' published code (paper 001's own numbers), or one "
            "of that code's four conventions alone, to see which one moves a "
            "method. The authors' conventions compare distances of the "
            "discretized codes, so they need the scaling 'none'.",
        )
        values["evaluation"] = _keep("exp_evaluation")
    return values


EVALUATIONS = {
    "definition": "as METHODS.md defines it",
    "reference-code": "as the ATR authors' code does (all four conventions)",
    "split": "their convention alone: Mulan's predefined split",
    "mlknn": "their convention alone: each training sample its own neighbour",
    "ranking_on_predictions": "their convention alone: ranking metrics on 0/1",
    "weighted_and_drop": "their convention alone: weighted F1/Jaccard",
}
"""Protocol B's evaluations offered on the page (``ProtocolConfig.evaluation``)."""


SCALINGS = {
    "A": {
        "none": "none (the papers' setting)",
        "l2-rows": "l2-rows (each row to unit length; liblinear converges)",
        "maxabs": "maxabs (each column divided by its largest |value|)",
    },
    "B": {
        "none": "none (distances on the discretized codes)",
        "minmax": "minmax (each feature to [0, 1], as Mulan's ML-kNN)",
    },
}
BINARIZE = {
    "presence": "non-zero (papers, text)",
    "median": "above its median (dense)",
}


def _input_settings(protocol: str) -> tuple[str, str]:
    """Classifier-input scaling and the CS/BNS presence rule (kept per protocol)."""
    cols = st.columns(2)
    options = SCALINGS[protocol]
    kw = _restore(f"exp_scaling_{protocol}", "none", list(options))
    cols[0].selectbox(
        "Classifier input scaling",
        list(options),
        format_func=options.get,
        **kw,
        help="Protocol A: how the selected columns are scaled before LinearSVC "
        "(part of the cache key; the run's summary says how many fits did not "
        "converge). Protocol B: ML-kNN's feature scaling.",
    )
    scaling = _keep(kw["key"])
    kw = _restore(f"exp_binarize_{protocol}", "presence", list(BINARIZE))
    cols[1].selectbox(
        "CS/BNS: a feature is present when",
        list(BINARIZE),
        format_func=BINARIZE.get,
        **kw,
        help="Applies to the CS/BNS methods. Non-zero (presence) is the papers' "
        "rule for text; on dense numeric data it makes nearly every score tie, "
        "so use above its median there.",
    )
    return scaling, _keep(kw["key"])


def config_upload() -> None:
    """TOML uploader whose callback fills the widgets from the config."""
    st.file_uploader(
        "Load a config (TOML)",
        type=["toml"],
        key=CONFIG_UPLOAD,
        on_change=_apply_config,
    )
    message = st.session_state.get(CONFIG_MESSAGE)
    if message and message.startswith("Could not"):
        st.error(message)
    elif message:
        (st.warning if "left out" in message else st.success)(message)


def _apply_config() -> None:
    upload = st.session_state.get(CONFIG_UPLOAD)
    if upload is None:
        return
    try:
        config = read_config(upload.getvalue().decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        st.session_state[CONFIG_MESSAGE] = (
            f"Could not load {upload.name}: {state.redact(str(exc))}"
        )
        return
    proto = config.protocol
    name = proto.name if proto.name in PROTOCOLS else "A"
    _set("exp_protocol", name)
    _set(f"exp_methods_{name}", [m.name for m in config.methods])
    _set(f"exp_budgets_{name}", ", ".join(f"{b:g}" for b in proto.budgets))
    _set(f"exp_folds_{name}", min(max(proto.n_folds, 2), 10))
    _set(f"exp_repeats_{name}", min(proto.n_repeats, 5))
    if name == "B":
        _set("exp_split", proto.split)
        scaling = proto.classifier.params.get("scaling", "none")
        if proto.evaluation in EVALUATIONS:
            _set("exp_evaluation", proto.evaluation)
    else:
        scaling = proto.scaling
    if scaling in SCALINGS[name]:
        _set(f"exp_scaling_{name}", scaling)
    rules = {m.params.get("binarize", "presence") for m in config.methods}
    binarize = "median" if "median" in rules else "presence"
    _set(f"exp_binarize_{name}", binarize)
    st.session_state[state.SEED] = config.seed
    names, left_out = _dataset_names(config.datasets)
    _set("exp_datasets", names)
    message = f"Loaded {upload.name}"
    if left_out:
        message += (
            f"; left out {len(left_out)} dataset(s) not available on this server: "
            + ", ".join(left_out)
            + ". Choose datasets from the sidebar's list (the sample, the data "
            "folder, your uploads)."
        )
    st.session_state[CONFIG_MESSAGE] = message


def _set(key: str, value) -> None:
    """Set widget ``key`` and its kept copy (:data:`KEPT`)."""
    st.session_state[key] = value
    st.session_state.setdefault(KEPT, {})[key] = value


def _dataset_names(specs) -> tuple[list[str], list[str]]:
    """Sidebar names of a config's datasets, and the names of those left out.

    A config may name the sample, a dataset the sidebar lists (by name or by
    path), or a path inside ``MLFS_DATA_DIR`` or the work dir; anything else
    (e.g. a folder elsewhere on the server) is left out, and the message
    never shows the path.
    """
    known = widgets.dataset_catalogue()
    by_path = {str(Path(k.path).resolve()): n for n, k in known.items()}
    names, left_out = [], []
    for spec in specs:
        name = spec.name or Path(spec.path).name
        if spec.path == "sample":
            names.append(state.SAMPLE_NAME)
        elif str(Path(spec.path).expanduser().resolve()) in by_path:
            names.append(by_path[str(Path(spec.path).expanduser().resolve())])
        elif state.is_allowed_path(spec.path) and Path(spec.path).exists():
            extra = {**st.session_state[state.EXTRA_PATHS], name: spec.path}
            st.session_state[state.EXTRA_PATHS] = extra
            names.append(name)
        elif name in known:
            names.append(name)
        else:
            left_out.append(name)
    return names, left_out


RUNNING = "exp_running"  # (done, total) while a run is in progress, else None


def run_with_progress(config) -> Path | None:
    """Run ``config`` with a progress bar and remaining-time estimate.

    The bar's first text says what runs (:func:`run_statement`), so a run
    never starts on datasets or a protocol the user did not see.
    """
    starting = f"Starting: {run_statement(config)}"
    bar = st.progress(0, text=starting)
    eta, last = progress.TimeLeft(), [""]

    def draw() -> None:  # also every second while one task runs (ticking)
        if eta.total:
            text = f"{eta.done}/{eta.total} tasks{eta.text()} · {last[0]}"
            bar.progress(eta.done / eta.total, text=text)
        elif eta.elapsed() >= 2:  # before the first task ends
            so_far = progress.duration_text(eta.elapsed())
            bar.progress(0, text=f"{starting} · {so_far} so far")

    def report(done: int, total: int, _eta: str, message: str) -> None:
        st.session_state[RUNNING] = (done, total)
        eta.update(done, total)
        last[0] = message
        redraw()

    st.session_state[RUNNING] = (0, 0)
    try:
        with progress.ticking(draw) as redraw:
            folder = run(config, report)
    except ValueError as exc:
        st.error(f"The experiment could not run: {state.redact(str(exc))}")
        folder = None
    st.session_state[RUNNING] = None
    if folder is not None:
        bar.progress(1.0, text="Done")
    return folder


def report_stopped_run() -> None:
    """Say so when the previous run was stopped before it finished."""
    running = st.session_state.get(RUNNING)
    if running:
        done, total = running
        st.warning(
            f"The last run stopped after {done} of {total} tasks. Finished tasks are "
            "cached: press Run to resume from there."
        )
        st.session_state[RUNNING] = None


def fitting_columns(table) -> tuple[list[str], list[str]]:
    """The results columns to show, and those left out as constant.

    A column holding one value in every row (the protocol, one dataset, one
    repeat) says nothing per row; leaving it out lets every other column show
    at projector width (1024 px). The method, metric and value always stay.
    """
    keep = {"method", "metric", "value"}
    constant = [
        c
        for c in table.columns
        if c not in keep and table[c].nunique(dropna=False) <= 1
    ]
    return [c for c in table.columns if c not in constant], constant


def show_session_results() -> None:
    """This session's last results: a table and CSV downloads."""
    folder = st.session_state.get(state.EXPERIMENT_RESULTS)
    if not folder or not (Path(folder) / RESULTS_FILE).is_file():
        return
    st.subheader("Results of this session's experiment")
    st.caption(
        f'The analysis pages now show these results (source: "{state.SOURCE_SESSION}").'
    )
    solver = solver_summary(Path(folder))
    if solver:
        st.caption(solver.capitalize() + ".")
    table = cached.results(results_ref(folder))
    shown, constant = fitting_columns(table)
    if constant:
        st.caption(
            "Shown without the columns of one value throughout ("
            + ", ".join(f"{c} = {table[c].iloc[0]}" for c in constant)
            + "); the CSV below has every column."
        )
    st.dataframe(table[shown], hide_index=True, height=300)
    for column, file in zip(
        st.columns(2), (RESULTS_FILE, SELECTIONS_FILE), strict=True
    ):
        path = Path(folder) / file
        if path.is_file():
            column.download_button(
                f"Download {file}",
                path.read_bytes(),
                file_name=file,
                mime="text/csv",
                key=f"exp_{path.stem}_csv",
                on_click="ignore",
            )


ESTIMATE = "exp_estimate_result"  # (config digest, estimate dict) of the last probe


def estimate_panel(config, protocol: str) -> None:
    """The "Estimate the run time" button, its figure and, for a long run, the
    offer of a quick variant (the user chooses: Run as set, or the variant)."""
    digest = config_digest(config)
    if st.button(
        "Estimate the run time",
        key="exp_estimate",
        help="Times one ranking and one classifier fit of these settings on this "
        "machine and extrapolates to the whole run.",
    ):
        with st.spinner("Timing one ranking and one classifier fit ..."):
            found = widgets.call_or_error(
                "Could not estimate the run", estimate, config
            )
        st.session_state[ESTIMATE] = None if found is None else (digest, found)
    kept = st.session_state.get(ESTIMATE)
    if not kept or kept[0] != digest:
        return
    found = kept[1]
    st.info(estimate_text(found), icon=":material/timer:")
    if found["seconds"] <= LONG_RUN_S:
        return
    split = st.session_state.get("exp_split", "cv") if protocol == "B" else "cv"
    budgets = quick_budgets(parse_budgets(st.session_state[f"exp_budgets_{protocol}"]))
    parts = [f"budgets {budgets}"]
    if uses_folds(protocol, split):
        parts.append("2 folds")
    if protocol == "A":
        parts.append("l2-rows scaling (liblinear converges in fewer iterations)")
    st.warning(
        "That is a long run. Run it as set, or use a quick variant: "
        + ", ".join(parts)
        + ".",
        icon=":material/hourglass_top:",
    )
    st.button(
        "Use the quick variant",
        key="exp_quick",
        on_click=_apply_quick,
        args=(protocol, budgets, uses_folds(protocol, split)),
    )


def _apply_quick(protocol: str, budgets: str, folds: bool) -> None:
    _set(f"exp_budgets_{protocol}", budgets)
    if folds:
        _set(f"exp_folds_{protocol}", 2)
    if protocol == "A":
        _set("exp_scaling_A", "l2-rows")
