"""upload_label_layout: the label layout an upload's files declare (issue 54, 8)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from mlfs_core.data import load_uploaded
from mlfs_core.data.layout import LabelLayout, upload_label_layout
from mlfs_core.errors import DatasetError

# name -> the uploaded files of a shared dataset (folder/file names)
UPLOADS = {
    "emotions": ["emotions/emotions.arff", "emotions/emotions.xml"],
    "medical": ["medical/medical.arff", "medical/medical.xml"],
    "medical alone": ["medical/medical.arff"],
    "slashdot": ["slashdot/SLASHDOT-F.arff", "slashdot/SLASHDOT-F.xml"],
    "slashdot alone": ["slashdot/SLASHDOT-F.arff"],
    "yeast": ["yeast/yeast.arff", "yeast/yeast.xml"],
    "birds": ["birds/birds-train.arff", "birds/birds-test.arff", "birds/birds.xml"],
    "flags": ["flags/flags.arff", "flags/flags.xml"],
    "Gnegative": ["GnegativePseAAC/GnegativePseAAC.arff"],
}


def _files(shared: Path, name: str) -> list[tuple[str, bytes]]:
    return [(Path(p).name, (shared / p).read_bytes()) for p in UPLOADS[name]]


def _arff(relation: str, attributes: list[str], data: str = "") -> bytes:
    lines = [f"@relation {relation}"]
    lines += [f"@attribute {a}" for a in attributes]
    return ("\n".join([*lines, "@data", data]) + "\n").encode()


def _xml(*names: str) -> bytes:
    labels = "".join(f'<label name="{n}"/>' for n in names)
    return f'<labels xmlns="http://mulan.sourceforge.net/labels">{labels}</labels>'.encode()


# expected: (declared_by, source, q, label_count, other_end_binary)
EXPECTED = {
    "emotions": ("xml", "emotions.xml", 6, -6, False),
    "medical": ("xml", "medical.xml", 45, -45, False),
    "medical alone": ("meka", "medical.arff", 45, 45, True),  # the README's trap
    "slashdot": ("xml", "SLASHDOT-F.xml", 22, 22, False),
    "slashdot alone": ("meka", "SLASHDOT-F.arff", 22, 22, False),
    "yeast": ("xml", "yeast.xml", 14, -14, False),
    "birds": ("xml", "birds.xml", 19, -19, False),
    "flags": ("xml", "flags.xml", 7, -7, False),
    "Gnegative": ("hint", "GnegativePseAAC", 8, 8, False),
}


@pytest.mark.parametrize("name", sorted(UPLOADS))
def test_the_layout_is_what_the_loader_takes_on_shared_data(shared_datasets, name):
    """Check, on real uploads, the layout names exactly the labels that
    load_uploaded (no label argument) takes, in the same order, and where."""
    files = _files(shared_datasets, name)
    layout = upload_label_layout(files)
    by, source, q, count, other_end = EXPECTED[name]
    assert (layout.declared_by, layout.source) == (by, source)
    assert (len(layout.names), layout.label_count) == (q, count)
    assert layout.other_end_binary is other_end
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ds = load_uploaded(files)
    assert list(layout.names) == ds.label_names  # the oracle: the full load
    assert layout.n_attributes == ds.n_features + q or name in ("birds", "flags")
    positions = list(range(q)) if count > 0 else list(range(-q, 0))
    assert [ds.label_names[i] for i in positions] == list(layout.names)


def test_emotions_says_what_was_found_in_one_sentence(shared_datasets):
    """Check the on-screen sentence of emotions + XML, and the MEKA trap's note."""
    layout = upload_label_layout(_files(shared_datasets, "emotions"))
    assert layout.describe() == (
        "Labels from emotions.xml: 6 labels, the last 6 attributes of emotions.arff."
    )
    assert layout.end == "last"
    alone = upload_label_layout(_files(shared_datasets, "medical alone"))
    assert alone.describe().startswith(
        "Labels from the relation name of medical.arff (-C 45): 45 labels, the "
        "first 45 attributes of medical.arff. Check them: the last 45 attributes "
        "are two-valued as well"
    )


