"""Widgets of the Experiment page, and loading a TOML config into them."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from mlfs_core.evaluation import protocol_preset
from mlfs_core.selectors import get_method
from mlfs_core.views import (
    FOLDS,
    LONG_RUN_S,
    REPEATS,
    budget_label,
    config_digest,
    estimate,
    estimate_text,
    evaluation_choices,
    methods_by_family,
    offers_evaluation,
    parse_budgets,
    protocol_choices,
    quick_budgets,
    split_options,
    teaching_defaults,
    teaching_methods,
    uses_knn,
)

from .. import links, state, widgets
from . import experiment_grids
from .experiment import (
    read_config,
)

CONFIG_UPLOAD = "exp_config_upload"
CONFIG_MESSAGE = "exp_config_message"
SPLIT_HELP = (
    "repeated_holdout = random train/test splits; own = the dataset's split, "
    "else one hold-out; cv = k-fold cross-validation"
)


def uses_folds(protocol: str, split: str) -> bool:
    """Whether the protocol's split has folds (a preset that fixes CV, or ``cv``)."""
    return not split_options(protocol) or split == "cv"


def _split_of(protocol: str) -> str:
    """The split chosen for ``protocol`` (its own when the form offers none)."""
    options = split_options(protocol)
    if not options:
        return "cv"
    chosen = st.session_state.get(f"exp_split_{protocol}", options[0])
    return chosen if chosen in options else options[0]


def _value(key: str, default):
    """Widget ``key``'s value, also when it is not drawn on this run."""
    return st.session_state.get(key, default)


def settings(dataset_names: list[str], current: str) -> dict:
    """Render the experiment widgets; return their values as keyword arguments.

    Every widget is bound to the page's URL (:func:`ui.links.bound`; its key
    is the query parameter): a page switch, a reload and a pasted link open
    the same form. The methods, budgets, folds, runs and input settings are
    kept per protocol (``exp_methods_A``, ``exp_methods_B`` ...). Folds and
    random runs are text boxes: what the box shows is what the server reads,
    so an out-of-range value is an error (:func:`~mlfs_core.views.
    build_config`), never a red box while the run uses the previous value.
    """
    datasets = st.multiselect(
        "Datasets",
        dataset_names,
        default=[current] if current in dataset_names else None,
        **links.bound("exp_datasets"),
    )
    protocol = _protocol()
    defaults = teaching_defaults(protocol)
    methods = _methods(protocol)
    budgets, split, folds, repeats = _sizes(protocol, methods, defaults)
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
    if offers_evaluation(protocol):
        values["evaluation"] = _labelled_choice(
            st,
            "Evaluation",
            evaluation_choices(),
            "exp_evaluation",
            "How the selected features are evaluated: as defined, "
            "a set of conventions a plug-in registered (e.g. a published "
            "method's own code), or one convention alone, to see which one "
            "moves a method. Conventions that compare distances of discretized "
            "codes need the scaling 'none'.",
        )
    return values


def _protocol() -> str:
    """The protocol preset radio (the registry's presets, captions below)."""
    # The radio's options are the registered presets' names (their
    # descriptions are captions): the URL holds an option as shown, and a
    # short one reads well in a link.
    choices = protocol_choices()
    protocol = st.radio(
        "Protocol",
        list(choices),
        captions=list(choices.values()),
        horizontal=True,
        **links.bound("exp_protocol"),
    )
    return protocol


def _methods(protocol: str) -> list[str]:
    """The methods box, family after family, its first methods the preset's."""
    known, family_of = methods_by_family()
    methods = st.multiselect(
        "Methods",
        known,
        default=[m for m in teaching_methods(protocol) if m in known],
        format_func=lambda name: f"{name} · {family_of[name]}",
        help="Listed family by family (the family after each name); a plug-in's "
        "methods come under their own family.",
        **links.bound(f"exp_methods_{protocol}"),
    )
    return methods


def _sizes(protocol: str, methods: list[str], defaults: dict) -> tuple:
    """The budgets, split, folds and random-runs boxes (their texts as typed)."""
    cols = st.columns(4)
    budgets = cols[0].text_input(
        budget_label(protocol),
        defaults["budgets"],
        help="Comma-separated values or ranges, e.g. 10, 30, 50 or 1-50.",
        **links.bound(f"exp_budgets_{protocol}"),
    )
    split = "cv"
    if split_options(protocol):
        split = cols[1].selectbox(
            "Split",
            split_options(protocol),
            help=SPLIT_HELP,
            **links.bound(f"exp_split_{protocol}"),
        )
    label, lo, hi = FOLDS
    if uses_folds(protocol, split):
        folds = cols[2].text_input(
            label,
            defaults["folds"],
            help=f"A whole number from {lo} to {hi}; the papers use 10.",
            **links.bound(f"exp_folds_{protocol}"),
        )
    else:
        folds = _value(f"exp_folds_{protocol}", defaults["folds"])
    label, lo, hi = REPEATS
    drawn = [m for m in methods if get_method(m).stochastic]
    repeats = cols[3].text_input(
        label,
        "1",
        help=f"A whole number from {lo} to {hi}: how many times each method that "
        f"draws at random runs (of those chosen: {', '.join(drawn) or 'none'}).",
        **links.bound(f"exp_repeats_{protocol}"),
    )
    return budgets, split, folds, repeats


