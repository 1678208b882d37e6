"""Every error names its place: a user method's error names the dataset and fold
(from workers too), a malformed results file names the file and line, a config
names its file, and one config error lists every problem."""

from __future__ import annotations

import io
import textwrap

import pytest

from mlfs_core.errors import ConfigError, MLFSError, RankingError, UserCodeError
from mlfs_core.evaluation import ExperimentConfig, ProtocolConfig, run_experiment
from mlfs_core.evaluation.config import DatasetSpec, MethodConfig, load_config
from mlfs_core.evaluation.io import read_results, read_selections
from mlfs_core.selectors import register, unregister

PLUGIN = '''
import numpy as np
from mlfs_core import Ranking
from mlfs_core.selectors import register


def rank_fragile(X, Y, *, k, random_state=None):
    """Fails on the second fold's training part (it holds fewer rows)."""
    if X.shape[0] < {rows}:
        raise ZeroDivisionError("too few rows")
    return Ranking(order=np.arange(k), scores=np.zeros(X.shape[1]))


register(rank_fragile, name="Fragile", score_kind="score", citation="test")
'''


def _error_line(err: str) -> str:
    """The command's error line: its last line, or the one before the note
    that says how many finished tasks were kept (a failed run's last line)."""
    lines = err.strip().splitlines()
    if len(lines) > 1 and lines[-1].startswith("mlfs experiment: kept: "):
        assert "rerun the same command to resume from them" in lines[-1]
        return lines[-2]
    return lines[-1]


def _config(tmp_path, rows: int) -> str:
    (tmp_path / "fragile.py").write_text(PLUGIN.format(rows=rows))
    path = tmp_path / "run.toml"
    path.write_text(
        textwrap.dedent(
            """\
            name = "fragile"
            seed = 0
            methods = ["Fragile"]

            [protocol]
            name = "A"
            n_folds = 2
            budgets = [10]
            metrics = ["micro_f1"]

            [[datasets]]
            path = "sample"
            """
        )
    )
    return str(path)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_plugin_error_names_dataset_fold_method_file_and_line(
    tmp_path, helpers, mark, jobs
):
    """Check `mlfs experiment --jobs N` names the method, its file and line, the
    error, the dataset, the fold and the repeat, in the main process and from
    worker processes alike."""
    config = _config(tmp_path, rows=10**9)  # every fold fails: the first is named
    proc = helpers.mlfs(
        "--plugin",
        tmp_path / "fragile.py",
        "experiment",
        config,
        "--out",
        tmp_path / "out",
        "--jobs",
        jobs,
        mark=mark,
    )
    _, err = proc.communicate(timeout=300)
    assert proc.returncode != 0
    last = _error_line(err)
    assert "method 'Fragile' (fragile.py:10) raised ZeroDivisionError" in last
    assert "too few rows" in last
    assert "(on dataset 'sample', fold " in last and ", repeat 0)" in last
    assert "Traceback" not in err and "internal error" not in err


def test_the_runner_names_the_failing_fold():
    """Check through the Python API that the fold named is the one that failed:
    the method fails only on the training part with the most non-zero values."""
    import numpy as np

    from mlfs_core import Ranking
    from mlfs_core.evaluation.runner import plan_experiment

    def config():
        return ExperimentConfig(
            datasets=[DatasetSpec("sample")],
            methods=[MethodConfig("MaxCS")],
            protocol=ProtocolConfig(name="A", n_folds=2, budgets=(10,)),
        )

    plan = plan_experiment(config())
    nnz = {}
    for s in plan.selections:
        nnz[s.fold] = s.dataset.dataset.X[s.dataset.splits[s.fold][0]].nnz
    assert len(set(nnz.values())) == 2, nnz  # the premise of the test
    failing = max(nnz, key=nnz.get)

    def rank_picky(X, Y, *, k, random_state=None):
        if X.nnz == nnz[failing]:
            raise ValueError("picky")
        return Ranking(order=np.arange(k), scores=np.zeros(X.shape[1]))

    register(rank_picky, name="Picky", score_kind="score", citation="test")
    try:
        picky = ExperimentConfig(
            datasets=[DatasetSpec("sample")],
            methods=[MethodConfig("Picky")],
            protocol=ProtocolConfig(name="A", n_folds=2, budgets=(10,)),
        )
        with pytest.raises(UserCodeError) as info:
            run_experiment(picky, cache_dir=None)
        place = f"dataset 'sample', fold {failing}, repeat 0"
        assert info.value.place == place
        assert str(info.value).endswith(f"(on {place})")
        assert "test_error_places.py:" in info.value.where
    finally:
        unregister("Picky")