def test_a_meka_count_of_the_last_attributes(shared_datasets):
    """Check '-C -23' (ohsumed's relation) gives the last 23, read from the header."""
    path = shared_datasets / "ohsumed" / "ohsumed.arff"
    data = path.read_bytes()
    head = data[: data.lower().index(b"@data") + len(b"@data\n")]  # no row
    layout = upload_label_layout([("ohsumed.arff", head)])
    assert layout.label_count == -23 and layout.end == "last"
    assert layout.n_attributes == 1002 + 23
    assert layout == upload_label_layout([("ohsumed.arff", data)])


def test_emotions_with_another_dataset_s_xml_names_the_file_and_the_label(
    shared_datasets,
):
    """Check a mismatched XML: one message naming the XML, the first label not
    found, the ARFF, and how many more are missing."""
    files = [
        ("emotions.arff", (shared_datasets / "emotions/emotions.arff").read_bytes()),
        ("emotions.xml", (shared_datasets / "yeast/yeast.xml").read_bytes()),
    ]
    with pytest.raises(DatasetError) as caught:
        upload_label_layout(files)
    assert str(caught.value) == (
        "emotions.xml: label 'Class1' is not an attribute of emotions.arff (nor are "
        "13 more of its 14 labels); is this the XML of that ARFF?"
    )


def test_one_label_missing_is_named_alone():
    """Check one missing label: no '(nor are ...)'."""
    arff = _arff("r", ["w real", "a {0,1}", "b {0,1}"])
    with pytest.raises(DatasetError) as caught:
        upload_label_layout([("r.arff", arff), ("r.xml", _xml("a", "c"))])
    assert str(caught.value) == (
        "r.xml: label 'c' is not an attribute of r.arff; is this the XML of that ARFF?"
    )


def test_labels_not_at_one_end_have_no_count_and_are_named():
    """Check labels in the middle: no count, the names in attribute order (not
    the XML's), and a sentence saying they are found by name."""
    arff = _arff("r", ["w real", "b {0,1}", "v real", "a {0,1}", "u real"])
    layout = upload_label_layout([("r.arff", arff), ("r.xml", _xml("a", "b"))])
    assert layout.names == ("b", "a") and layout.label_count is None
    assert layout.end is None
    assert layout.describe() == (
        "Labels from r.xml: 2 labels, 2 of the 5 attributes of r.arff, by name."
    )


def test_the_xml_beats_the_relation_s_count_as_in_the_loader():
    """Check the precedence: XML (labels last) over '-C 2' (first two)."""
    arff = _arff("'r: -C 2'", ["a {0,1}", "b {0,1}", "x {0,1}", "y {0,1}"])
    layout = upload_label_layout([("r.arff", arff), ("r.xml", _xml("x", "y"))])
    assert layout.declared_by == "xml" and layout.label_count == -2
    assert not layout.other_end_binary  # the XML names them: no doubt
    meka = upload_label_layout([("r.arff", arff)])
    assert meka.label_count == 2 and meka.other_end_binary


@pytest.mark.parametrize(
    "files",
    [
        [("r.arff", _arff("r", ["w real", "y {0,1}"]))],  # nothing declared
        [("t.csv", b"w,y\n1,0\n")],
        [("r.xml", _xml("y"))],  # an XML alone
        [("a.arff", _arff("'a: -C 1'", ["y {0,1}", "w real"]))] * 1
        + [("b.arff", _arff("'b: -C 1'", ["y {0,1}", "w real"]))],  # two datasets
        [],
    ],
    ids=["no-labels", "csv", "xml-alone", "two-arffs", "empty"],
)
def test_uploads_that_declare_nothing_give_none(files):
    """Check None where the form must still ask (the loader decides or fails)."""
    assert upload_label_layout(files) is None


