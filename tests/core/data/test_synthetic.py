"""The planted-corpus generator and the committed sample_data files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from mlfs_core.data import load_dataset
from mlfs_core.data.synthetic import make_planted_corpus, write_sample_data

SAMPLE = Path(__file__).resolve().parents[3] / "sample_data"
FILES = ("planted.arff", "planted.xml", "planted_truth.json")


def test_regenerating_sample_data_is_byte_identical(tmp_path):
    """Check that the generator with the recorded seed rewrites the committed files."""
    seed = json.loads((SAMPLE / "planted_truth.json").read_text())["seed"]
    write_sample_data(tmp_path, random_state=seed)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (SAMPLE / name).read_bytes(), name


def test_sample_data_is_small():
    """Check that the committed sample data stays under 1 MB in total."""
    assert sum((SAMPLE / name).stat().st_size for name in FILES) < 1_000_000


def test_sample_data_loads_through_the_loader():
    """Check that planted.arff + planted.xml load with the documented shape."""
    ds = load_dataset(SAMPLE / "planted.arff")
    stats = ds.stats()
    assert (stats["N"], stats["M"], stats["q"]) == (1500, 2000, 10)
    assert ds.name == "planted" and ds.label_names[0] == "topic00"


def test_planted_words_are_informative():
    """Check that every planted word is more frequent when its label is on."""
    ds = load_dataset(SAMPLE / "planted.arff")
    truth = json.loads((SAMPLE / "planted_truth.json").read_text())
    present = (ds.X > 0).astype(float)
    for i, name in enumerate(ds.label_names):
        words = truth["informative"][name]
        on = ds.Y[:, i] == 1
        rate_on = np.asarray(present[on][:, words].mean(axis=0)).ravel()
        rate_off = np.asarray(present[~on][:, words].mean(axis=0)).ravel()
        assert (rate_on > rate_off + 0.1).all(), name


def test_labels_vary_in_frequency_and_co_occur():
    """Check that label frequencies span common to rare and pairs co-occur."""
    ds, _ = make_planted_corpus(random_state=0)
    freq = ds.Y.mean(axis=0)
    assert freq.max() > 0.25 and freq.min() < 0.05
    first = ds.Y[:, 0] == 1
    assert ds.Y[first, 1].mean() > ds.Y[~first, 1].mean() + 0.3


def test_duplicates_track_their_planted_word():
    """Check that near-duplicate words correlate strongly with their planted word."""
    ds, truth = make_planted_corpus(random_state=0)
    X = ds.X.toarray()
    for copy, source in truth["redundant"].items():
        assert np.corrcoef(X[:, int(copy)], X[:, source])[0, 1] > 0.7


def test_same_seed_same_corpus_other_seed_differs():
    """Check that the generator is reproducible and seed-dependent."""
    a, _ = make_planted_corpus(300, 400, 4, 3, random_state=5)
    b, _ = make_planted_corpus(300, 400, 4, 3, random_state=5)
    c, _ = make_planted_corpus(300, 400, 4, 3, random_state=6)
    assert a.content_hash() == b.content_hash() != c.content_hash()
