"""Method pickers: families from the registry, paper-000 names split into measure +
aggregation, and the server's plug-ins.

Nothing here names a method: the families, their titles and their methods come
from the registry (:func:`mlfs_core.selectors.families`), so a plug-in's method
(and its own family) appears in every picker.
"""

from __future__ import annotations

import streamlit as st

import mlfs_core
from mlfs_core.errors import ConfigError
from mlfs_core.plugins import load_plugins, loaded_plugins
from mlfs_core.selectors import families
from mlfs_core.selectors.naming import is_filter_name, split_name

from ..widgets import method_params

N_COMPARED = 5
"""How many methods the comparison widgets start with."""


def server_plugins() -> list:
    """Load the plug-ins the server was started with; an ``st.error`` if one fails.

    Only the server's side brings code in: installed packages (the entry-point
    group ``mlfs_explorer.plugins``) and ``MLFS_PLUGINS`` set by whoever starts
    the server. Nothing a browser sends is ever imported (see the plug-ins page
    of the docs: on a shared server that would be remote code execution).
    Idempotent, so every rerun may call it.
    """
    try:
        load_plugins()
    except ConfigError as exc:
        st.error(f"A plug-in could not be loaded, its methods are missing: {exc}")
    return loaded_plugins()


def family_choices() -> dict[str, str]:
    """Title -> family of every family with a method, in registry order."""
    return {title: family for family, title in families()}


def pick_method(*, key: str, default_family: str = "paper000") -> tuple[str, tuple]:
    """Family radio, then measure + aggregation or a method name, then its options."""
    available = family_choices()
    labels = list(available)
    values = list(available.values())
    start = values.index(default_family) if default_family in values else 0
    choice = st.radio(
        "Kind of method", labels, index=start, key=f"{key}_family", horizontal=True
    )
    family = available[choice]
    names = mlfs_core.list_methods(family)
    if all(is_filter_name(n) for n in names):  # measure + aggregation names
        method = _measure_aggregation(names, key=key)
    else:
        method = st.selectbox("Method", names, key=f"{key}_method")
    with st.expander(f"{method} options", expanded=False):
        st.caption(mlfs_core.get_method(method).description)
        params = method_params(method, key=key)
    return method, params


def _measure_aggregation(names: list[str], *, key: str) -> str:
    parts = [split_name(n) for n in names if is_filter_name(n)]
    aggregations = list(dict.fromkeys(a for a, _ in parts))
    measures = list(dict.fromkeys(m for _, m in parts))
    left, right = st.columns(2)
    measure = left.selectbox("Measure", measures, key=f"{key}_measure")
    aggregation = right.selectbox("Aggregation", aggregations, key=f"{key}_aggregation")
    name = aggregation + measure
    return name if name in names else names[0]


def default_comparison() -> list[str]:
    """A few contrasting methods for comparison widgets: the first method of each
    family in turn (registry order), up to :data:`N_COMPARED`."""
    per_family = [mlfs_core.list_methods(f) for f, _ in families()]
    out: list[str] = []
    depth = 0
    while len(out) < N_COMPARED and any(depth < len(n) for n in per_family):
        out += [names[depth] for names in per_family if depth < len(names)]
        depth += 1
    return out[:N_COMPARED]


def all_methods() -> list[str]:
    """Every registered method name."""
    return mlfs_core.list_methods()