def test_only_the_header_is_read():
    """Check the bounded cost: rows after @data are never parsed (a broken row
    and a megabyte of binary after @data change nothing)."""
    arff = _arff("'r: -C 1'", ["y {0,1}", "w real"], "not,a,row\n" + "\xff" * 2**20)
    layout = upload_label_layout([("r.arff", arff)])
    assert layout.names == ("y",) and layout.label_count == 1
    with pytest.raises(DatasetError, match="not,a,row|line 5"):
        load_uploaded([("r.arff", arff)])


@pytest.mark.parametrize(
    ("xml", "message"),
    [
        (b"<labels><label name='y'></labels", r"^r\.xml: malformed XML"),
        (
            b'<!DOCTYPE l [<!ENTITY a "aaaa">]><labels><label name="&a;"/></labels>',
            r"^r\.xml: the XML declares entities",
        ),
        (b"<labels><label/></labels>", r"^r\.xml: a <label> element has no name"),
        (b"<labels/>", r"^r\.xml: no <label> elements"),
        (_xml("y", "y"), r"^r\.xml: label 'y' is listed twice"),
        (b"\xff\xfe<\x00l\x00", r"^r\.xml: malformed XML"),
    ],
    ids=["malformed", "entities", "no-name", "no-labels", "twice", "utf16-junk"],
)
def test_hostile_xml_is_one_message_naming_the_file(xml, message):
    """Check every bad XML fails with a DatasetError naming the uploaded XML."""
    arff = _arff("r", ["w real", "y {0,1}"])
    with pytest.raises(DatasetError, match=message):
        upload_label_layout([("r.arff", arff), ("r.xml", xml)])


def test_hostile_arff_headers_and_names(monkeypatch):
    """Check bad headers name the ARFF, the attribute budget holds before the
    header is read to its end, and a path in a file name is cut to its base."""
    with pytest.raises(DatasetError, match=r"^r\.arff: no @data section"):
        upload_label_layout([("r.arff", b"@relation r\n@attribute y {0,1}\n")])
    with pytest.raises(DatasetError, match=r"^r\.arff: the file is empty"):
        upload_label_layout([("r.arff", b"")])
    with pytest.raises(DatasetError, match=r"^r\.arff.*UTF-16"):
        upload_label_layout([("r.arff", "@relation r\n".encode("utf-16"))])
    monkeypatch.setenv("MLFS_MAX_ATTRIBUTES", "3")
    wide = _arff("'r: -C 1'", [f"a{i} real" for i in range(10)])
    with pytest.raises(DatasetError, match="more than 3 attributes"):
        upload_label_layout([("r.arff", wide)])
    monkeypatch.delenv("MLFS_MAX_ATTRIBUTES")
    arff = _arff("'r: -C -1'", ["w real", "y {0,1}"])
    layout = upload_label_layout([("../../etc/r.arff", arff)])
    assert layout.arff == "r.arff" and layout.names == ("y",)


def test_labels_that_leave_no_feature_or_a_bad_count_are_refused():
    """Check an XML naming every attribute, and '-C 5' on two attributes."""
    arff = _arff("r", ["a {0,1}", "b {0,1}"])
    with pytest.raises(DatasetError, match=r"^r\.xml: all 2 attributes of r\.arff"):
        upload_label_layout([("r.arff", arff), ("r.xml", _xml("a", "b"))])
    bad = _arff("'r: -C 5'", ["a {0,1}", "b {0,1}"])
    with pytest.raises(DatasetError, match="the relation's -C 5 must be non-zero"):
        upload_label_layout([("r.arff", bad)])


def test_one_label_is_said_in_the_singular():
    """Check the sentence for q = 1 at the first attribute."""
    layout = LabelLayout("r.arff", "meka", "r.arff", ("y",), 4, 1)
    assert layout.describe() == (
        "Labels from the relation name of r.arff (-C 1): 1 label, the first "
        "attribute of r.arff."
    )
