"""Mulan label files: ``<labels><label name="..."/>...</labels>``.

Labels may be nested (Mulan's hierarchical format); every ``label`` element at any
depth names one label attribute, in document order. The XML order is *not* the
label order of the dataset: the loader always uses the ARFF's attribute order.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

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
        root = ET.fromstring(read_bytes(source))
    except ET.ParseError as exc:
        raise DatasetError(f"{where}: malformed XML: {exc}") from None
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
    repeated = sorted(n for n, count in Counter(names).items() if count > 1)
    if repeated:
        raise DatasetError(f"{where}: label {repeated[0]!r} is listed twice")
    return names
