"""CSV, svmlight and MATLAB readers, folder resolution, uploads and discovery."""

from __future__ import annotations

import io

import numpy as np
import pytest
import scipy.io

from mlfs_core.data import discover_datasets, load_dataset, load_uploaded
from mlfs_core.errors import DatasetError

CSV = b"w1,w2,lab_a,lab_b\n1,0,1,0\n0,3,1,1\n2,2,0,0\n"
SVM = b"# comment\n0,2 1:1.5 3:2\n 2:1\n1 1:4 # trailing\n"
ARFF = b"@relation r\n@attribute w real\n@attribute y {0,1}\n@data\n1,1\n0,0\n"
XML = b'<labels xmlns="http://mulan.sourceforge.net/labels"><label name="y"/></labels>'


def _mat(**variables) -> bytes:
    buffer = io.BytesIO()
    scipy.io.savemat(buffer, variables)
    return buffer.getvalue()


def test_csv_labels_by_prefix_name_and_negative_count(tmp_path):
    """Check that CSV label columns are found by prefix, names and label_count=-2."""
    path = tmp_path / "toy.csv"
    path.write_bytes(CSV)
    by_prefix = load_dataset(path, label_prefix="lab_")
    by_names = load_dataset(path, labels=["lab_b", "lab_a"])
    by_count = load_dataset(path, label_count=-2)
    assert by_prefix.label_names == by_names.label_names == ["lab_a", "lab_b"]
    assert (
        by_prefix.content_hash() == by_names.content_hash() == by_count.content_hash()
    )
    assert by_prefix.X.toarray().tolist() == [[1, 0], [0, 3], [2, 2]]
    assert by_prefix.name == "toy"


@pytest.mark.parametrize(
    ("content", "kwargs", "match"),
    [
        (CSV, {}, "no way to tell"),
        (b"", {"label_count": 1}, "empty"),
        (b"a,y\n", {"label_count": -1}, "no data rows"),
        (b"a,y\n1,2\n", {"label_count": -1}, "line 2: label column 'y' has value 2"),
        (b"a,y\n,1\n", {"label_count": -1}, r"line 2, column 'a'.*impute"),
        (b"a,y\nnan,1\n", {"label_count": -1}, "not a finite number"),
        (b"a,y\n1,1,1\n", {"label_count": -1}, "too many values"),
        (b"a,a\n1,1\n", {"label_count": -1}, "repeated column"),
        (b"y\n1\n", {"label_count": 1}, "leave at least one feature"),
        (b"a,y\n1,1\n", {"labels": ["z"]}, "'z' from labels="),
    ],
)
def test_bad_csv_raises(content, kwargs, match):
    """Check that malformed CSV input raises DatasetError with a clear message."""
    with pytest.raises(DatasetError, match=match):
        load_dataset(io.BytesIO(content), format="csv", **kwargs)


def test_svmlight_multilabel_one_based():
    """Check that svmlight labels, empty label sets and one-based indices are read."""
    ds = load_dataset(SVM, format="svmlight")
    assert ds.Y.tolist() == [[1, 0, 1], [0, 0, 0], [0, 1, 0]]
    assert ds.X.toarray().tolist() == [[1.5, 0, 2], [0, 1, 0], [4, 0, 0]]
    assert load_dataset(SVM, format="svmlight", label_count=5).n_labels == 5


def test_svmlight_zero_based_when_index_zero_present():
    """Check that an index 0 in the file switches to zero-based indices."""
    ds = load_dataset(b"0 0:1 2:3\n", format="svmlight")
    assert ds.X.toarray().tolist() == [[1, 0, 3]]


@pytest.mark.parametrize(
    ("content", "kwargs", "match"),
    [
        (b"0 1:x\n", {}, r"line 1: bad feature token"),
        (b"0 1:nan\n", {}, "missing values are not supported"),
        (b"a 1:1\n", {}, "bad label list"),
        (b"0 1:1 1:2\n", {}, "appears twice"),
        (b"3 1:1\n", {"label_count": 2}, "out of range"),
        (b" 1:1\n", {}, "zero labels"),
        (b"0\n", {}, "zero features"),
        (b"# only\n", {}, "no data lines"),
        (b"0 qid:1 1:1\n", {}, "bad feature token"),
    ],
)
def test_bad_svmlight_raises(content, kwargs, match):
    """Check that malformed svmlight input raises DatasetError with a clear message."""
    with pytest.raises(DatasetError, match=match):
        load_dataset(content, format="svmlight", **kwargs)


def test_mat_split_layout_and_orientation():
    """Check train_/test_ .mat files: union, split, q x N targets in {-1,+1}."""
    content = _mat(
        train_data=np.eye(3),
        test_data=np.ones((2, 3)),
        train_target=[[1, -1, 1], [-1, -1, 1]],
        test_target=[[1, 1], [-1, 1]],
    )
    ds = load_dataset(content, format="mat")
    assert ds.Y.tolist() == [[1, 0], [0, 0], [1, 1], [1, 0], [1, 1]]
    train, test = ds.train_test()
    assert train.tolist() == [0, 1, 2] and test.tolist() == [3, 4]


def test_mat_n_by_q_targets():
    """Check that N x q {0,1} targets are read without transposing."""
    ds = load_dataset(_mat(data=np.eye(4), target=np.eye(4)[:, :2]), format="mat")
    assert ds.Y.shape == (4, 2) and ds.split is None


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"not a mat file at all", "not a readable .mat"),
        (_mat(X=np.eye(2), y=np.eye(2)), "expected variables data/target"),
        (_mat(data=np.eye(2), target=[[2, 0]]), r"\{0,1\} or \{-1,\+1\}"),
        (_mat(data=np.eye(2), target=np.ones((3, 3))), "no axis matches"),
        (_mat(data=np.array([[np.nan, 1.0]]), target=[[1]]), "NaN"),
    ],
)
def test_bad_mat_raises(content, match):
    """Check that bad .mat content raises DatasetError naming the problem."""
    with pytest.raises(DatasetError, match=match):
        load_dataset(content, format="mat")


