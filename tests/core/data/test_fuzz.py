"""Fuzz the readers: mutated input gives a consistent Dataset or a DatasetError."""

from __future__ import annotations

import io
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlfs_core.data import Dataset, load_dataset
from mlfs_core.errors import DatasetError

ARFF = (
    "@relation 'fuzz: -C 2'\n"
    "@attribute y1 {0,1}\n@attribute 'y 2' {0,1}\n"
    "@attribute 'it\\'s' numeric\n@attribute c {red, 'dark blue', green}\n"
    "@attribute f {YES,NO}\n@attribute w real\n"
    "@data\n1,0,1.5,red,YES,2\n0,1,0,'dark blue',NO,0\n{0 1,2 -2,3 green,5 4}\n{}\n"
)
XML = (
    '<labels xmlns="http://mulan.sourceforge.net/labels"><label name="y1"/>'
    '<label name="f"/></labels>'
)
CSV = "w1,w2,lab_a,lab_b\n1,0,1,0\n0,3.5,1,1\n2,2,0,0\n"
SVM = "0,2 1:1.5 3:2\n 2:1\n1 1:4 # c\n"
ALPHABET = list(",{}'\"\\ %@?\n\t:#0123456789.-eE") + ["\xe9", "\x00", "nan", "}\n{"]
FUZZ = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

_mutation = st.tuples(
    st.sampled_from(["delete", "insert", "replace", "duplicate_line", "truncate"]),
    st.integers(min_value=0, max_value=10_000),
    st.sampled_from(ALPHABET),
)


def _mutate(text: str, mutations) -> bytes:
    for kind, pos, char in mutations:
        at = pos % (len(text) + 1)
        if kind == "delete":
            text = text[:at] + text[at + 1 :]
        elif kind == "insert":
            text = text[:at] + char + text[at:]
        elif kind == "replace":
            text = text[:at] + char + text[at + 1 :]
        elif kind == "truncate":
            text = text[:at]
        else:
            lines = text.split("\n")
            k = pos % len(lines)
            lines.insert(k, lines[k])
            text = "\n".join(lines)
    return text.encode("utf-8", errors="surrogatepass")


def _check(load) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            ds = load()
    except DatasetError:
        return
    assert isinstance(ds, Dataset)
    n, m = ds.X.shape
    assert ds.Y.shape[0] == n and n > 0 and m > 0 and ds.Y.shape[1] > 0
    assert set(np.unique(ds.Y)) <= {0, 1}
    assert len(ds.feature_names) == m and len(ds.label_names) == ds.Y.shape[1]
    assert np.isfinite(ds.X.data).all()


@FUZZ
@given(st.lists(_mutation, min_size=1, max_size=4))
def test_fuzz_arff(mutations):
    """Check that mutated ARFF loads consistently or raises DatasetError only."""
    _check(lambda: load_dataset(io.BytesIO(_mutate(ARFF, mutations))))


@FUZZ
@given(st.lists(_mutation, min_size=1, max_size=4))
def test_fuzz_xml(mutations):
    """Check that a mutated label XML loads consistently or raises DatasetError."""
    _check(lambda: load_dataset(io.StringIO(ARFF), xml=_mutate(XML, mutations)))


@FUZZ
@given(st.lists(_mutation, min_size=1, max_size=4))
def test_fuzz_csv(mutations):
    """Check that mutated CSV loads consistently or raises DatasetError only."""
    _check(lambda: load_dataset(_mutate(CSV, mutations), format="csv", label_count=-2))


@FUZZ
@given(st.lists(_mutation, min_size=1, max_size=4))
def test_fuzz_svmlight(mutations):
    """Check that mutated svmlight loads consistently or raises DatasetError only."""
    _check(lambda: load_dataset(_mutate(SVM, mutations), format="svmlight"))


def test_fuzz_originals_load():
    """Check that the unmutated fuzz seeds are valid, so mutations start from data."""
    assert load_dataset(io.StringIO(ARFF)).n_labels == 2
    assert load_dataset(io.StringIO(ARFF), xml=XML.encode()).label_names == ["y1", "f"]
    assert load_dataset(CSV.encode(), format="csv", label_count=-2).n_features == 2
    assert load_dataset(SVM.encode(), format="svmlight").n_labels == 3
