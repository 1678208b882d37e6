"""ARFF parsing, label selection, nominal encoding and error messages."""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlfs_core.data import load_dataset
from mlfs_core.errors import DatasetError

# These files are ambiguous on purpose; the warning is tested in test_label_choice.
AMBIGUOUS = "ignore:.*0/1 as well:UserWarning"

HEADER = """% a comment
@relation 'toy: -C 2' %trailing comment
@attribute y1 {0,1}
@attribute 'y 2' {0,1}
@attribute 'it\\'s' numeric
@attribute colour {red, green, blue}
@attribute flag {YES, NO}
@attribute ab {a, b}
@data
"""
ROWS = "1,0,1.5,red,YES,a\n0,1,0,blue,NO,b\n{0 1,2 -2,3 green}\n"
BASE = "@relation 'r: -C 1'\n@attribute y {0,1}\n@attribute w real\n@data\n"


def _load(text: str, **kwargs):
    return load_dataset(io.StringIO(text), **kwargs)


@pytest.mark.filterwarnings(AMBIGUOUS)
def test_meka_c_dense_and_sparse_rows():
    """Check that -C 2 selects the first two attributes and sparse rows fill zeros."""
    ds = _load(HEADER + ROWS)
    assert ds.label_names == ["y1", "y 2"]
    assert ds.Y.tolist() == [[1, 0], [0, 1], [1, 0]]
    assert ds.feature_names == [
        "it's",
        "colour=red",
        "colour=green",
        "colour=blue",
        "flag",
        "ab",
    ]
    expected = [[1.5, 1, 0, 0, 1, 0], [0, 0, 0, 1, 0, 1], [-2, 0, 1, 0, 1, 0]]
    assert ds.X.toarray().tolist() == expected


@pytest.mark.filterwarnings(AMBIGUOUS)
def test_binary_nominal_rule():
    """Check that {YES,NO} maps YES to 1 and {a,b} maps the last value b to 1."""
    ds = _load(HEADER + ROWS)
    flag = ds.feature_names.index("flag")
    ab = ds.feature_names.index("ab")
    assert ds.X[:, flag].toarray().ravel().tolist() == [1, 0, 1]
    assert ds.X[:, ab].toarray().ravel().tolist() == [0, 1, 0]


def test_negative_meka_c_takes_last_attributes():
    """Check that -C -1 selects the last attribute as the label."""
    text = (
        "@relation 'r: -C -1'\n@attribute a real\n@attribute y {0,1}\n@data\n3,1\n0,0\n"
    )
    ds = _load(text)
    assert ds.label_names == ["y"] and ds.feature_names == ["a"]


def test_explicit_labels_override_meka_c():
    """Check that labels= wins over the relation's -C and keeps file order."""
    ds = _load(HEADER + ROWS, labels=["ab", "y1"])
    assert ds.label_names == ["y1", "ab"]
    assert "y 2" in ds.feature_names


@pytest.mark.filterwarnings(AMBIGUOUS)
def test_label_count_and_prefix():
    """Check that label_count= and label_prefix= select the expected labels."""
    assert _load(HEADER + ROWS, label_count=1).label_names == ["y1"]
    assert _load(HEADER + ROWS, label_prefix="y").label_names == ["y1", "y 2"]


def test_xml_labels_by_name_override_meka_c():
    """Check that an XML overrides a wrong -C and the escaped quote matches by name."""
    xml = b'<labels><label name="ab"/><label name="it\'s"/></labels>'
    with pytest.raises(
        DatasetError, match=r"line 10: label attribute \"it's\" has value 1.5"
    ):
        _load(HEADER + ROWS, xml=xml)
    xml = b'<labels><label name="ab"/><label name="flag"/></labels>'
    ds = _load(HEADER + ROWS, xml=xml)
    assert ds.label_names == ["flag", "ab"]
    assert ds.Y.tolist() == [[1, 0], [0, 1], [1, 0]]


def _id_arff(n_rows: int, with_feature: bool) -> str:
    """An ARFF whose nominal 'id' has a different value in each of n_rows rows."""
    ids = [f"p{i}" for i in range(n_rows)]
    extra = "@attribute w real\n" if with_feature else ""
    rows = "".join(
        f"{i % 2},{name}" + (f",{i}" if with_feature else "") + "\n"
        for i, name in enumerate(ids)
    )
    decl = ",".join(ids)
    return (
        f"@relation 'r: -C 1'\n@attribute y {{0,1}}\n@attribute id {{{decl}}}\n"
        f"{extra}@data\n{rows}"
    )


def test_identifier_attribute_dropped_with_warning():
    """Check that a nominal with a different value in every row is dropped."""
    with pytest.warns(UserWarning, match="'id'"):
        ds = _load(_id_arff(12, with_feature=True))
    assert ds.feature_names == ["w"]


def test_identifier_rule_needs_ten_rows():
    """Check that with fewer than 10 rows an all-distinct nominal is one-hot encoded."""
    ds = _load(_id_arff(4, with_feature=False))
    assert ds.feature_names == ["id=p0", "id=p1", "id=p2", "id=p3"]


