"""Loaded data is safe to share: no caller mutation, no XML bombs (issue 14)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core.data import Dataset, load_dataset
from mlfs_core.data.mulan_xml import read_label_names
from mlfs_core.errors import DatasetError

ARFF = b"@relation r\n@attribute w real\n@attribute y {0,1}\n@data\n1,1\n0,0\n"
BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE labels [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<labels><label name="&lol9;"/></labels>
"""


def _unsorted_csr_with_duplicates_and_zeros() -> sp.csr_matrix:
    data = np.array([1.0, 2.0, 0.0, 3.0])
    indices = np.array([1, 1, 0, 0])
    indptr = np.array([0, 3, 4])
    return sp.csr_matrix((data, indices, indptr), shape=(2, 2))


def test_dataset_leaves_the_callers_matrices_unchanged():
    X = _unsorted_csr_with_duplicates_and_zeros()
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    Y = np.array([[1], [0]], dtype=np.int8)
    ds = Dataset(X, Y, ["a", "b"], ["y"])
    for old, new in zip(before, (X.data, X.indices, X.indptr)):
        np.testing.assert_array_equal(old, new)
    assert X.data.flags.writeable and Y.flags.writeable
    # the dataset's own copy is canonical: duplicates summed, zeros dropped
    assert ds.X.toarray().tolist() == [[0.0, 3.0], [3.0, 0.0]]
    assert ds.X.nnz == 2


def test_dataset_arrays_are_read_only_so_sharing_is_safe():
    ds = Dataset([[1, 0], [0, 2]], [[1], [0]], ["a", "b"], ["y"])
    with pytest.raises(ValueError, match="read-only"):
        ds.X.data[0] = 5.0
    with pytest.raises(ValueError, match="read-only"):
        ds.Y[0, 0] = 0
    # derived datasets and arithmetic still work
    assert ds.subset([1]).X.toarray().tolist() == [[0.0, 2.0]]
    assert (ds.X * 2).toarray().tolist() == [[2.0, 0.0], [0.0, 4.0]]


def test_datasets_compare_by_identity_not_elementwise():
    a = Dataset([[1, 0]], [[1]], ["a", "b"], ["y"])
    b = Dataset([[1, 0]], [[1]], ["a", "b"], ["y"])
    assert a == a and a != b  # used to raise "truth value ... is ambiguous"
    assert a.content_hash() == b.content_hash()
    assert len({a, b}) == 2  # hashable, by identity


def test_billion_laughs_xml_is_refused_quickly():
    with pytest.raises(DatasetError, match="declares entities"):
        read_label_names(BILLION_LAUGHS)
    with pytest.raises(DatasetError, match="declares entities"):
        load_dataset(ARFF, xml=BILLION_LAUGHS)


def test_external_entity_xml_cannot_read_server_files(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("y")
    xml = (
        f'<?xml version="1.0"?><!DOCTYPE labels [<!ENTITY s SYSTEM "file://{secret}">]>'
        '<labels><label name="&s;"/></labels>'
    ).encode()
    with pytest.raises(DatasetError, match="refused"):
        read_label_names(xml)
