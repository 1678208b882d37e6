"""Issue 44 item 7: the smaller things a new user trips over."""

from __future__ import annotations

import io
import sys
import warnings

import numpy as np
import pytest

from mlfs_core.cli import main
from mlfs_core.errors import ConfigError


def test_load_dataset_knows_the_sample(tmp_path, monkeypatch):
    """Check load_dataset("sample") loads the bundled sample, as the CLI does."""
    from mlfs_core.data import load_dataset

    monkeypatch.chdir(tmp_path)  # no file or folder called "sample" here
    ds = load_dataset("sample")
    assert ds.name == "sample" and ds.X.shape == (1500, 2000)


@pytest.mark.parametrize(
    ("alias", "name"), [("cs", "chi2"), ("CS", "chi2"), ("or", "odds_ratio")]
)
def test_label_scores_accepts_the_method_suffixes(alias, name):
    """Check "cs" (the methods are named CS) is chi2, "or" odds_ratio."""
    from mlfs_core.measures import label_scores

    rng = np.random.default_rng(0)
    X, Y = rng.integers(0, 2, (40, 7)), rng.integers(0, 2, (40, 3))
    assert np.array_equal(label_scores(X, Y, alias), label_scores(X, Y, name))


def test_an_unknown_measure_lists_the_aliases():
    """Check the error names the measures and their aliases."""
    from mlfs_core.measures import label_scores

    with pytest.raises(ConfigError, match=r"known measures: chi2, .*aliases: cs=chi2"):
        label_scores(np.eye(3), np.eye(3), "pearson")


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_writes_no_carriage_return_into_a_log(monkeypatch):
    """Check progress lines to a file or pipe are whole lines without \\r (the
    first and last at least), and rewrite one line on a terminal."""
    from mlfs_core.cli import _base

    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    monkeypatch.setattr(_base, "_LAST_LINE", [float("-inf")])
    for done in range(1, 51):
        _base.progress(done, 50, f"task {done}")
    text = log.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert lines[0] == "[1/50] task 1" and lines[-1] == "[50/50] task 50"
    assert len(lines) < 50  # not one line per task
    tty = _Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    _base.progress(1, 2, "task 1")
    assert tty.getvalue().startswith("\r[1/2] task 1")


def test_cli_warnings_are_one_line_without_source(tmp_path, capsys, monkeypatch):
    """Check a warning raised under a command prints one 'mlfs CMD: warning:'
    line, not the file name and a bare source line."""
    import mlfs_core.cli.data as cli_data

    def warns(args):
        warnings.warn("two\nlines", UserWarning, stacklevel=2)
        return 0

    monkeypatch.setattr(cli_data, "stats_command", warns)
    assert main(["stats", "sample"]) == 0
    err = capsys.readouterr().err
    assert err == "mlfs stats: warning: two lines\n"


def test_an_engine_warning_points_at_the_users_line(tmp_path):
    """Check the sparse-label warning of planning is located at the caller's
    line (this file), not at the engine's ``check_n_folds(`` call."""
    from mlfs_core.evaluation import ExperimentConfig, plan_experiment
    from mlfs_core.evaluation.config import protocol_preset

    rows = "\n".join(
        f"{int(i < 2)},{int(i % 2 == 0)},{i % 3},{(i * 7) % 5}" for i in range(30)
    )  # label y: 2 positives < 5 folds; label z: 15
    path = tmp_path / "tiny.arff"
    path.write_text(
        "@relation 'tiny: -C 2'\n@attribute y {0,1}\n@attribute z {0,1}\n"
        "@attribute a numeric\n@attribute b numeric\n"
        f"@data\n{rows}\n"
    )
    config = ExperimentConfig(
        datasets=[str(path)],
        methods=["MaxCS"],
        protocol=protocol_preset("A", n_folds=5, budgets=(50,)),
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plan_experiment(config)
    sparse = [w for w in caught if "fewer positive samples" in str(w.message)]
    assert sparse, [str(w.message) for w in caught]
    assert sparse[0].filename == __file__
