"""One set of input limits for every reader: CSV, svmlight, labels XML and results
tables (gzip too) are refused on their declared or discovered size before they
are allocated, names are bounded, and each message names the file and count."""

from __future__ import annotations

import gzip
import subprocess
import sys

import pytest

from mlfs_core.data import load_dataset
from mlfs_core.data import mulan_xml as xml_module
from mlfs_core.data.csvfile import count_csv_columns
from mlfs_core.data.limits import ENV, Limits, bounded_stream, current_limits
from mlfs_core.errors import ConfigError, DatasetError, MLFSError
from mlfs_core.evaluation.config import config_from_toml, load_config
from mlfs_core.evaluation.io import read_results, read_selections


def test_every_budget_has_its_variable_and_a_positive_default():
    """Check the documented variables and that each one raises its budget."""
    assert set(ENV) == set(Limits.__dataclass_fields__)
    env = dict.fromkeys(ENV.values(), "7")
    assert set(vars(current_limits(env)).values()) == {7}
    with pytest.raises(DatasetError, match="MLFS_MAX_TEXT_MB must be a positive"):
        current_limits({"MLFS_MAX_TEXT_MB": "-1"})


def _gzip_bomb(path, megabytes: int) -> None:
    """A results.csv.gz with a valid header, then ``megabytes`` MB of zeros."""
    block = b"0" * (1 << 20)
    with gzip.open(path, "wb", compresslevel=1) as fh:
        fh.write(b"dataset,method,budget,metric,value\n")
        for _ in range(megabytes):
            fh.write(block)