SCALINGS = {
    "input": {
        "none": "none (the papers' setting)",
        "l2-rows": "l2-rows (each row to unit length; liblinear converges)",
        "maxabs": "maxabs (each column divided by its largest |value|)",
    },
    "knn": {
        "none": "none (distances on the features as given)",
        "minmax": "minmax (each feature to [0, 1], as Mulan's ML-kNN)",
    },
}
BINARIZE = {
    "presence": "non-zero (papers, text)",
    "median": "above its median (dense)",
}


def scaling_kind(protocol: str) -> str:
    """Which scalings the form offers: ML-kNN's (``"knn"``) or the protocol's
    classifier-input scaling (``"input"``)."""
    return "knn" if uses_knn(protocol) else "input"


def _labelled_choice(area, label: str, options: dict, key: str, help_text: str):
    """A select box in ``area`` of the keys of ``options`` shown by their values
    (label -> text), bound to the URL as ``key``."""
    return area.selectbox(
        label,
        list(options),
        format_func=options.get,
        help=help_text,
        **links.bound(key),
    )


def _input_settings(protocol: str) -> tuple[str, str]:
    """Classifier-input scaling and the CS/BNS presence rule (kept per protocol)."""
    cols = st.columns(2)
    scaling = _labelled_choice(
        cols[0],
        "Classifier input scaling",
        SCALINGS[scaling_kind(protocol)],
        f"exp_scaling_{protocol}",
        "How the selected columns are scaled before the classifier (part of "
        "the cache key; the run's summary says how many fits did not "
        "converge); under an ML-kNN preset, ML-kNN's feature scaling.",
    )
    binarize = _labelled_choice(
        cols[1],
        "CS/BNS: a feature is present when",
        BINARIZE,
        f"exp_binarize_{protocol}",
        "Applies to the CS/BNS methods. Non-zero (presence) is the papers' "
        "rule for text; on dense numeric data it makes nearly every score tie, "
        "so use above its median there.",
    )
    return scaling, binarize


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
    name = proto.name if proto.name in protocol_choices() else "field"
    _set("exp_protocol", name)
    _set(f"exp_methods_{name}", [m.name for m in config.methods])
    _set(f"exp_budgets_{name}", ", ".join(f"{b:g}" for b in proto.budgets))
    # As read: a value out of the boxes' ranges is then shown, with its error.
    _set(f"exp_folds_{name}", str(proto.n_folds))
    _set(f"exp_repeats_{name}", str(proto.n_repeats))
    if proto.split in split_options(name):
        _set(f"exp_split_{name}", proto.split)
    if uses_knn(name):
        scaling = proto.classifier.params.get("scaling", "none")
        if offers_evaluation(name) and proto.evaluation in evaluation_choices():
            _set("exp_evaluation", proto.evaluation)
    else:
        scaling = proto.scaling
    if scaling in SCALINGS[scaling_kind(name)]:
        _set(f"exp_scaling_{name}", scaling)
    rules = {m.params.get("binarize", "presence") for m in config.methods}
    binarize = "median" if "median" in rules else "presence"
    _set(f"exp_binarize_{name}", binarize)
    st.session_state[state.SEED] = str(config.seed)  # the sidebar's text box
    experiment_grids.fill_from(config)
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
    """Set widget ``key`` (its URL parameter follows: :func:`ui.links.bound`)."""
    st.session_state[key] = value


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
    split = _split_of(protocol)
    budgets = quick_budgets(parse_budgets(st.session_state[f"exp_budgets_{protocol}"]))
    parts = [f"budgets {budgets}"]
    if uses_folds(protocol, split):
        parts.append("2 folds")
    if protocol_preset(protocol).classifier.name == "linear_svc":
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
        _set(f"exp_folds_{protocol}", "2")
    if protocol_preset(protocol).classifier.name == "linear_svc":
        _set(f"exp_scaling_{protocol}", "l2-rows")
