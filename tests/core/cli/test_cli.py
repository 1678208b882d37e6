"""Tests of the ``mlfs`` command line."""

import argparse
import io
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from mlfs_core.cli import main
from mlfs_core.data import Dataset
from mlfs_core.data.synthetic import write_mulan

# six samples: features w0..w2, then labels L1 and L2
ROWS = np.array(
    [
        [1, 0, 2, 1, 0],
        [1, 0, 0, 1, 0],
        [0, 3, 1, 0, 1],
        [0, 1, 0, 0, 1],
        [2, 0, 0, 1, 1],
        [0, 0, 1, 0, 0],
    ]
)


@pytest.fixture
def tiny(tmp_path):
    dataset = Dataset(ROWS[:, :3], ROWS[:, 3:], ["w0", "w1", "w2"], ["L1", "L2"])
    return write_mulan(dataset, tmp_path, "tiny")


def _run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_stats_prints_table3_columns(tiny, capsys):
    """Check that `mlfs stats` prints N, M, q, LC, LD, DC for a dataset."""
    status, out, _ = _run(capsys, "stats", str(tiny))
    df = pd.read_csv(io.StringIO(out))
    assert status == 0
    assert df.loc[0, ["N", "M", "q"]].tolist() == [6, 3, 2]
    assert df.loc[0, "LC"] == pytest.approx(1.0)  # 6 label assignments over 6 rows
    assert df.loc[0, "DC"] == 4


def test_rank_writes_csv_with_positions(tiny, capsys, tmp_path):
    """Check that `mlfs rank` writes position,feature_index,feature_name,score in rank
    order.
    """
    out_file = tmp_path / "r.csv"
    status, _, _ = _run(
        capsys,
        "rank",
        str(tiny),
        "--method",
        "MaxCS",
        "--k",
        "2",
        "--out",
        str(out_file),
    )
    df = pd.read_csv(out_file)
    assert status == 0
    assert list(df.columns) == ["position", "feature_index", "feature_name", "score"]
    assert df["position"].tolist() == [1, 2]
    assert df["feature_name"].tolist() == [f"w{j}" for j in df["feature_index"]]
    assert df["score"].is_monotonic_decreasing


def test_rank_seed_reproducible(tiny, capsys):
    """Check that the same --seed gives the same Random ranking."""
    _, a, _ = _run(capsys, "rank", str(tiny), "--method", "Random", "--seed", "5")
    _, b, _ = _run(capsys, "rank", str(tiny), "--method", "Random", "--seed", "5")
    assert a == b and len(a.splitlines()) == 4


def test_scores_matrix(tiny, capsys):
    """Check that `mlfs scores` writes one row per label and one column per feature."""
    status, out, _ = _run(capsys, "scores", str(tiny), "--measure", "bns")
    df = pd.read_csv(io.StringIO(out))
    assert status == 0 and df["label"].tolist() == ["L1", "L2"]
    assert list(df.columns[1:]) == ["w0", "w1", "w2"]
    assert np.isfinite(df.iloc[:, 1:].to_numpy()).all()


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["rank", "{tiny}", "--method", "Nope"], "unknown method"),
        (
            ["rank", "{tiny}", "--method", "MaxCS", "--k", "9"],
            "larger than the number of features",
        ),
        (["scores", "{tiny}", "--measure", "gini"], "unknown measure"),
        (["stats", "{missing}"], "missing"),
    ],
)
def test_bad_input_exits_nonzero_with_message(argv, match, tiny, capsys, tmp_path):
    """Check that bad input gives exit status 2 and a one-line message, no traceback."""
    argv = [a.format(tiny=tiny, missing=tmp_path / "missing.arff") for a in argv]
    status, _, err = _run(capsys, *argv)
    assert status == 2
    assert match in err and "Traceback" not in err


