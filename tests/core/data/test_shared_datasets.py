"""Every shared benchmark dataset loads by folder path and matches MANIFEST.tsv."""

from __future__ import annotations

import csv
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

from mlfs_core.data import Dataset, load_dataset
from mlfs_core.errors import DatasetError

ROOT = Path(__file__).resolve().parents[3]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
MANIFEST = DATASETS / "MANIFEST.tsv"

# Documented differences between MANIFEST's M and our M (see mlfs_core.data._encode):
M_ADJUSTED = {
    # the nominal protein-ID attribute (662 values, one per row) is dropped
    "genbase": 1185,
    # nominal 'location' with 12 values -> 12 one-hot columns: 260 - 1 + 12
    "birds": 271,
    # landmass(6), zone(4), language(10), religion(8) one-hot: 19 - 4 + 28
    "flags": 43,
}
SPLIT_SIZES = {
    "scene": (1211, 1196),
    "birds": (322, 323),
    "yahoo-arts": (2000, 3000),
    "yahoo-education": (2000, 3000),
}


def _manifest_rows() -> list[dict]:
    if not MANIFEST.is_file():
        return []
    with open(MANIFEST, newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


@pytest.mark.parametrize("row", _manifest_rows(), ids=lambda r: r["name"])
def test_shared_dataset_matches_manifest(row, shared_datasets):
    """Check that the dataset loads by folder path and N, M, q, LC, LD, DC match."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ds = load_dataset(shared_datasets / row["name"])
    stats = ds.stats()
    assert (stats["N"], stats["q"], stats["DC"]) == (
        int(row["N"]),
        int(row["q"]),
        int(row["DC"]),
    )
    assert stats["M"] == M_ADJUSTED.get(row["name"], int(row["M"]))
    for key in ("LC", "LD"):
        assert round(stats[key], _decimals(row[key])) == pytest.approx(float(row[key]))
    assert ds.X.shape == (stats["N"], stats["M"]) and ds.Y.dtype == np.int8
    assert len(ds.feature_names) == stats["M"] and len(ds.label_names) == stats["q"]
    assert ds.name == row["name"]


def test_manifest_is_read(shared_datasets):
    """Check that the manifest lists every shared dataset folder (24 of them)."""
    names = {row["name"] for row in _manifest_rows()}
    folders = {p.name for p in shared_datasets.iterdir() if p.is_dir()}
    assert len(names) == 24 and names == folders


@pytest.mark.parametrize("name", sorted(SPLIT_SIZES))
def test_split_datasets_keep_their_split(name, shared_datasets):
    """Check that -train/-test and train_/test_ datasets expose their own split."""
    ds = load_dataset(shared_datasets / name)
    train, test = ds.train_test()
    assert (train.size, test.size) == SPLIT_SIZES[name]
    assert train.max() < test.min()


def test_unsplit_dataset_has_no_split(shared_datasets):
    """Check that a single-file dataset has split None and train_test() None."""
    ds = load_dataset(shared_datasets / "emotions")
    assert ds.split is None and ds.train_test() is None


@pytest.mark.parametrize("name", ["yeast", "enron"])
def test_label_order_follows_arff_not_xml(name, shared_datasets):
    """Check that labels keep the ARFF attribute order even when the XML differs."""
    folder = shared_datasets / name
    ds = load_dataset(folder)
    text = (folder / f"{name}.arff").read_text()
    lines = [
        line.split()[1]
        for line in text.splitlines()
        if line.lower().startswith("@attribute")
    ]
    positions = [lines.index(label) for label in ds.label_names]
    assert positions == sorted(positions)


def test_medical_labels_found_by_xml_not_meka_c(shared_datasets):
    """Check that medical's wrong '-C 45' is overridden by the XML (labels last)."""
    ds = load_dataset(shared_datasets / "medical")
    assert ds.label_names[0].startswith("Class-0")
    assert ds.n_features == 1449


def test_slashdot_labels_first_by_name(shared_datasets):
    """Check that slashdot's labels are found first by name and two never occur."""
    ds = load_dataset(shared_datasets / "slashdot")
    assert ds.label_names[:3] == ["Entertainment", "Interviews", "Main"]
    assert int((ds.Y.sum(axis=0) == 0).sum()) == 2


def test_birds_escaped_quote_names_match_xml(shared_datasets):
    """Check that birds' 'Swainson\\'s Thrush' is read as the XML spells it."""
    ds = load_dataset(shared_datasets / "birds")
    assert "Swainson's Thrush" in ds.label_names
    assert "location=10" in ds.feature_names
    assert int((ds.Y.sum(axis=1) == 0).sum()) == 294


def test_genbase_id_dropped_and_yes_is_one(shared_datasets):
    """Check that genbase's protein ID is dropped with a warning and YES encodes 1."""
    with pytest.warns(UserWarning, match="protein"):
        ds = load_dataset(shared_datasets / "genbase")
    assert "protein" not in ds.feature_names
    assert ds.X.max() == 1.0
    assert ds.X.nnz < ds.n_samples * ds.n_features / 2  # YES is rare, so 1 is rare


@pytest.mark.parametrize("name", ["GnegativePseAAC", "PlantPseAAC"])
def test_pseaac_needs_hint(name, shared_datasets):
    """Check that PseAAC loads through its hint and errors clearly without one."""
    ds = load_dataset(shared_datasets / name)
    assert all(label.startswith("Label") for label in ds.label_names)
    with pytest.raises(
        DatasetError, match="no way to tell which attributes are labels"
    ):
        load_dataset(shared_datasets / name, use_hints=False)
    explicit = load_dataset(
        shared_datasets / name, label_prefix="Label", use_hints=False
    )
    assert explicit.content_hash() == ds.content_hash()


def test_content_hash_is_stable_for_a_shared_dataset(shared_datasets):
    """Check that two loads give the same hash and it differs from another dataset."""
    a = load_dataset(shared_datasets / "emotions")
    b = load_dataset(shared_datasets / "emotions")
    c = load_dataset(shared_datasets / "flags")
    assert a.content_hash() == b.content_hash() != c.content_hash()
    assert isinstance(a, Dataset)
