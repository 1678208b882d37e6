"""Method pickers: families, and paper-000 names split into measure + aggregation."""

from __future__ import annotations

import streamlit as st

import mlfs_core
from mlfs_core.selectors.naming import is_filter_name, split_name

from ..widgets import method_params

FAMILIES = {
    "Score + aggregation (paper 000)": "paper000",
    "Information-theoretic (paper 001)": "paper001",
    "Baselines (RFS, AF)": "baseline",
    "Extra measures (IG, OR, DF)": "extra",
}


def pick_method(*, key: str, default_family: str = "paper000") -> tuple[str, tuple]:
    """Family radio, then measure + aggregation or a method name, then its options."""
    available = {k: v for k, v in FAMILIES.items() if mlfs_core.list_methods(v)}
    labels = list(available)
    values = list(available.values())
    start = values.index(default_family) if default_family in values else 0
    choice = st.radio(
        "Kind of method", labels, index=start, key=f"{key}_family", horizontal=True
    )
    family = available[choice]
    names = mlfs_core.list_methods(family)
    if family == "paper000":
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


_PREFERRED = ("MaxCS", "MeanCS", "RoRBNS", "PPT-MI", "RFS")


def default_comparison() -> list[str]:
    """A few contrasting registered methods for comparison widgets."""
    names = set(mlfs_core.list_methods())
    return [m for m in _PREFERRED if m in names]


def all_methods() -> list[str]:
    """Every registered method name."""
    return mlfs_core.list_methods()
