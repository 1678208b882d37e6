"""Method pickers: families from the registry, score + aggregation names split into
measure + aggregation, and the server's plug-ins.

Nothing here names a method: the families, their titles and their methods come
from the registry (:func:`mlfs_core.selectors.families`), so a plug-in's method
(and its own family) appears in every picker.
"""

from __future__ import annotations

import streamlit as st

import mlfs_core
from mlfs_core.errors import ConfigError
from mlfs_core.plugins import load_plugins, loaded_plugins
from mlfs_core.selectors import families, is_filter_name, split_name

from .. import cached, links
from ..datasets import DatasetKey
from ..widgets import call_or_error, method_params

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


def pick_method(
    *, key: str, default_family: str = "score-aggregation", dense: bool = False
) -> tuple[str, tuple]:
    """Family radio, then measure + aggregation or a method name, then its options.

    On ``dense`` data a ``binarize`` option opens on ``"median"``
    (:func:`ui.widgets.method_params`).

    Every widget is bound to the URL (:func:`ui.links.bound`) under ``key``
    and a suffix: ``{key}_family``, ``{key}_measure``, ``{key}_agg``,
    ``{key}_method`` and one ``{key}_{option}`` per option.
    """
    available = family_choices()
    labels = list(available)
    values = list(available.values())
    start = values.index(default_family) if default_family in values else 0
    choice = st.radio(
        "Kind of method",
        labels,
        index=start,
        horizontal=True,
        **links.bound(f"{key}_family"),
    )
    family = available[choice]
    names = mlfs_core.list_methods(family)
    if all(is_filter_name(n) for n in names):  # measure + aggregation names
        method = _measure_aggregation(names, key=key)
    else:
        method = st.selectbox("Method", names, **links.bound(f"{key}_method"))
    with st.expander(options_title(method), expanded=False):
        st.caption(method_caption(method))
        params = method_params(method, key=key, dense=dense)
    return method, params


def method_caption(method: str) -> str:
    """A method's description and, when its spec has one, its source (citation)."""
    spec = mlfs_core.get_method(method)
    return (
        f"{spec.description} Source: {spec.citation}."
        if spec.citation
        else (spec.description)
    )


def options_title(method: str) -> str:
    """The title of a method's options box: the names of its options, from its spec.

    Examples: ``"ATR options (bins, discretize, tau)"``,
    ``"AF: no options"``.
    """
    names = [o.name for o in mlfs_core.get_method(method).options]
    return (
        f"{method} options ({', '.join(names)})" if names else f"{method}: no options"
    )


def _measure_aggregation(names: list[str], *, key: str) -> str:
    parts = [split_name(n) for n in names if is_filter_name(n)]
    aggregations = list(dict.fromkeys(a for a, _ in parts))
    measures = list(dict.fromkeys(m for _, m in parts))
    left, right = st.columns(2)
    measure = left.selectbox("Measure", measures, **links.bound(f"{key}_measure"))
    aggregation = right.selectbox(
        "Aggregation", aggregations, **links.bound(f"{key}_agg")
    )
    name = aggregation + measure
    return name if name in names else names[0]


def dense_note(
    key: DatasetKey, dataset: str, chosen=(), *, shown=None, names=None, cure=None
) -> str | None:
    """An open ``st.warning`` when presence-based methods rank dense data.

    ``chosen`` is a list of ``(method, params)``; the methods that count a
    non-zero value as present (:func:`mlfs_core.evaluation.presence_methods`:
    CS, BNS and their aggregations without ``binarize = "median"``) get
    :func:`mlfs_core.evaluation.dense_warning`'s message when the data are
    dense. ``shown`` (a ranking table with a ``score`` column) adds how many
    of the shown features score exactly 0, which then stand in file order.
    ``names`` instead names what counts presence (the score page's measures,
    "CS, BNS", when its rule is "non-zero"). ``cure`` says what to do on
    this page (default: the binarize of the first method's options box).

    Returns the message shown (None when there is none).
    """
    from mlfs_core.evaluation import MethodConfig, presence_methods

    presence = tuple(names or ()) or tuple(
        presence_methods([MethodConfig(m, dict(p)) for m, p in chosen])
    )
    if not presence:
        return None
    message = call_or_error(
        f"Reading {dataset}", cached.dense_warning, key, presence, dataset
    )
    if not message:
        return None
    what, _, _ = message.partition(" To fix it, ")
    where = options_title(chosen[0][0]) if chosen else "the method's options"
    cure = cure or (
        f'open "{where}" and choose binarize = "median" (present = above the '
        "feature's median)"
    )
    message = f"{what} To fix it, {cure}."
    if shown is not None and len(shown):
        zeros = int((shown["score"].astype(float) == 0).sum())
        if zeros:
            message += (
                f" Here {zeros} of the top {len(shown)} features score 0: their "
                "order is the file's order, not a ranking."
            )
    st.warning(message, icon=":material/warning:")
    return message


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
