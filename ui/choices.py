"""What a results page lets the reader choose, and its words for the choices.

The metric and methods of a results table, the budget slider, the
highlighted method and the panels shown, the results a page reads
(:func:`chosen_results`), and small words for them (:func:`plural`,
:func:`ordinal`). Page-drawing helpers (errors, figures, waits) are in
:mod:`ui.widgets`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pandas as pd
import streamlit as st

from mlfs_core import views
from mlfs_core.columns import BUDGET, BUDGET_PCT, METHOD, METRIC
from mlfs_core.selectors import list_methods, reference_methods

from . import cached, links
from .results import ResultsRef, choose_source, source_name
from .widgets import call_or_error

DEFAULT_METRICS = ("micro_f1", "example_f1", "weighted_f1")
"""The metric every analysis page opens on: the first of these a results table
holds. micro-F1 is the headline metric of protocol A's publication, and
studies of both protocols hold it, so Average ranks and Metric vs budget open
on the same metric; the sample's protocol B results lack it and open on
example-F1 (which both protocols compute), an evaluation under the
conventions of a method's own code on its weighted F1. A higher-is-better
metric: "up is better" on every page."""
METRIC_MEMORY = "_chosen_metric"
"""Session key of the metric last chosen on any analysis page: the next page
opens on it when its results hold it."""


def default_metric(metrics: list[str]) -> str:
    """The metric a page opens on: the first of :data:`DEFAULT_METRICS` in ``metrics``.

    Examples
    --------
    >>> default_metric(["hamming_loss", "example_f1", "micro_f1"])
    'micro_f1'
    >>> default_metric(["hamming_loss", "example_f1"])
    'example_f1'
    >>> default_metric(["coverage_error"])
    'coverage_error'
    """
    return next((m for m in DEFAULT_METRICS if m in metrics), metrics[0])


def settle(key: str, options: list, valid: Callable[[object], bool], default) -> object:
    """The default to create URL-bound widget ``key`` with; a stale value is replaced.

    A widget keeps its value in the URL under its own key
    (:func:`ui.links.bound`), so the key carries no digest of its options
    and the browser keeps the same widget when they change (another results
    source). A value that is no longer ``valid`` then (or any value, for a
    widget whose options digest changed since it was set) is replaced by
    ``default`` through the Session State API, which also redraws the
    browser's widget (its old chips would stay otherwise), and None is
    returned: the widget is then created without a default. The options'
    digest ignores their order (a post-hoc table's methods follow their
    ranks), and a value already equal to ``default`` is not written: a
    write through the Session State API makes Streamlit send the whole
    query string it last knew, which lacks the change the user has just
    made in the browser (the Friedman test's fragment reset the post-hoc
    control on each budget, and so dropped the slider's first move from
    the URL).

    Otherwise ``default`` itself is returned, whatever the widget holds:
    Streamlit leaves a bound widget's value out of the URL when it equals
    the widget's default, so the default must be the page's own (the same
    in every browser session, given the options), never the value the
    widget has now or had before. Fed back as the default, the first change
    of a widget was dropped from the URL on the rerun it caused (the new
    value was the new default), and a copied link opened on the page's
    default instead. The value a page switch dropped (:func:`remember`)
    is put back into session state instead, unless the URL names one.
    """
    digest = options_key("", sorted(map(str, options)))
    memory = f"_memory_{key}"
    stale = st.session_state.get(f"{memory}_options") not in (None, digest)
    st.session_state[f"{memory}_options"] = digest
    if key in st.session_state:
        now = st.session_state[key]
        if (stale or not valid(now)) and links.differs(now, default):
            st.session_state[key] = default
            return None
        return default
    value = st.session_state.get(memory)
    if value is None or stale or not valid(value) or key in st.query_params:
        return default
    if links.differs(value, default):
        st.session_state[key] = value
    return default


def remember(key: str) -> None:
    """Keep widget ``key``'s value for :func:`settle` (widgets are forgotten
    when another page runs)."""
    if key in st.session_state:
        st.session_state[f"_memory_{key}"] = st.session_state[key]


def metric_and_methods(table: pd.DataFrame, *, key: str) -> tuple[str, tuple[str, ...]]:
    """Metric selectbox and methods multiselect over what a results table holds.

    The metric opens on the last one chosen on any analysis page, else on
    :func:`default_metric`; both widgets are bound to the URL
    (``<key>_metric``, ``<key>_methods``).
    """
    metrics = [str(m) for m in pd.unique(table[METRIC])]
    # half and half: "hamming_loss (lower is better)" fits at 1024 px
    left, right = st.columns(2)
    name = f"{key}_metric"
    carried = st.session_state.get(METRIC_MEMORY)
    if carried in metrics and st.session_state.get(name) not in metrics:
        st.session_state[f"_memory_{name}"] = carried
    first = default_metric(metrics)  # the same in every session: see settle
    opening = settle(name, metrics, lambda m: m in metrics, first)
    metric = left.selectbox(
        "Metric",
        metrics,
        index=0 if opening is None else metrics.index(opening),
        format_func=views.metric_label,
        **links.bound(name),
    )
    remember(name)
    st.session_state[METRIC_MEMORY] = metric
    with right:
        chosen = methods_picker(table, key=key)
    return metric, chosen


def methods_picker(table: pd.DataFrame, *, key: str) -> tuple[str, ...]:
    """Methods multiselect over a results table's methods (all chosen at first).

    Bound to the URL as ``<key>_methods``; another results source opens on
    all its methods (:func:`settle`): the browser never keeps the previous
    source's chips, and no leftover subset hides methods. When fewer than
    all methods are chosen, a caption says which ones are hidden.
    """
    methods = [str(m) for m in pd.unique(table[METHOD])]
    name = f"{key}_methods"
    opening = settle(name, methods, lambda v: set(v) <= set(methods), list(methods))
    chosen = st.multiselect("Methods", methods, default=opening, **links.bound(name))
    remember(name)
    hidden = [m for m in methods if m not in chosen]
    if hidden:
        st.caption(
            f"Showing {len(chosen)} of {len(methods)} methods; hidden: "
            + ", ".join(hidden)
        )
    return tuple(chosen)


def options_key(base: str, options: list) -> str:
    """``base`` plus a short digest of ``options``: one widget per set of options."""
    digest = hashlib.sha1("\0".join(map(str, options)).encode()).hexdigest()[:8]
    return f"{base}_{digest}"


def budget_axis(table: pd.DataFrame) -> str:
    """The budget column a table carries: ``budget_pct`` if present, else ``budget``."""
    return BUDGET_PCT if BUDGET_PCT in table.columns else BUDGET


def budget_title(by: str) -> str:
    """Axis title of a budget column."""
    return "Selected features (% of M)" if by == BUDGET_PCT else "Selected features"


def budgets_of(table: pd.DataFrame, by: str) -> list[float]:
    """Sorted distinct budgets of a results table (the 100 % of the baselines that
    keep every feature left out)."""
    kept = ~table[METHOD].isin(views.keeps_all_features())
    values = pd.unique(table.loc[kept, by].dropna())
    return sorted(float(v) for v in values)


def budget_text(value: float, by: str) -> str:
    """A budget as people write it: "50 %" or "10 features" (never "10.0").

    Examples
    --------
    >>> budget_text(50.0, "budget_pct"), budget_text(1.0, "budget")
    ('50 %', '1 feature')
    >>> budget_text(12.5, "budget_pct")
    '12.5 %'
    """
    shown = f"{value:g}"
    if by == BUDGET_PCT:
        return f"{shown} %"
    return plural(int(value) if float(value).is_integer() else value, "feature")


def default_budget(budgets: list[float], by: str) -> float:
    """The budget an analysis page opens at: one where the methods differ.

    Percent budgets (protocol A): 50 %, or the nearest run. Feature counts
    (protocol B): k = 10 when that was run, else the middle of the range, so
    no page opens at one feature (where every subset is alike).

    Examples
    --------
    >>> default_budget([10.0, 30.0, 50.0, 90.0], "budget_pct")
    50.0
    >>> default_budget([1.0, 2.0, 3.0, 4.0, 5.0], "budget")
    3.0
    >>> default_budget([1.0, 5.0, 10.0, 20.0], "budget")
    10.0
    """
    if not budgets:
        raise ValueError("no budgets to choose from")
    if by == BUDGET_PCT:
        return min(budgets, key=lambda b: (abs(b - 50.0), b))
    if 10.0 in budgets:
        return 10.0
    return budgets[(len(budgets) - 1) // 2 + (len(budgets) - 1) % 2]


def budget_slider(label: str, budgets: list[float], by: str, *, key: str) -> float:
    """A select slider over ``budgets``, shown as integers or percent, opening at
    :func:`default_budget`, bound to the URL as ``key`` (a new source opens
    at its own default)."""
    opening = settle(key, budgets, lambda b: b in budgets, default_budget(budgets, by))
    value = st.select_slider(
        label,
        budgets,
        value=opening,
        format_func=lambda b: budget_text(b, by),
        **links.bound(key),
    )
    remember(key)
    return value


def plural(count: float, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, plural unless the count is 1: "1 feature", "3 features".

    Examples
    --------
    >>> plural(1, "feature"), plural(3, "feature"), plural(2, "is", "are")
    ('1 feature', '3 features', '2 are')
    """
    return f"{count} {word if count == 1 else (many or word + 's')}"