def test_folder_with_train_test_pair_and_xml(tmp_path):
    """Check that a NAME-train/-test + NAME.xml folder loads the union and split."""
    (tmp_path / "toy-train.arff").write_bytes(ARFF)
    (tmp_path / "toy-test.arff").write_bytes(ARFF.replace(b"1,1\n0,0\n", b"5,0\n"))
    (tmp_path / "toy.xml").write_bytes(XML)
    ds = load_dataset(tmp_path, name="toy")
    assert ds.X.toarray().ravel().tolist() == [1, 0, 5]
    assert ds.split.tolist() == [0, 0, 1] and ds.label_names == ["y"]


def test_train_test_attribute_mismatch_raises(tmp_path):
    """Check that -train/-test files with different attributes raise."""
    (tmp_path / "toy-train.arff").write_bytes(ARFF)
    (tmp_path / "toy-test.arff").write_bytes(
        ARFF.replace(b"@attribute w", b"@attribute v")
    )
    (tmp_path / "toy.xml").write_bytes(XML)
    with pytest.raises(DatasetError, match="attributes differ"):
        load_dataset(tmp_path)


def test_folder_resolution_errors(tmp_path):
    """Check that empty, ambiguous and missing paths raise DatasetError."""
    with pytest.raises(DatasetError, match="no dataset file"):
        load_dataset(tmp_path)
    (tmp_path / "a.csv").write_bytes(CSV)
    (tmp_path / "b.csv").write_bytes(CSV)
    with pytest.raises(DatasetError, match="several dataset files"):
        load_dataset(tmp_path)
    with pytest.raises(DatasetError, match="no such file"):
        load_dataset(tmp_path / "missing")
    (tmp_path / "a.txt").write_text("x")
    with pytest.raises(DatasetError, match="unknown file type"):
        load_dataset(tmp_path / "a.txt")


def test_load_uploaded_arff_with_xml():
    """Check that uploaded ARFF + XML bytes load with the ARFF stem as name."""
    ds = load_uploaded([("dir/up.arff", ARFF), ("up.xml", XML)])
    assert ds.name == "up" and ds.label_names == ["y"]
    assert ds.source == "upload:dir/up.arff,up.xml"


def test_load_uploaded_uses_known_hints():
    """Check that an upload named like a hinted dataset gets its label hint."""
    text = b"@relation r\n@attribute Label1 {0,1}\n@attribute w real\n@data\n1,2\n"
    assert load_uploaded([("PlantPseAAC.arff", text)]).label_names == ["Label1"]


def test_load_uploaded_rejects_bad_names_and_nothing():
    """Check that empty uploads and hidden/traversal names are refused."""
    with pytest.raises(DatasetError, match="no files"):
        load_uploaded([])
    with pytest.raises(DatasetError, match="bad uploaded file name"):
        load_uploaded([("..", ARFF)])


def test_discover_datasets_lists_folders_and_files(tmp_path):
    """Check that discovery lists dataset subfolders and standalone files only."""
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "x.arff").write_bytes(ARFF)
    (tmp_path / "empty").mkdir()
    (tmp_path / "toy.csv").write_bytes(CSV)
    (tmp_path / "notes.txt").write_text("hi")
    found = discover_datasets(tmp_path)
    assert found == {"one": tmp_path / "one", "toy": tmp_path / "toy.csv"}


def test_discover_shared_datasets_all_load_names(shared_datasets):
    """Check that discovery finds every shared dataset (MANIFEST rows) by name."""
    manifest = (shared_datasets / "MANIFEST.tsv").read_text().splitlines()[1:]
    names = {line.split("\t")[0] for line in manifest if line.strip()}
    found = discover_datasets(shared_datasets)
    assert set(found) == names and "GnegativePseAAC" in found and "rcv1subset1" in found


def test_csv_chunks_give_the_same_matrix_and_errors_name_later_lines(monkeypatch):
    """Check that chunked CSV reading equals one chunk and keeps the line numbers."""
    from mlfs_core.data import csvfile

    rows = [f"{j % 3},{(j * 7) % 5},{j % 2}" for j in range(11)]
    text = ("a,b,y\n" + "\n".join(rows) + "\n").encode()
    whole = csvfile.read_csv(text, label_count=-1)
    monkeypatch.setattr(csvfile, "_CHUNK_CELLS", 6)  # two rows per chunk
    chunked = csvfile.read_csv(text, label_count=-1)
    assert (chunked[0] != whole[0]).nnz == 0
    assert chunked[1].tolist() == whole[1].tolist()
    target = 8  # in the fifth chunk of two rows
    bad = "\n".join(r if i != target else "2,?,0" for i, r in enumerate(rows))
    with pytest.raises(DatasetError, match=rf"line {target + 2}, column 'b'"):
        csvfile.read_csv(("a,b,y\n" + bad + "\n").encode(), label_count=-1)


def test_load_dataset_knows_the_sample(tmp_path, monkeypatch):
    """Check load_dataset("sample") loads the bundled sample, as the CLI does."""
    from mlfs_core.data import load_dataset

    monkeypatch.chdir(tmp_path)  # no file or folder called "sample" here
    ds = load_dataset("sample")
    assert ds.name == "sample" and ds.X.shape == (1500, 2000)
