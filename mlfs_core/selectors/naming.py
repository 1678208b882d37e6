"""Names of the measure + aggregation methods: ``MaxCS`` <-> ``("max", "chi2")``.

A measure + aggregation method name is an aggregation label of
:data:`mlfs_core.aggregation.AGGREGATION_LABELS` followed by a measure label
of :data:`mlfs_core.measures.MEASURE_LABELS`. This module is the one place
such names are built and parsed (the registry, the app's pickers and its
per-measure panels all use it).
"""

from __future__ import annotations

from ..aggregation import AGGREGATION_LABELS
from ..errors import ConfigError
from ..measures import MEASURE_LABELS

OTHER_PANEL = "other"
"""Panel of :func:`measure_panels` for methods without a measure in their name."""


def method_name(aggregation: str, measure: str) -> str:
    """The method name of an aggregation and a measure (registry keys).

    Examples
    --------
    >>> method_name("rar", "bns")
    'RaRBNS'
    """
    try:
        return AGGREGATION_LABELS[aggregation] + MEASURE_LABELS[measure]
    except KeyError as exc:
        raise ConfigError(f"unknown aggregation or measure {exc.args[0]!r}") from None


def parse_method_name(name: str) -> tuple[str, str]:
    """Split a measure + aggregation method name into its registry keys.

    Parameters
    ----------
    name : str
        A method name such as ``"MaxCS"`` or ``"RaRBNS"``.

    Returns
    -------
    aggregation : str
        Key of :data:`mlfs_core.aggregation.AGGREGATION_LABELS`, e.g. ``"max"``.
    measure : str
        Key of :data:`mlfs_core.measures.MEASURE_LABELS`, e.g. ``"chi2"``.

    Raises
    ------
    ConfigError
        If ``name`` is not an aggregation label followed by a measure label.

    See Also
    --------
    split_name : The same split as display labels (``("Max", "CS")``).

    Examples
    --------
    >>> parse_method_name("MaxCS")
    ('max', 'chi2')
    >>> parse_method_name("RoROR")
    ('ror', 'odds_ratio')
    """
    for aggregation, prefix in AGGREGATION_LABELS.items():
        if not name.startswith(prefix):
            continue
        for measure, suffix in MEASURE_LABELS.items():
            if name == prefix + suffix:
                return aggregation, measure
    raise ConfigError(
        f"{name!r} is not a measure+aggregation method (e.g. MaxCS, RaRBNS)"
    )


def is_filter_name(name: str) -> bool:
    """Whether ``name`` is a measure + aggregation method name.

    Examples
    --------
    >>> is_filter_name("MeanBNS"), is_filter_name("PPT-MI"), is_filter_name("Max")
    (True, False, False)
    """
    try:
        parse_method_name(name)
    except ConfigError:
        return False
    return True


def split_name(name: str) -> tuple[str, str]:
    """Split a measure + aggregation method name into its display labels.

    Parameters
    ----------
    name : str
        A method name such as ``"RaRBNS"``.

    Returns
    -------
    tuple of (str, str)
        The aggregation label and the measure label, e.g. ``("RaR", "BNS")``.

    Raises
    ------
    ConfigError
        If ``name`` is not a measure + aggregation name (see
        :func:`is_filter_name`).

    Examples
    --------
    >>> split_name("RaRBNS")
    ('RaR', 'BNS')
    """
    aggregation, measure = parse_method_name(name)
    return AGGREGATION_LABELS[aggregation], MEASURE_LABELS[measure]