def test_string_attribute_dropped_with_warning():
    """Check that a string attribute is dropped with a warning naming it."""
    text = (
        "@relation 'r: -C 1'\n@attribute y {0,1}\n@attribute note string\n"
        "@attribute w real\n@data\n1,'hello, world',1\n0,x,2\n"
    )
    with pytest.warns(UserWarning, match="'note'"):
        ds = _load(text)
    assert ds.feature_names == ["w"] and ds.X.toarray().ravel().tolist() == [1, 2]


def test_quoted_nominal_values_with_spaces():
    """Check that quoted nominal values with spaces and commas are one-hot named."""
    text = (
        "@relation 'r: -C 1'\n@attribute y {0,1}\n@attribute c {'a b','c,d',e}\n"
        "@data\n1,'c,d'\n0,e\n{1 'a b'}\n"
    )
    ds = _load(text)
    assert ds.feature_names == ["c=a b", "c=c,d", "c=e"]
    assert ds.X.toarray().tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]


def test_empty_sparse_row_and_blank_lines():
    """Check that '{}' rows, blank lines and comment lines in @data are accepted."""
    text = BASE + "\n{}\n% c\n{1 2}\n"
    ds = _load(text)
    assert ds.X.toarray().ravel().tolist() == [0, 2] and ds.Y.ravel().tolist() == [0, 0]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "empty"),
        ("@relation r\n@attribute a real\n", "no @data"),
        (BASE, "no data rows"),
        (BASE + "1,2\n1,2,3\n", r"line 6: too many values"),
        (BASE + "1\n", r"line 5: too few values"),
        (BASE + "{0 1,5 2}\n", r"line 5: sparse index 5 out of range"),
        (BASE + "{0 1,1 2,1 3}\n", "appears twice"),
        (BASE + "{0 1,x 2}\n", "not an integer"),
        (BASE + "{0 1,1}\n", "sparse row must be"),
        (BASE + "{0 1\n", "closing"),
        (BASE + "1,?\n", r"line 5, attribute 'w': missing value '\?'.*impute"),
        (BASE + "1,nan\n", r"line 5, attribute 'w'.*not finite"),
        (BASE + "?,1\n", r"attribute 'y': missing value"),
        (BASE + "2,1\n", r"'y'.*not a declared value"),
        (BASE + "1,abc\n", r"'w'.*not a number"),
        (
            "@relation r\n@attribute y {0,1}\n@attribute w real\n@data\n1,2\n",
            "no way to tell which attributes are labels",
        ),
        (
            "@relation 'r: -C 2'\n@attribute y {0,1}\n@attribute w real\n@data\n1,2\n",
            "leave at least one feature",
        ),
        (
            "@relation 'r: -C 1'\n@attribute y real\n@attribute w real\n@data\n0.5,2\n",
            r"line 5: label attribute 'y' has value 0.5",
        ),
        (
            "@relation 'r: -C 1'\n@attribute y {a,b,c}\n@attribute w real\n"
            "@data\na,2\n",
            "label attribute 'y' is not binary",
        ),
        (
            "@relation r\n@attribute y {0,1}\n@attribute y real\n@data\n",
            "declared twice",
        ),
        ("@relation r\n@attribute y blob\n@data\n", "unsupported type"),
        ("@relation r\nbogus line\n", "line 2: expected @relation"),
        ("@relation r\n@attribute 'y {0,1}\n@data\n", "unterminated quote"),
        ("@relation r\n@data\n", "@data before any @attribute"),
        ("@relation r\n@attribute y {0,0}\n@data\n", "distinct"),
    ],
)
def test_bad_arff_raises_dataset_error(text, match):
    """Check that each malformed ARFF raises DatasetError with a precise message."""
    with pytest.raises(DatasetError, match=match):
        _load(text)


def test_zero_features_after_dropping_raises():
    """Check that a file whose only feature is an identifier reports zero features."""
    with pytest.warns(UserWarning), pytest.raises(DatasetError, match="no feature"):
        _load(_id_arff(10, with_feature=False))


def test_xml_label_missing_from_arff():
    """Check that an XML naming an absent attribute raises naming the label."""
    with pytest.raises(DatasetError, match="XML label 'nope' is missing"):
        _load(BASE + "1,2\n", xml=b"<labels><label name='nope'/></labels>")


@pytest.mark.parametrize(
    "xml",
    [
        b"<labels><label",
        b"<labels></labels>",
        b"<labels><label/></labels>",
        b"<labels><label name='a'/><label name='a'/></labels>",
    ],
)
def test_bad_xml_raises(xml):
    """Check that malformed or empty label XML raises DatasetError."""
    with pytest.raises(DatasetError, match="XML|label"):
        _load(BASE + "1,2\n", xml=xml)


def test_latin1_bytes_are_decoded():
    """Check that non-UTF-8 bytes fall back to Latin-1 instead of failing."""
    text = (
        "@relation 'r: -C 1'\n@attribute y {0,1}\n@attribute caf\xe9 real\n@data\n1,2\n"
    ).encode("latin-1")
    ds = load_dataset(text)
    assert ds.feature_names == ["caf\xe9"]


def test_binary_file_object_and_bom():
    """Check that a binary file object with a UTF-8 BOM loads."""
    ds = load_dataset(io.BytesIO(("\ufeff" + BASE + "1,2\n").encode("utf-8")))
    assert np.array_equal(ds.Y, [[1]])
