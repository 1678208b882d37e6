"""Mulan label files: ``<labels><label name="..."/>...</labels>``.

Labels may be nested (Mulan's hierarchical format); every ``label`` element at any
depth names one label attribute, in document order. The XML order is *not* the
label order of the dataset: the loader always uses the ARFF's attribute order.

The XML may come from an upload, so it is parsed with ``defusedxml``: a
document that declares entities (a "billion laughs" bomb, an external entity
reading a server file) is refused before anything is expanded.
"""

from __future__ import annotations

from collections import Counter

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ..errors import DatasetError
from ._text import Source, read_bytes, source_name


def read_label_names(source: Source) -> list[str]:
    """Return the label names listed in a Mulan XML file, in document order.

    Parameters
    ----------
    source : path, bytes or file object

    Returns
    -------
    list of str

    Raises
    ------
    DatasetError
        Malformed XML, no ``label`` element, a label without a name, or a name
        listed twice; more ``<label`` tags than the label budget
        (``_count_label_tags``, counted before the XML is parsed) or a name
        above the name budget (:mod:`mlfs_core.data.limits`).

    Examples
    --------
    >>> xml = b'<labels xmlns="http://mulan.sourceforge.net/labels">' \\
    ...       b'<label name="a"></label><label name="b"/></labels>'
    >>> read_label_names(xml)
    ['a', 'b']
    """
    where = source_name(source)
    data = read_bytes(source)
    from .limits import check_names, current_limits, too_many

    limits = current_limits()
    declared = _count_label_tags(data)
    if declared > limits.max_labels:  # before the tree (~500 bytes per element)
        raise DatasetError(too_many("labels", declared, limits.max_labels, where))
    try:
        root = SafeET.fromstring(data)
    except SafeET.ParseError as exc:
        raise DatasetError(f"{where}: malformed XML: {exc}") from None
    except DefusedXmlException:
        raise DatasetError(
            f"{where}: the XML declares entities or a DTD, which label files never "
            "need; refused for safety"
        ) from None
    names = []
    for element in root.iter():
        if element.tag.rsplit("}", 1)[-1] != "label":
            continue
        name = element.get("name")
        if not name:
            raise DatasetError(f"{where}: a <label> element has no name attribute")
        names.append(name)
    if not names:
        raise DatasetError(f"{where}: no <label> elements")
    if len(names) > limits.max_labels:
        raise DatasetError(too_many("labels", len(names), limits.max_labels, where))
    check_names(names, "label", where, limits)
    repeated = sorted(n for n, count in Counter(names).items() if count > 1)
    if repeated:
        raise DatasetError(f"{where}: label {repeated[0]!r} is listed twice")
    return names


def _count_label_tags(data: bytes) -> int:
    """How many ``<label`` start tags (with or without a namespace prefix) ``data``
    holds: a byte count, before any parsing.

    Examples
    --------
    >>> _count_label_tags(b'<labels><label name="a"/><m:label name="b"/></labels>')
    2
    """
    plain = data.count(b"<label ") + data.count(b"<label>") + data.count(b"<label/")
    plain += data.count(b"<label\t") + data.count(b"<label\n")
    prefixed = data.count(b":label ") + data.count(b":label/") + data.count(b":label>")
    return plain + prefixed
