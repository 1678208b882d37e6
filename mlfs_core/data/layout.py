"""Where an upload's labels are, as its files declare them, read from headers only.

An app's upload form asks where the labels are only when the files do not
say. :func:`upload_label_layout` answers from what the loader would use
(:func:`~mlfs_core.data.load_uploaded` with no label argument): the
:data:`~mlfs_core.data.KNOWN_LABEL_HINTS` of the dataset's name, else the
Mulan XML (labels by name), else MEKA's ``-C n`` in the ARFF's relation name,
with the precedence of :mod:`mlfs_core.data._encode`. It picks the files as
the loader does (:func:`~mlfs_core.data.loader.dataset_files`,
:func:`~mlfs_core.data.loader.matching_xml`).

Bounded cost: the ARFF is read up to its ``@data`` line (the header, within
the attribute budget of :mod:`mlfs_core.data.limits`), the XML through
:func:`~mlfs_core.data.mulan_xml.read_label_names` (its label budget is
checked before it is parsed); no data row is read.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import DatasetError
from ._arff_header import NOMINAL, Attribute, meka_label_count, parse_header
from ._encode import choose_labels
from ._text import open_lines
from .loader import KNOWN_LABEL_HINTS, dataset_files, matching_xml
from .mulan_xml import read_label_names

XML, MEKA, _HINT = "xml", "meka", "hint"
"""What declared the labels (:attr:`LabelLayout.declared_by`)."""


@dataclass(frozen=True)
class LabelLayout:
    """The label attributes an upload's files declare.

    Attributes
    ----------
    arff : str
        The ARFF whose attributes were read (the train file of a pair).
    declared_by : {"xml", "meka", "hint"}
        The Mulan XML, the relation name's ``-C n``, or the known-dataset hints.
    source : str
        What declared them, for messages: the XML's file name, the ARFF's
        (its relation name), or the dataset name of the hint.
    names : tuple of str
        The label names, in the ARFF's attribute order.
    n_attributes : int
        How many attributes the ARFF declares (labels and features).
    label_count : int or None
        The labels as a count in the loader's convention: ``q`` when they are
        the first ``q`` attributes, ``-q`` the last ``q``; ``None`` when they
        are not one block at either end.
    other_end_binary : bool
        For a count from ``-C n`` only: the same number of attributes at the
        other end are declared two-valued nominals as well, so the count may
        name the wrong end (a Mulan ARFF read without its XML).
    """

    arff: str
    declared_by: str
    source: str
    names: tuple[str, ...]
    n_attributes: int
    label_count: int | None
    other_end_binary: bool = False

    @property
    def end(self) -> str | None:
        """``"first"`` or ``"last"`` for a block of labels at one end, else None."""
        if self.label_count is None:
            return None
        return "first" if self.label_count > 0 else "last"

    def describe(self) -> str:
        """One sentence: what declared the labels, how many, and where they are.

        Examples
        --------
        >>> LabelLayout("e.arff", "xml", "e.xml", ("a", "b"), 9, -2).describe()
        'Labels from e.xml: 2 labels, the last 2 attributes of e.arff.'
        """
        q = len(self.names)
        what = {
            XML: self.source,
            MEKA: f"the relation name of {self.arff} (-C {self.label_count})",
            _HINT: f"the known layout of {self.source}",
        }[self.declared_by]
        labels = "1 label" if q == 1 else f"{q} labels"
        if self.end is None:
            where = f"{q} of the {self.n_attributes} attributes of {self.arff}, by name"
        else:
            attrs = "attribute" if q == 1 else f"{q} attributes"
            where = f"the {self.end} {attrs} of {self.arff}"
        text = f"Labels from {what}: {labels}, {where}."
        if self.other_end_binary:
            other = "last" if self.end == "first" else "first"
            text += (
                f" Check them: the {other} {q} attributes are two-valued as well "
                "(a Mulan ARFF has its labels last and names them in its XML)."
            )
        return text


def upload_label_layout(files: Sequence[tuple[str, bytes]]) -> LabelLayout | None:
    """Return the label layout an upload's files declare, or None when they do not.

    Parameters
    ----------
    files : sequence of (file name, content)
        The uploaded files, as for :func:`~mlfs_core.data.load_uploaded`
        (only base names are used).

    Returns
    -------
    LabelLayout or None
        None when the upload holds no single ARFF dataset (a CSV, svmlight or
        .mat file, several datasets, an XML alone) or when its files declare no
        labels (no XML, no ``-C n``, no hint): the loader then needs a label
        argument.

    Raises
    ------
    DatasetError
        A malformed ARFF header or XML (as the readers raise them, naming the
        file), an XML label that is not an attribute of the ARFF (naming the
        XML, the label and the ARFF), or labels that leave no feature.

    Examples
    --------
    >>> arff = b"@relation r\\n@attribute w real\\n@attribute y {0,1}\\n@data\\n"
    >>> xml = b'<labels><label name="y"/></labels>'
    >>> upload_label_layout([("r.arff", arff), ("r.xml", xml)]).describe()
    'Labels from r.xml: 1 label, the last attribute of r.arff.'
    """
    contents = {Path(str(n).replace("\\", "/")).name: data for n, data in files}
    visible = sorted(n for n in contents if n and not n.startswith("."))
    try:
        chosen = dataset_files(visible, "the upload")[0]
    except DatasetError:
        return None  # the loader says what is wrong when the files are loaded
    if Path(chosen).suffix.lower() != ".arff":
        return None
    attributes, relation = _read_header(chosen, contents[chosen])
    names = [a.name for a in attributes]
    stem = _dataset_name(chosen)
    xml = matching_xml(chosen, visible, only_xml=True)
    hint = KNOWN_LABEL_HINTS.get(stem, {})
    if hint:
        declared_by, source, xml_labels = _HINT, stem, None
    elif xml is not None:
        xml_labels = _read_xml(xml, contents[xml])
        _check_xml_labels(xml_labels, names, xml, chosen)
        declared_by, source = XML, xml
    else:
        declared_by, source, xml_labels = MEKA, chosen, None
    meka = meka_label_count(relation)
    if declared_by == MEKA and meka is None:
        return None
    index = choose_labels(names, chosen, xml_labels=xml_labels, meka_count=meka, **hint)
    return _layout(attributes, index, chosen, declared_by, source)


def _dataset_name(arff: str) -> str:
    """The loader's dataset name of an uploaded ARFF: its stem without -train/-test."""
    stem = Path(arff).stem
    for suffix in ("-train", "-test"):
        if stem.endswith(suffix):
            return stem[: -len(suffix)]
    return stem


