"""One look per method: its colour, line style and marker, keyed by its name.

Every figure that draws a method (the Experiment page's run figure, Average
ranks, Metric vs budget, the precision curves, the CD diagram) takes its look
from :func:`method_look`, so a method keeps its colour on every page, in
every PNG download and in the docs' figures, whatever other methods share the
figure and in whatever order.

The built-in methods get their look from their place in the registry:

- score + aggregation methods (families ``"score-aggregation"`` and
  ``"extra"``): the colour says the aggregation (Max blue, Mean orange, RoR
  green, RaR vermillion), the line style and marker say the measure (CS
  solid circles, BNS dashed squares, IG dotted diamonds, OR dash-dot
  triangles, DF long-dash-dot crosses), so the four lines of a per-measure
  panel have four colours;
- the information-theoretic greedy filters, in registry order: the six
  colours of Okabe-Ito's palette without black, solid, then the same colours
  dashed, each with a marker of its own (none a score + aggregation
  method's);
- the baselines: Random reddish purple, dotted; AF black, long-dashed;
- the field's baselines (:data:`FIELD_LOOKS`), each a look of its own,
  dash-dot, long-dash-dot or long-dashed, with a marker no other method has
  with that colour and dash (the sparse-regression methods in colours no
  aggregation takes) (the spectral methods long-dashed, in colours GRRO and
  FIMF do not take);
- an aggregation's name alone ("Max", "RaR": a figure with one line per
  aggregation in each measure's panel) its aggregation's colour.

No two built-in methods share colour, dash *and* marker. Any other name (a
plug-in, a method of an uploaded results file) gets a look from a digest of
its name (SHA-1, not Python's salted ``hash``), the same in every process;
:func:`method_looks` moves it to a colour no other method of the same figure
has (while colours last), so the methods of one figure stay apart.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache

_BLUE, _ORANGE, _GREEN, _VERMILLION, _PURPLE, _SKY, _BLACK = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#000000",
)
COLOURS = (_BLUE, _ORANGE, _GREEN, _VERMILLION, _PURPLE, _SKY, _BLACK)
"""Okabe & Ito's colour-blind safe palette without its yellow (too faint on white)."""
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
_SYMBOLS = (
    "circle",
    "square",
    "diamond",
    "triangle-up",
    "x",
    "star",
    "cross",
    "triangle-down",
    "pentagon",
    "hexagon",
)
_AGGREGATION_COLOURS = {
    "Max": _BLUE,
    "Mean": _ORANGE,
    "RoR": _GREEN,
    "RaR": _VERMILLION,
}
"""Colour of a score + aggregation method: its aggregation."""
_MEASURE_LINES = {
    "CS": ("solid", "circle"),
    "BNS": ("dash", "square"),
    "IG": ("dot", "diamond"),
    "OR": ("dashdot", "triangle-up"),
    "DF": ("longdashdot", "x"),
}
"""Line style and marker of a score + aggregation method: its measure."""
BASELINES = {
    "Random": {"color": _PURPLE, "dash": "dot", "symbol": "cross"},
    "AF": {"color": _BLACK, "dash": "longdash", "symbol": "star"},
}
FIELD_LOOKS = {
    "RFS": {"color": _PURPLE, "dash": "dashdot", "symbol": "star"},
    "LLSF": {"color": _SKY, "dash": "longdashdot", "symbol": "diamond"},
    "MIFS": {"color": _BLACK, "dash": "dashdot", "symbol": "triangle-up"},
    "MDDM-proj": {"color": _BLUE, "dash": "longdash", "symbol": "hexagon"},
    "MDDM-spc": {"color": _ORANGE, "dash": "longdash", "symbol": "pentagon"},
    "MCLS": {"color": _PURPLE, "dash": "longdash", "symbol": "triangle-down"},
    "RF-ML": {"color": _SKY, "dash": "dashdot", "symbol": "hexagon"},
    "GRRO": {"color": _GREEN, "dash": "longdash", "symbol": "pentagon"},
    "FIMF": {"color": _VERMILLION, "dash": "longdash", "symbol": "triangle-down"},
}
"""The field's sparse-regression, spectral, instance-based and global
information-theoretic baselines."""
_INFORMATION_COLOURS = (_BLUE, _ORANGE, _GREEN, _VERMILLION, _PURPLE, _SKY)
"""Colours of the information-theoretic methods, in registry order (then dashed)."""
_INFORMATION_SYMBOLS = (
    "pentagon",
    "hexagon",
    "star",
    "triangle-down",
    "diamond",
    "triangle-up",
    "x",
    "cross",
    "star",
    "circle",
)
"""Their markers, in the same order: none repeats a score + aggregation
method's (colour, dash, marker)."""
_FREE_PAIRS = [(c, d) for d in _DASHES[:4] for c in COLOURS]
"""(colour, dash) pairs a name outside the registry can take, colour first."""


