"""Small rendering helpers shared by the pages."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from typing import TypeVar

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import mlfs_core
from mlfs_core.evaluation import escape_csv_text
from mlfs_core.options import Option
from mlfs_core.plots import for_projector, png_export_available, to_png_bytes
from mlfs_core.views import upload_form_words

from . import cached, lessons, links, presentation, state
from .datasets import DatasetKey, catalogue

T = TypeVar("T")


def dataset_catalogue() -> dict[str, DatasetKey]:
    """Every dataset the sidebar offers: the sample, ``MLFS_DATA_DIR`` and uploads."""
    folder = state.data_dir()
    found = cached.discover(str(folder)) if folder else {}
    found = {**found, **st.session_state[state.EXTRA_PATHS]}
    return catalogue(found, st.session_state[state.UPLOADS])


def current_dataset() -> tuple[str, DatasetKey]:
    """The (name, key) of the dataset chosen in the sidebar."""
    names = dataset_catalogue()
    name = st.session_state.get(state.DATASET, state.SAMPLE_NAME)
    if name not in names:
        name = state.SAMPLE_NAME
    return name, names[name]


SEED_MAX = 2**63 - 1
"""Largest seed: what a saved TOML config (a signed 64-bit integer) holds."""


def seed_problem() -> str | None:
    """Why the sidebar's seed is not a seed (None when it is one).

    The seed box is a text box, so what the user typed reaches the server as
    typed ("1e25", "2.5", "-3"): anything but a whole number in
    ``[0, SEED_MAX]`` is named, and the router runs no page until it is fixed.
    """
    text = str(st.session_state.get(state.SEED, "0")).strip()
    if not text.isdigit() or int(text) > SEED_MAX:
        return f"Seed must be a whole number from 0 to {SEED_MAX}, not {text!r}."
    return None


def seed() -> int:
    """The one seed of the session (sidebar), checked by :func:`seed_problem`."""
    text = str(st.session_state.get(state.SEED, "0")).strip()
    return int(text) if seed_problem() is None else 0


def load_or_error(
    key: DatasetKey, *, notes_expanded: bool = False, dense_note_apart: bool = False
) -> bool:
    """Load ``key`` through the cache; on failure show ``st.error`` and return False.

    After a load, each of the dataset's oddities (a label never positive,
    dense data under presence-based scores ...) is shown as ``st.warning``:
    in the open with ``notes_expanded`` (the Data page), else inside a closed
    expander that says how many there are, so they do not crowd every page.
    With ``dense_note_apart`` the dense-data note is left out: the page
    shows its own, in the open, when its method counts presence
    (:func:`ui.sections.methods.dense_note`), and none when it does not.
    """
    if call_or_error("Could not load this dataset", cached.load, key) is None:
        return False
    for message in cached.load_warnings(key):
        st.warning(upload_form_words(state.redact(message)), icon=":material/warning:")
    notes = cached.data_warnings(key)
    if dense_note_apart:
        notes = [m for m in notes if not m.startswith(DENSE_NOTE)]
    if notes and not notes_expanded:
        word = "note" if len(notes) == 1 else "notes"
        box = st.expander(
            f"{len(notes)} {word} on this dataset", icon=":material/warning:"
        )
    else:
        box = st.container()
    for message in notes:
        box.warning(message, icon=":material/warning:")
    return True


DENSE_NOTE = "Dense data:"
"""How :func:`mlfs_core.data.describe.data_warnings`' dense-data note starts."""


def call_showing_warnings(
    what: str, fn: Callable[..., T], *args: object, **kwargs: object
) -> T | None:
    """:func:`call_or_error`, also showing each Python warning the call raised.

    The engine reports oddities it corrects or skips (e.g. a label too rare
    for the folds) with :func:`warnings.warn`; here they become ``st.warning``.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = call_or_error(what, fn, *args, **kwargs)
    for message in dict.fromkeys(str(w.message) for w in caught):
        st.warning(message, icon=":material/warning:")
    return out


FIRST_OPEN = "_first_open_done_{}"
"""Session-state key format: set once the page's first full run has ended."""


@contextlib.contextmanager
def page_wait(page: str, text: str) -> Iterator[Callable[[float], None]]:
    """An indicator over a page's run: a progress bar on its first open, then a spinner.

    The page's first full run in a browser session computes what nothing has
    cached yet. Its parts are each shorter than a spinner's 0.5 s delay, and
    together take 1-2 s, so a spinner would hardly show. On that first run
    a progress bar appears at once instead. It stands where the ``with``
    block starts, advances with each ``step(fraction)`` the page reports,
    and is removed when the block ends. Later runs (a changed metric,
    another results source) get a spinner, which shows only when the wait
    passes 0.5 s, so a cached rerun does not flash a bar. Call ``step``
    only from the page's own code, not from inside a fragment: a fragment's
    reruns must not touch elements outside it.

    Parameters
    ----------
    page : str
        The page's name, unique in the app (its session-state flag).
    text : str
        What the page is doing, shown beside the indicator.

    Yields
    ------
    callable
        ``step(fraction)``, with ``fraction`` in [0, 1]; it does nothing on
        later runs.
    """
    flag = FIRST_OPEN.format(page)
    if st.session_state.get(flag):
        # the slot the first run's bar took: every element after it keeps its
        # place, so the browser does not mount it again (a URL-bound widget
        # in a fragment remounted so lost its link to the URL)
        st.empty()
        with st.spinner(text):
            yield lambda fraction: None
        return
    bar = st.progress(0.0, text=text)
    try:
        yield lambda fraction: bar.progress(min(max(fraction, 0.0), 1.0), text=text)
    finally:
        bar.empty()
        st.session_state[flag] = True


