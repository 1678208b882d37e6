"""Small rendering helpers shared by the pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import mlfs_core
from mlfs_core.plots import png_export_available, to_png_bytes

from . import cached, state
from .datasets import DatasetKey, catalogue

T = TypeVar("T")


def dataset_catalogue() -> dict[str, DatasetKey]:
    """Every dataset the sidebar offers: the sample, ``MLFS_DATA_DIR`` and uploads."""
    folder = state.data_dir()
    found = cached.discover(str(folder)) if folder else {}
    return catalogue(found, st.session_state[state.UPLOADS])


def current_dataset() -> tuple[str, DatasetKey]:
    """The (name, key) of the dataset chosen in the sidebar."""
    names = dataset_catalogue()
    name = st.session_state.get(state.DATASET, state.SAMPLE_NAME)
    if name not in names:
        name = state.SAMPLE_NAME
    return name, names[name]


def seed() -> int:
    """The one seed of the session (sidebar)."""
    return int(st.session_state.get(state.SEED, 0))


def load_or_error(key: DatasetKey) -> bool:
    """Load ``key`` through the cache; on failure show ``st.error`` and return False."""
    return call_or_error("Could not load this dataset", cached.load, key) is not None


def call_or_error(what: str, fn: Callable[..., T], *args: object) -> T | None:
    """``fn(*args)``; on failure show ``st.error`` naming ``what`` and return None.

    Bad input (``ValueError``) shows its message; any other exception is an
    engine bug, shown as one line (type and message) rather than a traceback.
    """
    try:
        return fn(*args)
    except ValueError as exc:
        st.error(f"{what}: {exc}")
    except Exception as exc:  # an engine bug must not show a traceback to the user
        st.error(f"{what} (internal error, {type(exc).__name__}): {exc}")
    return None


def _png_callable(fig: go.Figure) -> Callable[[], bytes]:
    return lambda: to_png_bytes(fig)


def show_figure(fig: go.Figure, data: pd.DataFrame, *, key: str, filename: str) -> None:
    """Draw ``fig`` with PNG and CSV download buttons for the figure and its data."""
    st.plotly_chart(fig, key=f"{key}_chart", config={"displaylogo": False})
    left, right = st.columns(2)
    if png_export_available():
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
        data=data.to_csv(index=False),
        file_name=f"{filename}.csv",
        mime="text/csv",
        key=f"{key}_csv",
        on_click="ignore",
    )


def method_params(method: str, *, key: str) -> tuple[tuple[str, object], ...]:
    """Widgets for a method's options (from its registry defaults) -> params tuple."""
    spec = mlfs_core.get_method(method)
    params: list[tuple[str, object]] = []
    for name, default in spec.defaults.items():
        params.append((name, _param_widget(method, name, default, key=f"{key}_{name}")))
    return tuple(params)


_CHOICES = {
    "weighting": ["inverse", "proportional", "uniform"],
    "discretization": ["uniform", "quantile", "binary"],
    "strategy": ["uniform", "quantile", "binary"],
}


def _param_widget(method: str, name: str, default: object, *, key: str) -> object:
    label = f"{method}: {name}"
    if isinstance(default, bool):
        return st.checkbox(label, value=default, key=key)
    if isinstance(default, int):
        return int(st.number_input(label, value=default, min_value=0, step=1, key=key))
    if isinstance(default, float):
        return float(st.number_input(label, value=default, key=key, format="%g"))
    if isinstance(default, str) and name in _CHOICES and default in _CHOICES[name]:
        return st.selectbox(
            label, _CHOICES[name], index=_CHOICES[name].index(default), key=key
        )
    if default is None or isinstance(default, str):
        return st.text_input(label, value=default or "", key=key) or default
    return default
