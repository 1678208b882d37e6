"""``mlfs benchmark`` from an installed package: the study files from the
package (or --studies DIR), the datasets from --data DIR or MLFS_DATASETS
(named when missing), an existing output folder refused without --overwrite."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mlfs_core.benchmark import MANIFEST, get_suite, relocated
from mlfs_core.cli import main
from mlfs_core.errors import ConfigError

ARGS = ["benchmark", "--method", "IGMF", "--label", "Mine", "--suite", "paper001"]


def test_an_existing_output_folder_is_refused_without_overwrite(tmp_path, capsys):
    """Check a second run into the same folder is refused (nothing touched),
    as mlfs experiment refuses, until --overwrite."""
    out = tmp_path / "out"
    out.mkdir()
    (out / MANIFEST).write_text(json.dumps({"suite": "paper001"}))
    (out / "average_ranks.csv").write_text("kept")
    assert main([*ARGS, "--quick", "--out", str(out), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert "already exists; pass --overwrite to replace it" in err
    assert (out / "average_ranks.csv").read_text() == "kept"


def test_overwrite_replaces_only_a_benchmark_folder(tmp_path, capsys):
    """Check --overwrite refuses a folder that is not a benchmark's output."""
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my notes")
    argv = [*ARGS, "--quick", "--out", str(out), "--no-cache", "--overwrite"]
    assert main(argv) == 2
    assert "is not a benchmark's output folder" in capsys.readouterr().err
    assert (out / "notes.txt").read_text() == "my notes"


def test_missing_datasets_name_data_and_the_variable(tmp_path, capsys, monkeypatch):
    """Check a dataset not found names --data DIR and MLFS_DATASETS (was only
    "datasets[0].path: '.../emotions' not found")."""
    monkeypatch.delenv("MLFS_DATASETS", raising=False)
    empty = tmp_path / "no-datasets"
    empty.mkdir()
    argv = [*ARGS, "--quick", "--out", str(tmp_path / "o"), "--no-cache"]
    assert main([*argv, "--data", str(empty)]) == 2
    err = capsys.readouterr().err
    assert f"dataset 'emotions' not found at {empty / 'emotions'}" in err
    assert "--data DIR" in err and "MLFS_DATASETS" in err
    assert f"searched {empty}" in err
    assert not (tmp_path / "o").exists()


def test_the_studies_folder_can_be_given(tmp_path):
    """Check --studies DIR reads the suite's config (and data) from DIR, and a
    DIR without them is one error naming --studies."""
    suite = get_suite("paper001")
    moved = relocated(suite, studies=tmp_path)
    with pytest.raises(ConfigError, match="--studies DIR"):
        moved.load_config()
    (tmp_path / "configs").mkdir()
    shutil.copy(suite.config, tmp_path / "configs" / Path(suite.config).name)
    config = moved.load_config()
    assert moved.data_dir == tmp_path / "studies" / "paper001" / "data"
    assert [m.display for m in config.methods] == [
        m.display for m in suite.load_config().methods
    ]
