"""Panels of methods grouped by their measure (as in Spolaôr and Tsoumakas (2013),
Figure 1).

Apart from :mod:`.naming` because the default baselines come from the
registry, which itself builds the built-in names with :mod:`.naming`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ._registry import reference_methods
from .naming import OTHER_PANEL, is_filter_name, split_name


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