def _digest(name: str) -> int:
    return int.from_bytes(hashlib.sha1(name.encode("utf-8")).digest()[:8], "big")


def _hashed(name: str, slot: int | None = None) -> dict[str, str]:
    """The look of a name outside the registry (its pair ``slot`` if given)."""
    digest = _digest(name)
    colour, dash = _FREE_PAIRS[digest % len(_FREE_PAIRS) if slot is None else slot]
    return {
        "color": colour,
        "dash": dash,
        "symbol": _SYMBOLS[(digest // len(_FREE_PAIRS)) % len(_SYMBOLS)],
    }


@lru_cache(maxsize=1)
def built_in_looks() -> dict[str, dict[str, str]]:
    """The look of every built-in method, in registry order.

    Returns
    -------
    dict
        ``{method: {"color": ..., "dash": ..., "symbol": ...}}``.

    Examples
    --------
    >>> looks = built_in_looks()
    >>> looks["MaxCS"]["color"] == looks["MaxBNS"]["color"], looks["MaxBNS"]["dash"]
    (True, 'dash')
    """
    from ..selectors._registry import METHODS, is_built_in
    from ..selectors.naming import split_name

    looks: dict[str, dict[str, str]] = {}
    information = 0
    for name, spec in METHODS.items():
        if not is_built_in(name):
            continue
        if name in BASELINES:
            looks[name] = dict(BASELINES[name])
        elif name in FIELD_LOOKS:
            looks[name] = dict(FIELD_LOOKS[name])
        elif spec.family in ("score-aggregation", "extra"):
            aggregation, measure = split_name(name)
            dash, symbol = _MEASURE_LINES[measure]
            looks[name] = {
                "color": _AGGREGATION_COLOURS[aggregation],
                "dash": dash,
                "symbol": symbol,
            }
        else:  # information-theoretic (or a family added later): registry order
            n = len(_INFORMATION_COLOURS)
            looks[name] = {
                "color": _INFORMATION_COLOURS[information % n],
                "dash": _DASHES[(information // n) % len(_DASHES)],
                "symbol": _INFORMATION_SYMBOLS[information % len(_INFORMATION_SYMBOLS)],
            }
            information += 1
    return looks


def _family_look(name: str) -> dict[str, str] | None:
    """The look of a name that stands for a group of built-in methods: an
    aggregation alone ("Max": one line per aggregation in each measure's
    panel) takes its aggregation's colour."""
    colour = _AGGREGATION_COLOURS.get(name)
    if colour is None:
        return None
    return {"color": colour, "dash": "solid", "symbol": "circle"}


def method_look(name: str) -> dict[str, str]:
    """The colour, dash and marker of one method, the same in every figure.

    Parameters
    ----------
    name : str
        A method name: built-in (its registry look) or any other (a look
        from a digest of the name, stable across processes).

    Returns
    -------
    dict
        ``{"color": ..., "dash": ..., "symbol": ...}`` (a new dict).

    Examples
    --------
    >>> method_look("MeanCS")
    {'color': '#E69F00', 'dash': 'solid', 'symbol': 'circle'}
    >>> method_look("my_plugin") == method_look("my_plugin")
    True
    """
    look = built_in_looks().get(str(name)) or _family_look(str(name))
    return dict(look) if look is not None else _hashed(str(name))


def method_looks(methods: Sequence[str]) -> dict[str, dict[str, str]]:
    """The look of each method of one figure, in the given order (repeats dropped).

    Built-in methods keep their registry look. A name outside the registry
    starts from its digest's (colour, dash) pair and takes the first pair
    from there whose colour no method before it (the built-in ones, then
    the others in sorted order) has, else the first pair nobody has: the
    methods of one figure stay apart, by colour while colours last. The
    look depends only on the set of names in the figure, not on their order.

    Examples
    --------
    >>> looks = method_looks(["A", "B", "C", "MaxCS"])
    >>> len({(s["color"], s["dash"]) for s in looks.values()})
    4
    """
    names = [str(m) for m in dict.fromkeys(str(m) for m in methods)]
    fixed = dict(built_in_looks())
    fixed.update({n: _family_look(n) for n in names if _family_look(n)})
    looks = {n: dict(fixed[n]) for n in names if n in fixed}
    taken = {(s["color"], s["dash"]) for s in looks.values()}
    for name in sorted(n for n in names if n not in fixed):
        start = _digest(name) % len(_FREE_PAIRS)
        probe = [(start + step) % len(_FREE_PAIRS) for step in range(len(_FREE_PAIRS))]
        colours = {c for c, _ in taken}
        slot = next(
            (i for i in probe if _FREE_PAIRS[i][0] not in colours),  # a free colour
            next((i for i in probe if _FREE_PAIRS[i] not in taken), start),
        )
        looks[name] = _hashed(name, slot)
        taken.add(_FREE_PAIRS[slot])
    return {n: looks[n] for n in names}