def test_a_gzip_bomb_is_refused_while_it_streams(tmp_path, monkeypatch):
    """Check a small .csv.gz that unpacks to 64 MB is refused at a 16 MB budget
    after reading just above the budget, naming the file and both sizes."""
    path = tmp_path / "results.csv.gz"
    _gzip_bomb(path, 64)
    assert path.stat().st_size < 1_000_000
    monkeypatch.setenv("MLFS_MAX_TEXT_MB", "16")
    with pytest.raises(MLFSError) as info:
        read_results(path)
    text = str(info.value)
    assert text.startswith("results.csv.gz: more than 16 MB of text once decompressed")
    assert f"the file holds {path.stat().st_size:,} bytes" in text
    assert "after 16,777,217 bytes" in text and "MLFS_MAX_TEXT_MB" in text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_gzip_bomb_costs_no_memory(tmp_path):
    """Check, in a fresh process, that refusing a 600 MB bomb at the default
    budget's scale (here 32 MB) keeps the peak memory far below its size."""
    path = tmp_path / "results.csv.gz"
    _gzip_bomb(path, 600)
    code = (
        "import sys\n"
        "from mlfs_core.evaluation.io import read_results\n"
        "from mlfs_core.data.limits import Limits\n"
        "try:\n"
        f"    read_results({str(path)!r}, limits=Limits(max_text_mb=32))\n"
        "except ValueError as exc:\n"
        "    print(exc)\n"
        # VmHWM: this process image's peak (ru_maxrss may hold the parent's)
        "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert "more than 32 MB of text once decompressed" in out[0]
    assert int(out[-1]) < 400_000  # KiB: the bomb is 600 MB unpacked


def test_a_plain_table_above_the_budget_is_refused_before_reading(tmp_path):
    """Check a plain results.csv above the budget is refused by its size."""
    path = tmp_path / "results.csv"
    path.write_bytes(b"dataset,method,budget,metric,value\n" + b"0" * (3 << 20))
    with pytest.raises(MLFSError, match=r"results.csv: 3,145,7\d\d bytes of text"):
        read_results(path, limits=Limits(max_text_mb=2))
    with pytest.raises(MLFSError, match="refused before reading"):
        read_selections(path, limits=Limits(max_text_mb=2))


def test_an_uploaded_stream_is_bounded_too():
    """Check a file object (an upload) is read through the same bound."""
    import io

    data = io.BytesIO(b"dataset,method,budget,metric,value\n" + b"0" * (3 << 20))
    with pytest.raises(MLFSError, match="<stream>: more than 2 MB of text"):
        read_results(data, limits=Limits(max_text_mb=2))
    with bounded_stream(io.BytesIO(b"abc"), "x", Limits(max_text_mb=1)) as fh:
        assert fh.read() == b"abc"


def test_a_csv_with_too_many_columns_is_refused_before_its_header_is_split(
    tmp_path, monkeypatch
):
    """Check a CSV header's columns count against MLFS_MAX_ATTRIBUTES by a byte
    scan: the csv module never sees the file."""
    path = tmp_path / "wide.csv"
    n = 2_500_000
    path.write_text(",".join(f"f{i}" for i in range(n)) + "\n" + "0," * (n - 1) + "1\n")
    assert count_csv_columns(path) == n
    monkeypatch.setattr(
        "mlfs_core.data.csvfile.csv.reader",
        lambda *a, **k: pytest.fail("the header was split"),
    )
    with pytest.raises(DatasetError) as info:
        load_dataset(path, label_count=-1)
    text = str(info.value)
    assert str(path) in text and "2,500,000 columns" in text
    assert "budget of 1,000,000" in text and "MLFS_MAX_ATTRIBUTES" in text


def test_csv_rows_are_bounded_while_reading(tmp_path, monkeypatch):
    """Check MLFS_MAX_INSTANCES bounds a CSV's rows, naming the line."""
    path = tmp_path / "long.csv"
    path.write_text("a,y\n" + "1,0\n" * 50)
    monkeypatch.setenv("MLFS_MAX_INSTANCES", "20")
    with pytest.raises(DatasetError, match=r"long.csv, line 22: more than 20 rows"):
        load_dataset(path, label_count=-1)


def test_a_labels_xml_with_a_million_labels_is_refused_before_parsing(
    tmp_path, monkeypatch
):
    """Check the <label> tags are counted before the XML tree is built."""
    arff = tmp_path / "d.arff"
    arff.write_text(
        "@relation r\n@attribute a numeric\n@attribute l0 {0,1}\n@data\n1,1\n"
    )
    xml = tmp_path / "d.xml"
    body = "".join(f'<label name="l{i}"/>' for i in range(1_000_000))
    xml.write_text(f"<labels>{body}</labels>")
    monkeypatch.setattr(
        xml_module.SafeET,
        "fromstring",
        lambda *a, **k: pytest.fail("the XML was parsed"),
    )
    with pytest.raises(DatasetError) as info:
        load_dataset(arff, labels=str(xml))
    text = str(info.value)
    assert "d.xml" in text and "1,000,000 labels" in text
    assert "budget of 100,000" in text and "MLFS_MAX_LABELS" in text


def test_svmlight_sizes_are_checked_while_streaming(tmp_path, monkeypatch):
    """Check an svmlight file's discovered index, rows and values against the
    budgets, naming the file and line."""
    wide = tmp_path / "wide.svm"
    wide.write_text("0 1:1\n1 3000000:1\n")
    with pytest.raises(DatasetError) as info:
        load_dataset(wide)
    text = str(info.value)
    assert "wide.svm, line 2: feature or label index 3,000,000" in text
    assert "MLFS_MAX_ATTRIBUTES" in text
    long = tmp_path / "long.svm"
    long.write_text("0 1:1 2:1\n" * 30)
    monkeypatch.setenv("MLFS_MAX_CELLS", "50")
    with pytest.raises(DatasetError, match=r"long.svm, line 26: 52 values"):
        load_dataset(long)


def test_a_huge_experiment_name_is_refused(monkeypatch):
    """Check a 500,000-character experiment name is a ConfigError with its
    length, and the budget is raised by MLFS_MAX_NAME_CHARS."""
    name = "x" * 500_000
    text = f'name = "{name}"\nmethods = ["MaxCS"]\n[[datasets]]\npath = "sample"\n'
    with pytest.raises(ConfigError) as info:
        config_from_toml(text)
    message = str(info.value)
    assert "the experiment name has 500,000 characters" in message
    assert "budget of 1,000" in message and len(message) < 400
    monkeypatch.setenv("MLFS_MAX_NAME_CHARS", "600000")
    assert config_from_toml(text).name == name


def test_a_200_mb_config_is_refused_before_parsing(tmp_path):
    """Check the issue's 200 MB experiment name: the config file is refused by
    its size, naming the file, before the TOML parser (about 1 s per MB)."""
    path = tmp_path / "huge.toml"
    with open(path, "w") as fh:
        fh.write('name = "')
        for _ in range(200):
            fh.write("x" * (1 << 20))
        fh.write('"\nmethods = ["MaxCS"]\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"config {path}: 209,715,2")
    assert "budget of 8 MB" in message and "MLFS_MAX_CONFIG_MB" in message


def test_long_method_and_dataset_names_are_refused():
    """Check method labels and dataset names are bounded with the rest of the
    config's problems."""
    long = "m" * 2000
    text = (
        f'methods = [{{name = "MaxCS", label = "{long}"}}]\n'
        f'[[datasets]]\npath = "sample"\nname = "{long}"\n'
    )
    with pytest.raises(ConfigError) as info:
        config_from_toml(text)
    message = str(info.value)
    assert "methods: the method name has 2,000 characters" in message
    assert "datasets: the dataset name has 2,000 characters" in message


def test_long_feature_and_label_names_are_refused(tmp_path):
    """Check a data file's feature and label names are bounded, naming the file."""
    path = tmp_path / "names.csv"
    path.write_text(f"a,{'b' * 1500},y\n1,2,1\n0,1,0\n")
    with pytest.raises(DatasetError) as info:
        load_dataset(path, label_count=-1)
    text = str(info.value)
    assert "names.csv, line 1: column name 2 has 1,500 characters" in text
    arff = tmp_path / "names.arff"
    arff.write_text(
        f"@relation r\n@attribute a numeric\n@attribute {'l' * 1200} {{0,1}}\n"
        "@data\n1,1\n0,0\n"
    )
    with pytest.raises(
        DatasetError, match=r"names.arff: the label name has 1,200 characters"
    ):
        load_dataset(arff, label_count=-1)
