"""Panels of methods grouped by their measure (as in Spolaôr and Tsoumakas (2013),
Figure 1), their titles, and the average ranks within each panel.

The Average ranks page draws one panel per measure (:func:`panel_ranks`);
the default baselines come from the registry
(:func:`~mlfs_core.selectors.reference_methods`), so a plug-in's baseline
joins every panel too.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..analysis import budget_column, rank_table, select
from ..columns import METHOD, METRIC
from ..selectors import reference_methods
from ..selectors.naming import OTHER_PANEL, is_filter_name, split_name
from .results import keeps_all_features, metric_direction


def measure_panels(
    methods: Iterable[str], baselines: Iterable[str] | None = None
) -> dict[str, list[str]]:
    """Group method names by the measure in their name, one panel per measure.

    Parameters
    ----------
    methods : iterable of str
        Method names, in display order.
    baselines : iterable of str, optional
        The reference methods that join every measure panel. Default: the
        registry's baselines, :func:`~mlfs_core.selectors.reference_methods`
        (every kind).

    Returns
    -------
    dict of str to list of str
        Measure label (``"CS"``, ``"BNS"`` ...) -> the methods using it, in
        the order given; panels in order of first appearance. The
        ``baselines`` join every measure panel as references.
        Other methods without a measure in their name (the
        information-theoretic filters) go to the panel ``"other"``, and so
        does the method of a measure panel that would hold only one; without
        any measure panel the baselines go there too. So no panel ranks the
        baselines against each other alone.

    Examples
    --------
    >>> measure_panels(["MaxCS", "Random", "RaRCS", "MaxBNS"])
    {'CS': ['MaxCS', 'RaRCS', 'Random'], 'other': ['MaxBNS']}
    >>> measure_panels(["Random", "AF"])
    {'other': ['Random', 'AF']}
    >>> measure_panels([])
    {}
    """
    methods = list(methods)
    references = set(reference_methods() if baselines is None else baselines)
    baselines = [m for m in methods if m in references]
    panels: dict[str, list[str]] = {}
    for method in methods:
        if method in references:
            continue
        panel = split_name(method)[1] if is_filter_name(method) else OTHER_PANEL
        panels.setdefault(panel, []).append(method)
    singles = [p for p, members in panels.items() if len(members) < 2]
    for label in singles:
        if label != OTHER_PANEL:
            panels.setdefault(OTHER_PANEL, []).extend(panels.pop(label))
    measured = [p for p in panels if p != OTHER_PANEL]
    for label in measured or [OTHER_PANEL]:
        if baselines:
            panels.setdefault(label, []).extend(baselines)
    return panels


def panel_title(
    panel: str, members: list[str], baselines: list[str] | None = None
) -> str:
    """The title a reader understands for a :func:`measure_panels` panel.

    Parameters
    ----------
    panel : str
        The panel's key in :func:`measure_panels` (a measure label or
        ``"other"``).
    members : list of str
        The methods of the panel.
    baselines : list of str, optional
        Methods that do not count (default: the registry's,
        :func:`~mlfs_core.selectors.reference_methods`).

    Returns
    -------
    str
        A measure panel keeps its label. The catch-all panel (``"other"``)
        holds the information-theoretic filters (ATR, PPT-MI ...), and
        perhaps a lone filter of some measure; it is titled
        ``"Information-theoretic methods"`` when none of its own methods is
        a score + aggregation filter, else ``"Other methods"``.

    Examples
    --------
    >>> panel_title("CS", ["MaxCS", "MeanCS"])
    'CS'
    >>> panel_title("other", ["PMU", "Random"], baselines=["Random"])
    'Information-theoretic methods'
    >>> panel_title("other", ["PMU", "MaxBNS"], baselines=[])
    'Other methods'
    """
    if panel != OTHER_PANEL:
        return panel
    if baselines is None:
        baselines = reference_methods()
    own = [m for m in members if m not in baselines]
    if own and not any(is_filter_name(m) for m in own):
        return "Information-theoretic methods"
    return "Other methods"


def panel_ranks(
    table: pd.DataFrame, metric: str, methods: Iterable[str], *, by_measure: bool
) -> pd.DataFrame:
    """Average rank per (panel, budget, method), methods ranked within their panel.

    Parameters
    ----------
    table : DataFrame
        A tidy results table (:func:`~mlfs_core.evaluation.read_results`).
    metric : str
        The metric ranked; its direction by :func:`~.results.metric_direction`
        (an unknown metric counts as higher-is-better).
    methods : iterable of str
        The methods shown, in display order.
    by_measure : bool
        One panel per measure (:func:`measure_panels`, the registry's
        baselines in every panel); False: all methods in one panel ``""``.

    Returns
    -------
    DataFrame
        :func:`~mlfs_core.analysis.rank_table` of each panel's methods by
        budget, with a ``panel`` column (:func:`panel_title`); empty without
        methods. The all-features baselines
        (:func:`~.results.keeps_all_features`) stand beside every budget.
    """
    methods = list(methods)
    rows = table[(table[METRIC] == metric) & table[METHOD].isin(methods)]
    hib = metric_direction(metric)
    baselines = reference_methods()
    groups = measure_panels(methods, baselines) if by_measure else {"": methods}
    frames = [
        rank_table(
            select(
                part,
                metric=metric,
                higher_is_better=hib,
                by=[budget_column(part)],
                reference_methods=keeps_all_features(),
            )
        ).assign(panel=panel_title(panel, members, baselines))
        for panel, members in groups.items()
        for part in [rows[rows[METHOD].isin(members)]]
    ]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
