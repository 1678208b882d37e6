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
        listed twice.

    Examples
    --------
    >>> xml = b'<labels xmlns="http://mulan.sourceforge.net/labels">' \\
    ...       b'<label name="a"></label><label name="b"/></labels>'
    >>> read_label_names(xml)
    ['a', 'b']
    """
    where = source_name(source)
    try:
        root = SafeET.fromstring(read_bytes(source))
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
    from .limits import current_limits, too_many

    budget = current_limits().max_labels
    if len(names) > budget:
        raise DatasetError(too_many("labels", len(names), budget, where))
    repeated = sorted(n for n, count in Counter(names).items() if count > 1)
    if repeated:
        raise DatasetError(f"{where}: label {repeated[0]!r} is listed twice")
    return names