def ordinal(n: int) -> str:
    """English ordinal of ``n``: 1st, 2nd, 3rd, 4th, 11th, 21st ...

    Examples
    --------
    >>> [ordinal(i) for i in (1, 2, 3, 4, 11, 12, 13, 21, 102)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd']
    """
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


NO_HIGHLIGHT = "(none: every method in colour)"
MAX_COLOURED = 6
"""Most coloured lines a panel opens with: beyond this many methods a chart
opens on one method highlighted (the rest grey), not on a tangle of lines."""


def opening_highlight(methods: tuple[str, ...], per_panel: int) -> str:
    """The highlight a chart opens on: none up to :data:`MAX_COLOURED` lines a
    panel, else the first method in registry order that is not a baseline.

    Examples
    --------
    >>> opening_highlight(("Random", "MaxCS", "AF"), 3)
    '(none: every method in colour)'
    >>> opening_highlight(("Random", "PPT-MI", "IGMF", "PMU", "D2F", "MDMR", "AF"), 7)
    'PPT-MI'
    """
    if per_panel <= MAX_COLOURED or not methods:
        return NO_HIGHLIGHT
    baselines = set(reference_methods())
    registry = {m: i for i, m in enumerate(list_methods())}
    ordered = sorted(methods, key=lambda m: registry.get(m, len(registry)))
    return next((m for m in ordered if m not in baselines), ordered[0])


