"""Small Mulan datasets written by the tests: an ARFF file and its label XML."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def arff_text(
    relation: str,
    features: Iterable[str],
    labels: Iterable[str],
    rows: Iterable[str],
    *,
    feature_type: str = "numeric",
) -> str:
    """An ARFF file's text: features of one type, then 0/1 labels, then ``rows``.

    Examples
    --------
    >>> print(arff_text("t", ["w"], ["y"], ["3,1"]), end="")
    @relation t
    @attribute w numeric
    @attribute y {0,1}
    @data
    3,1
    """
    header = [f"@relation {relation}"]
    header += [f"@attribute {name} {feature_type}" for name in features]
    header += [f"@attribute {name} {{0,1}}" for name in labels]
    return "\n".join([*header, "@data", *rows]) + "\n"


def mulan_xml(labels: Iterable[str]) -> str:
    """The Mulan label XML naming ``labels``."""
    names = "".join(f'<label name="{name}"/>' for name in labels)
    return (
        '<?xml version="1.0"?>'
        f'<labels xmlns="http://mulan.sourceforge.net/labels">{names}</labels>'
    )


def write_mulan(
    arff: Path, features, labels, rows, *, relation: str | None = None, **options
) -> Path:
    """Write ``arff`` and the label XML beside it; return ``arff``.

    The relation is ``arff``'s stem unless given; ``options`` go to
    :func:`arff_text`.
    """
    labels = list(labels)
    text = arff_text(relation or arff.stem, features, labels, rows, **options)
    arff.write_text(text)
    arff.with_suffix(".xml").write_text(mulan_xml(labels))
    return arff