def test_a_bad_ranking_names_the_place(tmp_path):
    """Check a method that returns an unusable ranking is named with the place."""
    import numpy as np

    from mlfs_core import Ranking

    def rank_short(X, Y, *, k, random_state=None):
        return Ranking(order=np.array([0, 0]), scores=np.zeros(X.shape[1]))

    register(rank_short, name="Short", score_kind="score", citation="test")
    try:
        config = ExperimentConfig(
            datasets=[DatasetSpec("sample")],
            methods=[MethodConfig("Short")],
            protocol=ProtocolConfig(name="A", n_folds=2, budgets=(10,)),
        )
        with pytest.raises(RankingError) as info:
            run_experiment(config, cache_dir=None)
        text = str(info.value)
        assert text.startswith("method 'Short' returned a bad ranking")
        assert text.endswith("(on dataset 'sample', fold 0, repeat 0)")
    finally:
        unregister("Short")


def test_mlfs_rank_names_the_dataset(tmp_path, helpers):
    """Check `mlfs rank` names the dataset the plug-in failed on."""
    config = _config(tmp_path, rows=10**9)
    del config
    proc = helpers.mlfs(
        "--plugin", tmp_path / "fragile.py", "rank", "sample", "--method", "Fragile"
    )
    _, err = proc.communicate(timeout=120)
    last = _error_line(err)
    assert "method 'Fragile' (fragile.py:10) raised ZeroDivisionError" in last
    assert "(on dataset 'sample', every row)" in last


def test_a_pickled_error_keeps_its_place():
    """Check the place travels with the error (worker processes pickle it)."""
    import pickle

    error = UserCodeError("method", "M", "m.py:3", "KeyError", "'x'").located(
        "dataset 'd', fold 2, repeat 1"
    )
    back = pickle.loads(pickle.dumps(error))
    assert str(back) == str(error)
    assert str(back).endswith("(on dataset 'd', fold 2, repeat 1)")
    assert back.located("elsewhere") is back  # the first place stays


RESULTS = "dataset,method,budget,fold,metric,value\n" + "".join(
    f"d,M,10,{i},micro_f1,0.5\n" for i in range(30)
)


def test_a_row_with_extra_fields_names_the_file_and_line(tmp_path):
    """Check the issue's malformed results.csv: line 24 with extra fields."""
    lines = RESULTS.splitlines()
    lines[23] += ",x,y"
    path = tmp_path / "results.csv"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(MLFSError) as info:
        read_results(path)
    text = str(info.value)
    assert text.startswith("results.csv, line 24: 8 fields where the header row has 6")
    assert "Error tokenizing" not in text and "C error" not in text


def test_an_unclosed_quote_names_the_line(tmp_path):
    """Check a quote never closed names the line it opens on, in a gzip file too."""
    import gzip

    lines = RESULTS.splitlines()
    lines[5] = 'd,"M,10,5,micro_f1,0.5'
    path = tmp_path / "selections.csv.gz"
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    with pytest.raises(MLFSError, match=r"selections.csv.gz, line 6: a quoted value"):
        read_selections(path)