def chart_controls(
    methods: tuple[str, ...],
    panels: list[str],
    *,
    key: str,
    panel_word: str,
    first: int | None = None,
    per_panel: int | None = None,
    lead: str | None = None,
) -> tuple[str | None, list[str]]:
    """ "Highlight a method" and "show the panels" pickers of a many-method chart.

    Returns the highlighted method (None for none) and the panels to draw,
    in their order: those picked, by default all of them or, with ``first``,
    the first ``first`` (11 panels of 12 lines are too many to read, and
    every change makes the browser draw all of them again). A "Show all N"
    button picks every panel at once. The list is empty when the user
    removes every panel: the caller says so instead of drawing. A ``lead``
    panel (the sidebar's dataset) is always among those it opens on, with
    the first others up to ``first`` (:func:`opening_panels`).

    With more than :data:`MAX_COLOURED` lines in a panel (``per_panel``,
    default: every method) the chart opens on one method highlighted
    (:func:`opening_highlight`) and a caption says how to see all in colour.
    Both pickers are bound to the URL (``<key>_highlight``, ``<key>_panels``).
    """
    lines = len(methods) if per_panel is None else per_panel
    left, right = st.columns(2)
    picked = _highlight_picker(left, methods, lines, key)
    shown = list(panels)
    if len(panels) > 1:
        shown = _panels_picker(right, panels, key, panel_word, first, lead)
    return (None if picked == NO_HIGHLIGHT else picked), shown


