"""Axis labels for charts with one row or column per feature (or label).

Plotly draws one category per distinct tick text: two features whose cut
names are equal ("Mean_Acc1298_Mean_Mem40_..." on emotions) share one row,
and their bars stack. :func:`feature_labels` makes every feature's text
unique (its column index first) and short; :func:`distinct_labels` does the
same for texts without an index (label names, or a caller's own texts).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

ELLIPSIS = "…"
_FEATURE_CHARS = 32
"""Default length of a feature's name in a tick label (after its ``#index``):
emotions' longest names (32 characters) fit whole."""


def shorten(text: str, limit: int) -> str:
    """``text`` cut in the middle to at most ``limit`` characters.

    The start and the end are kept (feature names often differ only at the
    end: ``Mean_Acc1298_Mean_Mem40_Centroid`` and ``..._Rolloff``).

    Parameters
    ----------
    text : str
        Any text.
    limit : int
        Largest length of the result (at least 2).

    Returns
    -------
    str
        ``text`` unchanged when it fits, else its head, "…" and its tail.

    Examples
    --------
    >>> shorten("Mean_Acc1298_Mean_Mem40_Centroid", 16)
    'Mean_Acc…entroid'
    >>> shorten("word", 10)
    'word'
    """
    if limit < 2:
        raise ValueError(f"limit must be at least 2, got {limit}")
    if len(text) <= limit:
        return text
    tail = (limit - 1) // 2
    head = limit - 1 - tail
    return text[:head] + ELLIPSIS + (text[-tail:] if tail else "")


def feature_labels(
    names: Sequence[object] | Mapping[int, object],
    indices: Iterable[int],
    *,
    limit: int = _FEATURE_CHARS,
) -> list[str]:
    """Unique, short tick labels of features: ``"#12 Mean_Acc1…Std"``.

    The rule: the feature's column index (``#`` and the 0-based index), a
    space, then its name cut in the middle to ``limit`` characters
    (:func:`shorten`). The index makes the labels of different features
    different whatever their names (shared long prefixes, identical names);
    a feature listed twice gets its repeat numbered (``"#3 w (2)"``), so a
    chart never merges two rows.

    Parameters
    ----------
    names : sequence or mapping
        Every feature's name, indexed by column (``feature_names``), or a
        mapping from the column index to the name.
    indices : iterable of int
        The features to label, in drawing order.
    limit : int, default=32
        Largest length of the name part.

    Returns
    -------
    list of str
        One distinct label per entry of ``indices``.

    Examples
    --------
    >>> feature_labels(["Mean_Acc1298_Mean_Mem40_Std", "Mean_Acc1298_Std_Mem40_Std"],
    ...                [1, 0], limit=12)
    ['#1 Mean_A…0_Std', '#0 Mean_A…0_Std']
    """
    texts = [f"#{int(j)} {shorten(str(names[int(j)]), limit)}" for j in indices]
    return _numbered_repeats(texts)


def distinct_labels(
    texts: Iterable[object], *, limit: int = _FEATURE_CHARS
) -> list[str]:
    """``texts`` cut in the middle to ``limit`` characters, every one distinct.

    Texts that are equal after cutting (or before) get their position
    appended (``"TAG_…_2005 (#3)"``), so none share a row or column of a chart.

    Examples
    --------
    >>> distinct_labels(["abc", "abc", "x"])
    ['abc (#0)', 'abc (#1)', 'x']
    """
    cut = [shorten(str(t), limit) for t in texts]
    counts: dict[str, int] = {}
    for text in cut:
        counts[text] = counts.get(text, 0) + 1
    out = [f"{t} (#{i})" if counts[t] > 1 else t for i, t in enumerate(cut)]
    return _numbered_repeats(out)


def _numbered_repeats(texts: list[str]) -> list[str]:
    """The second, third ... copy of a text numbered ``" (2)"``, ``" (3)"``."""
    seen: dict[str, int] = {}
    taken = set(texts)
    out = []
    for text in texts:
        n = seen.get(text, 0) + 1
        seen[text] = n
        label = text
        while n > 1 and label in taken:
            label = f"{text} ({n})"
            n += 1
        if label != text:
            taken.add(label)
        out.append(label)
    return out
