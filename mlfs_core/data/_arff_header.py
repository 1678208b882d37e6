"""ARFF header parsing (``@relation``, ``@attribute``, ``@data``), as Weka reads it.

Accepted attribute types: ``numeric``, ``real``, ``integer`` (all read as floats),
nominal ``{v1, v2, ...}`` (values may be quoted), and ``string`` / ``date``
(kept as kind ``"string"``; the loader drops them with a warning). ``relational``
attributes are rejected. Names and values may be quoted with ``'`` or ``"``; a
backslash inside quotes escapes the next character. A ``%`` outside quotes starts
a comment to the end of the line (SLASHDOT-F's relation line ends with ``%50``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import DatasetError
from ._text import read_token, split_quoted, strip_comment

NUMERIC, NOMINAL, STRING = "numeric", "nominal", "string"
_NUMERIC_TYPES = {"numeric", "real", "integer"}


@dataclass(frozen=True)
class Attribute:
    """One ARFF attribute: ``name``, ``kind`` and, for nominals, declared ``values``."""

    name: str
    kind: str
    values: tuple[str, ...] = ()


@dataclass
class _ArffHeader:
    """The parsed header: relation name, attributes, and the ``@data`` line number."""

    relation: str
    attributes: list[Attribute]
    data_line: int


def parse_header(
    lines: Iterator[str], where: str, *, max_attributes: int | None = None
) -> _ArffHeader:
    """Consume ``lines`` up to and including ``@data`` and return the header.

    Parameters
    ----------
    lines : iterator of str
        Lines of the file, newline stripped; left positioned after ``@data``.
    where : str
        File name used in error messages.
    max_attributes : int, optional
        Refuse a header that declares more attributes (a stream the byte
        scan of :mod:`mlfs_core.data.limits` did not see).

    Returns
    -------
    _ArffHeader

    Examples
    --------
    >>> text = ["@relation 'r: -C 2' %c", "@attribute a {0,1}", "@attribute 'b c' real",
    ...         "@data"]
    >>> h = parse_header(iter(text), "x.arff")
    >>> h.relation, [a.name for a in h.attributes], h.data_line
    ('r: -C 2', ['a', 'b c'], 4)
    """
    relation, attributes, names = "", [], set()
    number = 0
    for number, raw in enumerate(lines, start=1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        keyword = line.split(None, 1)[0].lower()
        if keyword == "@relation":
            relation = _parse_relation(line, where, number)
        elif keyword == "@attribute":
            attribute = _parse_attribute(line, where, number)
            if attribute.name in names:
                raise DatasetError(
                    f"{where}, line {number}: attribute {attribute.name!r} "
                    "is declared twice"
                )
            names.add(attribute.name)
            attributes.append(attribute)
            if max_attributes is not None and len(attributes) > max_attributes:
                raise DatasetError(
                    f"{where}, line {number}: the header declares more than "
                    f"{max_attributes:,} attributes, the budget (set "
                    "MLFS_MAX_ATTRIBUTES to raise it)"
                )
        elif keyword == "@data":
            if not attributes:
                raise DatasetError(
                    f"{where}, line {number}: @data before any @attribute"
                )
            return _ArffHeader(relation, attributes, number)
        else:
            raise DatasetError(
                f"{where}, line {number}: expected @relation, @attribute or @data, "
                f"got {line[:40]!r}"
            )
    if number == 0:
        raise DatasetError(f"{where}: the file is empty")
    raise DatasetError(f"{where}: no @data section (read {number} lines)")


def _parse_relation(line: str, where: str, number: int) -> str:
    try:
        name, _ = read_token(line, len("@relation"))
    except ValueError as exc:
        raise DatasetError(f"{where}, line {number}: bad @relation: {exc}") from None
    return name


def _parse_attribute(line: str, where: str, number: int) -> Attribute:
    try:
        name, end = read_token(line, len("@attribute"))
    except ValueError as exc:
        raise DatasetError(
            f"{where}, line {number}: bad attribute name: {exc}"
        ) from None
    spec = line[end:].strip()
    if not name or not spec:
        raise DatasetError(
            f"{where}, line {number}: @attribute needs a name and a type"
        )
    if spec.startswith("{"):
        return Attribute(name, NOMINAL, _parse_nominal(spec, where, number, name))
    kind = spec.split(None, 1)[0].lower()
    if kind in _NUMERIC_TYPES:
        return Attribute(name, NUMERIC)
    if kind in ("string", "date"):
        return Attribute(name, STRING)
    raise DatasetError(
        f"{where}, line {number}: attribute {name!r} has unsupported type {spec[:30]!r}"
    )


def _parse_nominal(spec: str, where: str, number: int, name: str) -> tuple[str, ...]:
    if not spec.endswith("}"):
        raise DatasetError(
            f"{where}, line {number}: nominal attribute {name!r} lacks a closing '}}'"
        )
    try:
        values = split_quoted(spec[1:-1])
    except ValueError as exc:
        raise DatasetError(
            f"{where}, line {number}: attribute {name!r}: {exc}"
        ) from None
    if values == [""]:
        values = []
    if not values or "" in values or len(set(values)) != len(values):
        raise DatasetError(
            f"{where}, line {number}: nominal attribute {name!r} needs distinct, "
            "non-empty values"
        )
    return tuple(values)


_MEKA_C = re.compile(r"(?:^|\s)-C\s+(-?\d+)")


def meka_label_count(relation: str) -> int | None:
    """Return ``n`` of a MEKA ``-C n`` option in the relation name, else ``None``.

    Examples
    --------
    >>> meka_label_count("'Slashdot: -C 22 -split-number 1891'")
    22
    >>> meka_label_count("scene") is None
    True
    """
    match = _MEKA_C.search(relation)
    return int(match.group(1)) if match else None