def _highlight_picker(left, methods: tuple[str, ...], lines: int, key: str) -> str:
    """The "Highlight a method" box of :func:`chart_controls` (its caption too)."""
    name = f"{key}_highlight"
    options = [NO_HIGHLIGHT, *methods]
    # crossing MAX_COLOURED (a panel per measure turned off) opens again on
    # the default of the new count: the options' digest carries the side
    crowded = lines > MAX_COLOURED
    opening = opening_highlight(methods, lines)
    opening = settle(name, [*options, crowded], lambda v: v in options, opening)
    picked = left.selectbox(
        "Highlight a method (the others turn grey)",
        options,
        index=0 if opening is None else options.index(opening),
        **links.bound(name),
    )
    remember(name)
    if lines > MAX_COLOURED:
        shown_as = (
            f"{picked} is in colour, the other methods grey"
            if picked != NO_HIGHLIGHT
            else "every method is in colour"
        )
        left.caption(
            f"{lines} lines a panel: {shown_as}. Pick another method to highlight, "
            f'or "{NO_HIGHLIGHT}" to see all of them in colour.'
        )
    return picked


def _panels_picker(
    right, panels: list[str], key: str, panel_word: str, first, lead
) -> list[str]:
    """The "Show the panels" box of :func:`chart_controls` and its "Show all"."""
    state = f"{key}_panels"
    opening = opening_panels(panels, first, lead)
    opening = settle(state, panels, lambda v: set(v) <= set(panels), opening)
    if state not in st.session_state:  # set here, not by default=: the
        # button below sets it too, which default= would warn about
        st.session_state[state] = opening

    def show_all() -> None:
        st.session_state[state] = list(panels)

    chosen = set(
        right.multiselect(
            f"Show the {panel_word}",
            panels,
            help=f"Fewer {panel_word} are easier to read and quicker to redraw.",
            **links.bound(state),
        )
    )
    remember(state)
    shown = [p for p in panels if p in chosen]
    if len(shown) < len(panels):
        right.button(
            f"Show all {len(panels)} {panel_word}",
            key=f"{state}_all",
            on_click=show_all,
        )
    return shown


def opening_panels(
    panels: list[str], first: int | None, lead: str | None = None
) -> list[str]:
    """The panels a chart opens on, in their order: ``lead`` (if it is one of
    them) and the first others, ``first`` in all (every panel without it).

    Examples
    --------
    >>> opening_panels(["a", "b", "c", "d", "e"], 2, "d")
    ['a', 'd']
    >>> opening_panels(["a", "b", "c"], 2, "x"), opening_panels(["a", "b"], None)
    (['a', 'b'], ['a', 'b'])
    """
    if not first:
        return list(panels)
    leading = [p for p in panels if p == lead]
    chosen = set(leading + [p for p in panels if p != lead][: first - len(leading)])
    return [p for p in panels if p in chosen]


def datasets_in(table: pd.DataFrame) -> list[str]:
    """Distinct dataset names of a results table."""
    return [str(d) for d in pd.unique(table["dataset"])]


def chosen_results(*, protocol: str, shown_in=None) -> tuple[ResultsRef, pd.DataFrame]:
    """Results-source radio (opening on results of ``protocol``, see
    :func:`ui.results.choose_source`), then the chosen table; stops the page
    if there is none. ``shown_in`` (a slot under the page's title, from
    :func:`ui.presentation.headed`) gets a caption naming the results shown."""
    ref = choose_source(protocol=protocol)
    if ref is not None and shown_in is not None:
        shown_in.caption(f"Results shown: {source_name(ref)}")
    table = (
        None
        if ref is None
        else call_or_error("Could not read these results", cached.results, ref)
    )
    if ref is None or table is None:
        st.stop()
    return ref, table