def test_python_dash_m_runs(tiny):
    """Check that `python -m mlfs_core` runs the same command line."""
    proc = subprocess.run(
        [sys.executable, "-m", "mlfs_core", "stats", str(tiny)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("dataset,")


def test_rank_warns_about_dense_data_and_takes_binarize(shared_datasets, capsys):
    """Check `mlfs rank` warns on yeast under presence; --binarize median fixes it."""
    from mlfs_core.cli import main

    path = str(shared_datasets / "yeast")
    assert main(["rank", path, "--method", "MaxCS", "--k", "3"]) == 0
    presence = capsys.readouterr()
    assert "Dense data" in presence.err and "median" in presence.err
    argv = ["rank", path, "--method", "MaxCS", "--k", "3", "--binarize", "median"]
    assert main(argv) == 0
    median = capsys.readouterr()
    assert "Dense data" not in median.err
    assert median.out.splitlines()[1:] != presence.out.splitlines()[1:]


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["experiment", "cfg.toml", "--out", "o", "--jobs", "0"], "--jobs: must be a"),
        (["experiment", "cfg.toml", "--out", "o", "--jobs", "two"], "--jobs: must be"),
        (["verify", "d", "--jobs", "0"], "--jobs: must be a non-zero"),
        (["rank", "x.arff"], "required: --method"),
        (["nosuchcommand"], "invalid choice"),
        (["rank", "x.arff", "--method", "MaxCS", "--k", "many"], "invalid int"),
    ],
)
def test_argument_errors_are_one_line_with_status_2(argv, match):
    """Check that argparse errors print one line (no usage block) and exit 2."""
    proc = subprocess.run(
        [sys.executable, "-m", "mlfs_core", *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and match in proc.stderr, proc.stderr
    assert "usage" not in proc.stderr and "Traceback" not in proc.stderr


def test_an_internal_error_is_one_line_with_status_2(tiny, capsys, monkeypatch):
    """Check that even an unexpected exception prints one line, not a traceback."""
    import mlfs_core.cli.data as cli_data

    def broken(args):
        raise TypeError("something\nunexpected")

    monkeypatch.setattr(cli_data, "stats_command", broken)
    monkeypatch.delenv("MLFS_DEBUG", raising=False)
    status, _, err = _run(capsys, "stats", str(tiny))
    assert status == 2
    expected = "mlfs stats: error: internal error (TypeError): something unexpected"
    assert err == expected + " (--debug or MLFS_DEBUG=1 shows the traceback)\n"


def test_debug_prints_the_whole_traceback(tiny, capsys, monkeypatch):
    """Check --debug (before or after the sub-command) and MLFS_DEBUG=1 print
    the traceback above the one-line error."""
    import mlfs_core.cli.data as cli_data

    def broken(args):
        raise TypeError("something unexpected")

    monkeypatch.setattr(cli_data, "stats_command", broken)
    monkeypatch.delenv("MLFS_DEBUG", raising=False)
    for argv in (["--debug", "stats", str(tiny)], ["stats", str(tiny), "--debug"]):
        status, _, err = _run(capsys, *argv)
        assert status == 2
        assert err.startswith("Traceback (most recent call last):")
        assert 'raise TypeError("something unexpected")' in err
        assert err.endswith("internal error (TypeError): something unexpected\n")
    monkeypatch.setenv("MLFS_DEBUG", "1")
    status, _, err = _run(capsys, "stats", str(tiny))
    assert err.startswith("Traceback") and status == 2


def test_methods_lists_each_options_allowed_values(capsys):
    """Check that `mlfs methods` shows defaults with choices and ranges."""
    status, out, _ = _run(capsys, "methods")
    table = pd.read_csv(io.StringIO(out)).set_index("method")
    assert status == 0
    assert table.loc["PMU", "options"] == (
        "bins=3 (int in [2, 1000]); discretize=uniform "
        "(uniform|quantile|binary|uniform-sklearn-1.0); variant=definition "
        "(definition|reference-code)"
    )
    assert (
        "weighting=inverse (inverse|proportional|uniform)"
        in table.loc["RaRBNS", "options"]
    )


def test_methods_lists_each_family_title_and_citation(capsys):
    """Check that `mlfs methods` states each method's family title and source."""
    from mlfs_core.selectors import families, get_method, list_methods

    status, out, _ = _run(capsys, "methods")
    table = pd.read_csv(io.StringIO(out), keep_default_na=False).set_index("method")
    assert status == 0
    assert list(table.index) == list_methods()
    assert list(table.columns) == [
        "family", "family_title", "stochastic", "options", "description", "citation"
    ]  # fmt: skip
    titles = dict(families())
    assert table.loc["MaxCS", "family_title"] == "Score + aggregation"
    assert table.loc["PMU", "citation"].startswith("Lee and Kim (2013)")
    for name, row in table.iterrows():
        assert row["family_title"] == titles[row["family"]]
        assert row["citation"] == get_method(name).citation


def test_rank_option_flags_come_from_the_registry(tiny):
    """Check the rank parser declares no method option by hand, every option of
    every registered method is taken as a flag (its default given back), and a
    value the registry does not allow is refused naming method and option."""
    from mlfs_core.cli import build_parser
    from mlfs_core.cli.data import _rank_params
    from mlfs_core.selectors import get_method, list_methods

    rank = build_parser()._subparsers._group_actions[0].choices["rank"]
    flags = {f for a in rank._actions for f in a.option_strings}
    for name in list_methods():
        options = get_method(name).options
        assert not {f"--{o.name}" for o in options} & flags - {"--k", "--seed"}
        given = [t for o in options for t in (f"--{o.name}", str(o.default))]
        args = argparse.Namespace(method=name, method_flags=given, param=None)
        assert _rank_params(args) == {o.name: o.default for o in options}
    proc = subprocess.run(
        [sys.executable, "-m", "mlfs_core", "rank", str(tiny), "--method", "PMU",
         "--variant", "reference"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "method 'PMU': PMU has no variant 'reference'" in proc.stderr


def test_stats_sample_reads_the_bundled_sample(capsys, tmp_path, monkeypatch):
    """Check that `mlfs stats sample` finds the bundled sample from any folder."""
    monkeypatch.chdir(tmp_path)
    status, out, _ = _run(capsys, "stats", "sample")
    df = pd.read_csv(io.StringIO(out))
    assert status == 0
    assert df.loc[0, ["dataset", "N", "q"]].tolist() == ["sample", 1500, 10]


def test_unknown_flags_are_refused_except_by_app():
    """Check that only `mlfs app` passes unknown flags on; others exit 2."""
    proc = subprocess.run(
        [sys.executable, "-m", "mlfs_core", "methods", "--server.port", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr == "mlfs: error: unrecognized arguments: --server.port 1\n"


def test_app_execs_streamlit_with_the_flags_and_the_blas_pin(monkeypatch):
    """Check that `mlfs app` runs `streamlit run app.py FLAGS` with the pin set."""
    import os

    from mlfs_core import blas
    from mlfs_core.cli import app

    calls = []

    def fake_execv(path, argv):
        calls.append((path, list(argv), dict(os.environ)))
        raise SystemExit(0)

    monkeypatch.setattr(app.os, "execv", fake_execv)
    monkeypatch.setattr(blas, "pinned_environment", lambda: {"OPENBLAS_CORETYPE": "X"})
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)
    with pytest.raises(SystemExit):
        main(["app", "--server.port", "8600", "--server.headless", "true"])
    ((path, argv, env),) = calls
    assert path == sys.executable and argv[1:4] == ["-m", "streamlit", "run"]
    assert argv[4] == str(app.app_script()) and argv[4].endswith("app.py")
    assert argv[5:9] == ["--server.port", "8600", "--server.headless", "true"]
    assert argv[9:] == [  # this machine only, no magic (mlfs_core.cli.app)
        "--server.address",
        "127.0.0.1",
        "--runner.magicEnabled",
        "false",
        "--browser.gatherUsageStats",
        "false",
    ]
    assert env["OPENBLAS_CORETYPE"] == "X"
    monkeypatch.delenv("OPENBLAS_CORETYPE", raising=False)


def test_app_script_prefers_the_checkout_then_the_installed_folder(
    tmp_path, monkeypatch
):
    """Check where `mlfs app` looks for app.py: beside mlfs_core, then mlfs_app/."""
    from mlfs_core.cli import app

    package = tmp_path / "site" / "mlfs_core"
    package.mkdir(parents=True)
    monkeypatch.setattr(app, "PACKAGE", package)
    with pytest.raises(FileNotFoundError, match="the app is not installed"):
        app.app_script()
    installed = tmp_path / "site" / "mlfs_app" / "app.py"
    installed.parent.mkdir()
    installed.write_text("")
    assert app.app_script() == installed
    (tmp_path / "site" / "app.py").write_text("")
    assert app.app_script() == tmp_path / "site" / "app.py"


def test_cli_modules_import_no_cycle():
    """Check the CLI package's import graph: commands import only `_base`."""
    import ast
    from pathlib import Path

    import mlfs_core.cli

    folder = Path(mlfs_core.cli.__file__).parent
    for path in sorted(folder.glob("*.py")):
        if path.name == "__init__.py":
            continue
        imported = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                imported.add(node.module)
            elif isinstance(node, ast.ImportFrom) and node.level == 2:
                assert node.module != "cli", path.name
        assert imported <= {"_base"}, (path.name, imported)


def test_help_and_stats_import_only_what_they_need():
    """Check `mlfs --help` imports neither numpy, pandas nor scikit-learn, and
    `mlfs stats` no pandas, scikit-learn nor scipy.io (start-up time, issue 44: the
    first `mlfs --help` took about 10 s); the timing is bench/bench_cli_start.py."""
    from pathlib import Path

    probe = (
        "import sys, runpy\n"
        "sys.argv = ['mlfs', *sys.argv[1:]]\n"
        "try:\n"
        "    runpy.run_module('mlfs_core', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ['numpy', 'pandas', 'sklearn', 'scipy.stats', 'scipy.io', "
        "'streamlit']\n"
        "print(' '.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    import os

    # a command run in this process earlier may have named plug-ins for its
    # workers in MLFS_PLUGINS: a user's shell starts without them
    env = {k: v for k, v in os.environ.items() if k != "MLFS_PLUGINS"}
    help_run = subprocess.run(
        [sys.executable, "-c", probe, "--help"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert help_run.stderr.strip() == "", help_run.stderr
    assert "check-plugin" in help_run.stdout
    stats_run = subprocess.run(
        [sys.executable, "-c", probe, "stats", "sample"],
        capture_output=True,
        text=True,
        cwd=str(Path(__file__).parent),
        env=env,
    )
    assert stats_run.stdout.startswith("dataset,N,M,q,LC,LD,DC\nsample,1500,2000,10,")
    assert stats_run.stderr.strip().splitlines()[-1] == "numpy"


def test_the_max_tasks_help_shows_the_engine_default():
    """Check the --max-tasks help (written out to keep --help light) states
    evaluation.runner.plan.bounds.DEFAULT_MAX_TASKS."""
    from mlfs_core.cli import build_parser
    from mlfs_core.evaluation.runner.plan.bounds import DEFAULT_MAX_TASKS

    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices["experiment"]
    (action,) = [a for a in sub._actions if "--max-tasks" in a.option_strings]
    assert f"(default {DEFAULT_MAX_TASKS:,})" in action.help


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