def _read_header(name: str, data: bytes) -> tuple[list[Attribute], str]:
    """The attributes and relation name of an ARFF, reading no line after @data."""
    from .limits import current_limits

    limits = current_limits()
    with open_lines(_named(name, data)) as lines:
        header = parse_header(lines, name, max_attributes=limits.max_attributes)
    return header.attributes, header.relation


def _read_xml(name: str, data: bytes) -> list[str]:
    """:func:`read_label_names` of an uploaded XML, its messages naming the file."""
    return read_label_names(_named(name, data))


def _named(name: str, data: bytes) -> io.BytesIO:
    """``data`` as a file object whose name the readers' messages show."""
    handle = io.BytesIO(data)
    handle.name = name
    return handle


def _check_xml_labels(labels: list[str], names: list[str], xml: str, arff: str):
    """One message naming the XML, its first label missing from ``arff``, the rest."""
    known = set(names)
    missing = [label for label in labels if label not in known]
    if not missing:
        return
    more = len(missing) - 1
    also = "" if more == 0 else f" (nor are {more} more of its {len(labels)} labels)"
    raise DatasetError(
        f"{xml}: label {missing[0]!r} is not an attribute of {arff}{also}; "
        "is this the XML of that ARFF?"
    )


def _layout(
    attributes: list[Attribute], index: np.ndarray, arff: str, by: str, source: str
) -> LabelLayout:
    n, q = len(attributes), len(index)
    if q >= n:
        raise DatasetError(
            f"{source}: all {n} attributes of {arff} would be labels; none is "
            "left as a feature"
        )
    count = None
    if index[-1] == q - 1:
        count = q
    elif index[0] == n - q:
        count = -q
    other_end_binary = False
    if by == MEKA and count is not None and 2 * q <= n:
        other = attributes[n - q :] if count > 0 else attributes[:q]
        other_end_binary = all(a.kind == NOMINAL and len(a.values) == 2 for a in other)
    names = tuple(attributes[i].name for i in index)
    return LabelLayout(arff, by, source, names, n, count, other_end_binary)
