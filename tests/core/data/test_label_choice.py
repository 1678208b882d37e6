"""Which attributes become labels: XML pairing by stem, counts that may be wrong."""

from __future__ import annotations

import warnings

import pytest

from mlfs_core.data import load_dataset, load_uploaded
from mlfs_core.data._encode import AmbiguousLabelsWarning
from mlfs_core.errors import DatasetError

# Mulan layout: binary word features first, labels LAST, and a MEKA-style
# '-C 2' in the relation name (as in langlog): read without its XML, "-C 2"
# takes the first two attributes, which are words.
LANGLOG_LIKE = b"""@relation 'llog: -C 2'
@attribute w1 {0,1}
@attribute w2 {0,1}
@attribute w3 {0,1}
@attribute lab1 {0,1}
@attribute lab2 {0,1}
@data
1,1,0,1,0
0,1,1,0,0
1,0,1,0,1
0,0,0,0,0
"""
XML = b'<labels><label name="lab1"/><label name="lab2"/></labels>'
CORRECT = (["lab1", "lab2"], ["w1", "w2", "w3"])


def _names(ds):
    return ds.label_names, ds.feature_names


def test_meka_c_without_xml_warns_that_the_other_end_is_binary_too():
    with pytest.warns(AmbiguousLabelsWarning, match="first 2 attributes") as caught:
        ds = load_dataset(LANGLOG_LIKE)
    assert ds.label_names == ["w1", "w2"]  # what -C 2 says, but flagged
    warning = caught[0].message
    assert (warning.n, warning.chosen) == (2, "first")
    assert "the relation's -C 2" in str(warning) and "label_count=-2" in str(warning)


def test_the_last_n_or_the_xml_read_it_right_and_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _names(load_dataset(LANGLOG_LIKE, label_count=-2)) == CORRECT
        assert _names(load_dataset(LANGLOG_LIKE, xml=XML)) == CORRECT


def test_a_positive_count_warns_too():
    with pytest.warns(AmbiguousLabelsWarning, match=r"label_count=2\)"):
        load_dataset(LANGLOG_LIKE, label_count=2)


def test_a_count_hitting_non_binary_columns_names_the_attribute():
    text = b"@relation 'r: -C 1'\n@attribute n real\n@attribute y {0,1}\n@data\n3,1\n"
    with pytest.raises(DatasetError, match=r"label attribute 'n' has value 3"):
        load_dataset(text)


def test_arff_and_xml_with_different_stems_pair_in_a_folder(tmp_path):
    (tmp_path / "Corel5k-sparse.arff").write_bytes(LANGLOG_LIKE)
    (tmp_path / "Corel5k.xml").write_bytes(XML)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the XML decides: nothing ambiguous
        assert _names(load_dataset(tmp_path)) == CORRECT
        assert _names(load_dataset(tmp_path / "Corel5k-sparse.arff")) == CORRECT


def test_different_stems_pair_in_an_upload():
    files = [("Corel5k-sparse.arff", LANGLOG_LIKE), ("Corel5k.xml", XML)]
    ds = load_uploaded(files)
    assert _names(ds) == CORRECT and ds.name == "Corel5k-sparse"


def test_a_folders_only_xml_pairs_with_its_only_arff(tmp_path):
    (tmp_path / "data.arff").write_bytes(LANGLOG_LIKE)
    (tmp_path / "labels.xml").write_bytes(XML)
    assert _names(load_dataset(tmp_path)) == CORRECT


def test_an_unrelated_stem_is_not_paired_beside_a_file(tmp_path):
    """In a folder of many datasets, 'yeast.xml' is not the labels of 'yeasty.arff'."""
    (tmp_path / "yeasty.arff").write_bytes(LANGLOG_LIKE)
    (tmp_path / "yeast.xml").write_bytes(b'<labels><label name="zz"/></labels>')
    (tmp_path / "other.csv").write_bytes(b"a,y\n1,0\n")
    with pytest.warns(AmbiguousLabelsWarning):  # no XML: -C 2 decides
        ds = load_dataset(tmp_path / "yeasty.arff")
    assert ds.label_names == ["w1", "w2"]


def test_upload_messages_name_the_files_not_the_server_folder(tmp_path):
    folder = tmp_path / "uploads" / "abc123"
    folder.mkdir(parents=True)
    (folder / "mine.arff").write_bytes(b"@relation r\n@attribute w real\n@data\n1\n")
    with pytest.raises(DatasetError) as err:
        load_uploaded(folder)
    message = str(err.value)
    assert message.startswith("mine.arff: no way to tell")
    assert str(tmp_path) not in message and "abc123" not in message


def test_upload_warnings_name_the_files_not_the_server_folder(tmp_path):
    folder = tmp_path / "kept"
    folder.mkdir()
    (folder / "llog.arff").write_bytes(LANGLOG_LIKE)
    with pytest.warns(AmbiguousLabelsWarning) as caught:
        ds = load_uploaded(folder)
    assert str(caught[0].message).startswith("llog.arff: the labels were taken")
    assert str(tmp_path) not in str(caught[0].message)
    assert ds.source == "upload:llog.arff" and ds.name == "llog"


def test_upload_from_pairs_messages_hide_the_temporary_folder():
    with pytest.raises(DatasetError) as err:
        load_uploaded([("a.csv", b"x,y\n1,0\n"), ("b.csv", b"x,y\n1,0\n")])
    assert str(err.value).startswith("the upload: several dataset files (a.csv, b.csv)")
    assert "mlfs-upload-" not in str(err.value)