def test_a_stream_and_a_binary_file_are_named():
    """Check an upload without a name and a non-UTF-8 file give their messages."""
    with pytest.raises(MLFSError, match=r"<stream>, line 3: 3 fields where"):
        read_results(io.BytesIO(b"dataset,value\nd,1\nd,2,3\n"))
    with pytest.raises(MLFSError, match=r"<stream> is not UTF-8 text"):
        read_results(io.BytesIO(b"dataset,value\n\xff\xfe,1\n"))


def test_a_deeply_nested_config_names_the_file(tmp_path, helpers):
    """Check a TOML nested 100,000 deep is a ConfigError naming the file, from
    the API and from the command line (no "internal error")."""
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(ConfigError, match=f"config {path}: arrays or tables nested"):
        load_config(path)
    proc = helpers.mlfs("experiment", path, "--out", tmp_path / "out")
    _, err = proc.communicate(timeout=120)
    assert f"config {path}: arrays or tables nested too deeply" in err
    assert "internal error" not in err and "RecursionError" not in err


def test_not_toml_and_not_utf8_name_the_file(tmp_path):
    """Check the other unreadable configs name the file too."""
    bad = tmp_path / "bad.toml"
    bad.write_text("methods = [\n")
    with pytest.raises(ConfigError, match=f"config {bad} is not valid TOML"):
        load_config(bad)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(ConfigError, match=f"config {binary} is not UTF-8 text"):
        load_config(binary)


def test_an_unknown_method_is_listed_with_the_other_problems(tmp_path):
    """Check one ConfigError names the protocol's problems and the unknown method."""
    path = tmp_path / "bad.toml"
    path.write_text(
        'methods = ["NoSuchMethod", "MaxCS"]\n[protocol]\nname = "A"\n'
        'n_folds = 0\nbudgets = [-3]\n[[datasets]]\npath = "sample"\n'
    )
    with pytest.raises(ConfigError) as info:
        load_config(path)
    text = str(info.value)
    assert "protocol.n_folds must be an int in [2, 1000], got 0" in text
    assert "protocol.budgets must be positive numbers, got -3" in text
    assert "methods: unknown method 'NoSuchMethod'; known methods: MaxCS" in text


def test_malformed_run_files_name_themselves(tmp_path, helpers):
    """Check `mlfs verify` on a folder whose environment.json is not JSON names
    the file and line, not a bare JSON error."""
    (tmp_path / "config.toml").write_text(helpers.FAST_CONFIG)
    (tmp_path / "results.csv").write_text(RESULTS)
    (tmp_path / "environment.json").write_text('{\n  "fit_kernels": [,\n}\n')
    proc = helpers.mlfs("verify", tmp_path)
    _, err = proc.communicate(timeout=120)
    assert f"{tmp_path / 'environment.json'}, line 2: not valid JSON" in err
    assert "internal error" not in err


def test_a_plugin_metric_error_names_the_fit(tmp_path, helpers):
    """Check a plug-in metric's error names the dataset, fold and budget of the
    fit it was scoring."""
    plugin = tmp_path / "metricplug.py"
    plugin.write_text(
        "from mlfs_core.evaluation import register_metric\n\n\n"
        "def bad(Y_true, Y_pred, scores=None):\n"
        "    raise KeyError('nope')\n\n\n"
        "register_metric('bad_metric', bad, higher_is_better=True)\n"
    )
    config = tmp_path / "metric.toml"
    config.write_text(helpers.FAST_CONFIG.replace('"hamming_loss"', '"bad_metric"'))
    proc = helpers.mlfs(
        "--plugin", plugin, "experiment", config, "--out", tmp_path / "out"
    )
    _, err = proc.communicate(timeout=300)
    last = _error_line(err)
    assert "metric 'bad_metric' (metricplug.py:5) raised KeyError: 'nope'" in last
    assert "(on dataset 'sample', fold 0, repeat 0, budget " in last