def call_or_error(
    what: str, fn: Callable[..., T], *args: object, **kwargs: object
) -> T | None:
    """Call ``fn``; on failure show ``st.error`` naming ``what`` and return None.

    Bad input (``ValueError``) shows its message; any other exception is an
    engine bug, shown as one line (type and message) rather than a traceback.
    Server folders are cut from the message (:func:`ui.state.redact`).
    """
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        st.error(f"{what}: {state.redact(str(exc))}")
    except Exception as exc:  # an engine bug must not show a traceback to the user
        name = type(exc).__name__
        st.error(f"{what} (internal error, {name}): {state.redact(str(exc))}")
    return None


def _png_callable(fig: go.Figure) -> Callable[[], bytes]:
    return lambda: to_png_bytes(fig, browser=state.browser_path())


def _csv_callable(data: pd.DataFrame) -> Callable[[], str]:
    return lambda: escape_csv_text(data).to_csv(index=False)


def styled(fig: go.Figure, *, main: bool = False) -> go.Figure:
    """``fig`` as the app shows it: restyled for a projector in presentation
    mode (:func:`mlfs_core.plots.for_projector`; a page's ``main`` chart sized
    to end above the fold of a 1280 x 720 screen), else as it is."""
    if not presentation.is_on():
        return fig
    height = presentation.MAIN_CHART_PX if main else None
    return for_projector(fig, height=height)


def show_figure(
    fig: go.Figure,
    data: pd.DataFrame,
    *,
    key: str,
    filename: str,
    main: bool = False,
) -> None:
    """Draw ``fig`` with PNG and CSV download buttons for the figure and its data.

    The figure is drawn in its own template (``theme=None``), not Streamlit's,
    so the screen shows what the PNG shows: near-black text, each method in
    its own colour. In presentation mode (:mod:`ui.presentation`) it is first
    restyled for a projector, and a page's ``main`` chart is sized to end
    above the fold of a 1280 x 720 screen.
    """
    fig = styled(fig, main=main)
    lessons.collect(fig)  # a lesson's slides
    st.plotly_chart(fig, key=f"{key}_chart", config={"displaylogo": False}, theme=None)
    left, right = st.columns(2)
    if png_export_available(state.browser_path()):
        left.download_button(
            "Download PNG",
            data=_png_callable(fig),
            file_name=f"{filename}.png",
            mime="image/png",
            key=f"{key}_png",
            on_click="ignore",
        )
    else:
        left.caption(
            "PNG export needs kaleido + Chromium; use the chart's camera icon."
        )
    right.download_button(
        "Download data (CSV)",
        data=_csv_callable(data),  # on click: not on every rerun of the page
        file_name=f"{filename}.csv",
        mime="text/csv",
        key=f"{key}_csv",
        on_click="ignore",
    )


def method_params(
    method: str, *, key: str, dense: bool = False
) -> tuple[tuple[str, object], ...]:
    """Widgets for a method's options (from its registry spec) -> params tuple.

    Each widget opens on the option's default, except on ``dense`` data
    (:func:`ui.cached.is_dense`) a ``binarize`` option that offers
    ``"median"``: it opens on ``"median"``, since under ``"presence"`` nearly
    every feature is present everywhere and nearly every CS/BNS score ties.

    Each :class:`~mlfs_core.options.Option` gives its widget: a selectbox
    for a text option with choices, a checkbox for a flag, a number input
    bounded by the option's range for a number. Each widget's key,
    ``{key}_{option}``, is also its query parameter (:func:`ui.links.bound`):
    the options survive a page switch, a reload and a pasted link.
    """
    spec = mlfs_core.get_method(method)
    return tuple(
        (o.name, _option_widget(method, o, key=f"{key}_{o.name}", dense=dense))
        for o in spec.options
    )


def _option_widget(
    method: str, option: Option, *, key: str, dense: bool = False
) -> object:
    label, help_ = f"{method}: {option.name}", option.help or None
    if option.choices is not None:
        choices = list(option.choices)
        median = dense and option.name == "binarize" and "median" in choices
        index = choices.index("median" if median else option.default)
        return st.selectbox(label, choices, index=index, help=help_, **links.bound(key))
    if option.kind is bool:
        return st.checkbox(label, value=option.default, help=help_, **links.bound(key))
    if option.kind in (int, float):
        cast = option.kind
        value = st.number_input(
            label,
            value=option.default,
            min_value=None if option.low is None else cast(option.low),
            max_value=None if option.high is None else cast(option.high),
            step=1 if cast is int else None,
            format=None if cast is int else "%g",
            help=help_,
            **links.bound(key),
        )
        return cast(value)
    return st.text_input(
        label, value=str(option.default), help=help_, **links.bound(key)
    )
