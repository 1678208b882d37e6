"""Hostile data files: declared size refused, encodings named, one-name labels."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from mlfs_core.data import arff as arff_module
from mlfs_core.data import load_dataset
from mlfs_core.data.limits import count_arff_attributes, current_limits
from mlfs_core.errors import DatasetError


def _wide_arff(path, n_attributes: int, n_rows: int = 2) -> None:
    with open(path, "w") as fh:
        fh.write("@relation wide\n")
        for i in range(n_attributes):
            fh.write(f"@attribute a{i} numeric\n")
        fh.write("@attribute y {0,1}\n@data\n")
        for r in range(n_rows):
            fh.write(",".join(["0"] * n_attributes + [str(r % 2)]) + "\n")


def test_a_header_above_the_budget_is_refused_before_parsing(tmp_path, monkeypatch):
    """Check the message (file and count) and that the header is never parsed."""
    path = tmp_path / "wide.arff"
    _wide_arff(path, 3000)
    monkeypatch.setenv("MLFS_MAX_ATTRIBUTES", "2000")

    def no_parse(*args, **kwargs):
        raise AssertionError("the header was parsed")

    monkeypatch.setattr(arff_module, "parse_header", no_parse)
    with pytest.raises(DatasetError) as info:
        load_dataset(path, label_count=-1)
    message = str(info.value)
    assert str(path) in message
    assert "3,001 attributes" in message and "2,000" in message
    assert "MLFS_MAX_ATTRIBUTES" in message


def test_a_stream_above_the_budget_is_refused_while_parsing(monkeypatch):
    """Check that a file object (no byte scan) is refused at the budget's line."""
    buffer = io.StringIO()
    buffer.write(
        "@relation w\n" + "".join(f"@attribute a{i} real\n" for i in range(50))
    )
    buffer.write("@data\n" + ",".join("0" * 50) + "\n")
    buffer.seek(0)
    monkeypatch.setenv("MLFS_MAX_ATTRIBUTES", "20")
    with pytest.raises(DatasetError, match=r"line 22: .*more than 20 attributes"):
        load_dataset(buffer, label_count=1)


def test_the_default_budget_refuses_ten_million_attributes(tmp_path):
    """Check the default budget against the issue's file shape (count only)."""
    assert current_limits({}).max_attributes < 10_000_000
    path = tmp_path / "h.arff"
    path.write_bytes(
        b"% comment\n@RELATION r\n\n  @attribute a real\n@attribute b real\n"
        b"@Attribute 'c d' {x,y}\n@data\n1,2,x\n"
    )
    assert count_arff_attributes(path) == 3


def test_mlfs_stats_refuses_a_wide_file_quickly(tmp_path):
    """Check the command line: exit 2, the file and the count, no traceback."""
    path = tmp_path / "wide.arff"
    _wide_arff(path, 1500)
    env = {"MLFS_MAX_ATTRIBUTES": "1000"}
    import os

    done = subprocess.run(
        [sys.executable, "-m", "mlfs_core", "stats", str(path)],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "1,501 attributes" in done.stderr and str(path) in done.stderr
    assert "Traceback" not in done.stderr


def test_an_xml_with_too_many_labels_is_refused(tmp_path, monkeypatch):
    """Check the label budget of a Mulan XML."""
    from mlfs_core.data.mulan_xml import read_label_names

    xml = tmp_path / "l.xml"
    labels = "".join(f'<label name="y{i}"/>' for i in range(30))
    xml.write_text(
        f'<labels xmlns="http://mulan.sourceforge.net/labels">{labels}</labels>'
    )
    monkeypatch.setenv("MLFS_MAX_LABELS", "10")
    with pytest.raises(DatasetError, match=r"l\.xml: the header declares 30 labels"):
        read_label_names(xml)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_a_wide_encoding_is_named(tmp_path, encoding):
    """Check that a UTF-16/32 file's message names its encoding and the file."""
    path = tmp_path / "u.arff"
    text = "@relation r\n@attribute a real\n@attribute y {0,1}\n@data\n1,0\n2,1\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path.write_bytes(data)
    with pytest.raises(DatasetError) as info:
        load_dataset(path, labels=["y"])
    message = str(info.value)
    assert str(path) in message
    assert encoding.split("-")[0].upper().replace("UTF", "UTF-") in message
    assert "save it as UTF-8" in message


def test_a_utf16_file_without_bom_is_named(tmp_path):
    """Check that NUL bytes in the first line are reported as a wide encoding."""
    path = tmp_path / "n.csv"
    path.write_bytes("a,y\n1,0\n".encode("utf-16-le"))
    with pytest.raises(DatasetError, match="UTF-16 or UTF-32"):
        load_dataset(path, labels="y")


def test_labels_given_as_one_string_is_one_name(tmp_path):
    """Check that labels="topic00" names one label, not the letters t, o, p..."""
    path = tmp_path / "t.csv"
    path.write_text("w1,w2,topic00\n1,0,1\n0,1,0\n1,1,1\n")
    ds = load_dataset(path, labels="topic00")
    assert ds.label_names == ["topic00"]
    assert ds.feature_names == ["w1", "w2"]
    assert ds.Y.ravel().tolist() == [1, 0, 1]


def test_a_config_dataset_with_one_label_string(tmp_path):
    """Check the config's datasets[].labels = "name" the same way."""
    from mlfs_core.evaluation.config import config_from_toml

    c = config_from_toml(
        'methods = ["MaxCS"]\n[[datasets]]\npath = "x.csv"\nlabels = "topic00"\n'
    )
    assert c.datasets[0].labels == ("topic00",)


def test_a_mat_file_above_the_budget_is_refused_before_loading(tmp_path, monkeypatch):
    """Check a .mat whose header declares too many values: named, never loaded."""
    import numpy as np
    import scipy.io

    path = tmp_path / "big.mat"
    scipy.io.savemat(path, {"data": np.zeros((30, 20)), "target": np.ones((2, 30))})
    monkeypatch.setenv("MLFS_MAX_CELLS", "500")

    def no_load(*args, **kwargs):
        raise AssertionError("the data were loaded")

    monkeypatch.setattr(scipy.io, "loadmat", no_load)
    with pytest.raises(DatasetError) as info:
        load_dataset(path)
    message = str(info.value)
    assert str(path) in message and "'data' declares 30 x 20 = 600 values" in message
    assert "MLFS_MAX_CELLS" in message
