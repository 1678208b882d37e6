"""Protocol presets, config problems, and the documented files of an experiment."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mlfs_core.cli import main
from mlfs_core.data import Dataset
from mlfs_core.data.synthetic import write_mulan
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation.config import (
    PROTOCOL_PRESETS,
    ExperimentConfig,
    config_from_toml,
    config_to_toml,
    protocol_a,
    protocol_b,
    protocol_preset,
)
from mlfs_core.report import OUTPUT_FILES, README_FILE

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs" / "user-guide" / "experiments.md"
DATASET = '[[datasets]]\npath = "sample"\n'


# ---- presets -----------------------------------------------------------------


@pytest.mark.parametrize(
    "head", ['protocol = "B"\n', '[protocol]\nname = "B"\n'], ids=["string", "table"]
)
def test_a_protocol_name_alone_runs_that_protocols_defaults(head):
    """Check ``protocol = "B"`` and ``[protocol] name = "B"`` both give protocol B."""
    text = 'methods = ["MaxCS"]\n' + DATASET + head
    if head.startswith("protocol ="):  # a top-level key must precede the tables
        text = head + 'methods = ["MaxCS"]\n' + DATASET
    config = config_from_toml(text)
    assert config.protocol == protocol_b()
    p = config.protocol
    assert (p.split, p.budget_unit, p.classifier.name) == ("own", "count", "mlknn")
    assert p.budgets == tuple(range(1, 51)) and p.label_handling == "drop_constant"


def test_a_preset_fills_only_what_the_table_does_not_give():
    """Check a table's keys override the preset and the rest stays the preset's."""
    config = config_from_toml(
        'methods = ["MaxCS"]\n' + DATASET + '[protocol]\nname = "B"\nbins = 5\n'
    )
    assert config.protocol == protocol_b(bins=5)
    assert config.protocol != protocol_b()
    assert config_from_toml('methods = ["MaxCS"]\n' + DATASET).protocol == protocol_a()
    assert protocol_preset("A", n_folds=4) == protocol_a(n_folds=4)


@pytest.mark.parametrize(
    ("name", "hint"), [("C", None), ("b", "did you mean 'B'?"), ("", None)]
)
def test_an_unknown_or_wrongly_cased_protocol_name_is_an_error(name, hint):
    """Check unknown names (and the wrong case) fail, naming the known presets."""
    known = ", ".join(PROTOCOL_PRESETS)
    for text in (f'protocol = "{name}"\n', f'[protocol]\nname = "{name}"\n'):
        with pytest.raises(ConfigError) as info:
            config_from_toml(
                (text + 'methods = ["MaxCS"]\n' + DATASET)
                if text.startswith("protocol =")
                else 'methods = ["MaxCS"]\n' + DATASET + text
            )
        message = str(info.value)
        assert f"unknown protocol {name!r}; known: {known}" in message
        assert (hint in message) if hint else "did you mean" not in message
    with pytest.raises(ConfigError, match="unknown protocol 'C'"):
        protocol_preset("C")
    with pytest.raises(ConfigError, match="pass no name= override"):
        protocol_b(name="A")


def test_a_saved_config_holds_only_the_fields_of_its_split():
    """Check no n_folds/on_sparse_label for a train/test run, no test_size for CV."""
    for protocol, absent, present in [
        (protocol_b(), ("n_folds", "on_sparse_label"), ("test_size",)),
        (protocol_b(split="holdout"), ("n_folds",), ("test_size",)),
        (protocol_a(), ("test_size",), ("n_folds", "on_sparse_label")),
    ]:
        config = ExperimentConfig(("sample",), ("MaxCS",), protocol=protocol)
        keys = re.findall(r"^(\w+) =", config_to_toml(config), flags=re.M)
        assert not set(absent) & set(keys), (protocol.split, keys)
        assert set(present) <= set(keys)
        assert config_from_toml(config_to_toml(config)) == config


def test_a_field_its_split_does_not_use_keeps_the_presets_value():
    """Check n_folds given to a train/test protocol is reset, so a saved config
    read back equals the one written."""
    protocol = protocol_b(n_folds=5, on_sparse_label="error")
    assert (protocol.n_folds, protocol.on_sparse_label) == (10, "warn")
    config = ExperimentConfig(("sample",), ("MaxCS",), protocol=protocol)
    assert config_from_toml(config_to_toml(config)) == config
    assert protocol_b(split="cv", n_folds=5).n_folds == 5


def test_every_problem_of_a_config_is_reported_at_once_and_once():
    """Check two option errors of one method, another method's and the protocol's
    problems come in one message, each once."""
    text = (
        "methods = [\n"
        '  { name = "RaRCS", params = { weighting = "x", binarize = "y" } },\n'
        '  { name = "MaxCS", params = { foo = 1 } },\n'
        "]\n" + DATASET + '[protocol]\nbins = 1\nsplit = "nope"\nbudgets = [0, 200]\n'
    )
    with pytest.raises(ConfigError) as info:
        config_from_toml(text)
    message = str(info.value)
    expected = [
        "protocol.budgets must be positive numbers, got 0",
        "protocol.budgets: a percentage above 100 (200)",
        "protocol.split must be one of",
        "protocol.bins must be an int in [2, 1000], got 1",
        "methods: 'RaRCS': weighting must be one of",
        "methods: 'RaRCS': binarize must be one of",
        "methods: 'MaxCS': unknown parameter(s) ['foo']",
    ]
    for start in expected:
        assert message.count(start) == 1, (start, message)
    starts = re.findall(r"(?:^|; )(?:protocol[.:]|methods: )", message)
    assert len(starts) == len(expected), message


# ---- the files of `mlfs experiment --out` ---------------------------------------

CONFIG = (
    'name = "doc"\nmethods = ["MaxCS", "Random", "AF"]\n'
    "[protocol]\nn_folds = 2\nbudgets = [10, 50]\nn_repeats = 1\n"
    'metrics = ["micro_f1", "hamming_loss"]\n'
    '[[datasets]]\npath = "sample"\n'
)


def _experiment(tmp_path, *extra, config=CONFIG):
    path = tmp_path / "c.toml"
    path.write_text(config)
    out = tmp_path / "out"
    status = main(["experiment", str(path), "--out", str(out), "--no-cache", *extra])
    return status, out


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """One small run on the bundled sample (it has a planted truth: recovery.csv)."""
    tmp_path = tmp_path_factory.mktemp("run")
    status, out = _experiment(
        tmp_path, "--summary-metric", "hamming_loss", "--summary-metric", "micro_f1"
    )
    assert status == 0
    return out


def _documented_columns(text: str, name: str) -> list[str]:
    """The column names of ``name``'s table in a README or the user guide."""
    section = re.split(rf"^#+ `?{re.escape(name)}`?\s*$", text, flags=re.M)[1]
    section = re.split(r"^#+ ", section, flags=re.M)[0]
    return re.findall(r"^\| `?([a-z_]+)`? \|", section, flags=re.M)[1:]  # no header


def _actual_columns(path: Path) -> list[str]:
    columns = list(pd.read_csv(path, nrows=0).columns)
    if path.name == "similarity.csv":  # square: the method column, then one per method
        return columns[:1]
    return columns


def test_the_readme_and_the_guide_describe_every_written_file_column_by_column(
    written,
):
    """Check every file written is in README.md and the guide, with its columns."""
    names = sorted(p.name for p in written.iterdir())
    assert {"recovery.csv", README_FILE, "curves.csv"} <= set(names)
    assert set(names) <= set(OUTPUT_FILES)
    readme = (written / README_FILE).read_text(encoding="utf-8")
    guide = GUIDE.read_text(encoding="utf-8")
    for name in names:
        assert f"## {name}" in readme and f"### `{name}`" in guide, name
        if name.endswith(".csv"):
            actual = _actual_columns(written / name)
            budget = [
                c if c not in ("budget", "budget_pct") else "budget_pct" for c in actual
            ]
            assert _documented_columns(readme, name) in (actual, budget), name
            assert _documented_columns(guide, name) in (actual, budget), name
    for name, (_, columns) in OUTPUT_FILES.items():  # the guide has every file
        assert f"### `{name}`" in guide
        assert _documented_columns(guide, name) == list(columns), name


def test_selections_carry_the_feature_names_of_the_indices(written):
    """Check the feature_names column names each ranked index, in order."""
    from mlfs_core.data import load_dataset
    from mlfs_core.data.bundled import SAMPLE_DIR
    from mlfs_core.evaluation.io import read_selections

    names = load_dataset(SAMPLE_DIR).feature_names
    table = read_selections(written / "selections.csv")
    assert len(table) > 0
    for indices, joined in zip(table["features"], table["feature_names"]):
        assert joined.split("|") == [names[i] for i in indices]


def test_curves_carry_a_band_of_one_std_around_the_mean(written):
    """Check lower/upper are mean -/+ the population std of the fold values."""
    curves = pd.read_csv(written / "curves.csv")
    results = pd.read_csv(written / "results.csv")
    np.testing.assert_allclose(curves["lower"], curves["mean"] - curves["std"])
    np.testing.assert_allclose(curves["upper"], curves["mean"] + curves["std"])
    row = curves[(curves["method"] == "MaxCS") & (curves["metric"] == "micro_f1")]
    row = row.iloc[0]
    values = results[
        (results["method"] == "MaxCS")
        & (results["metric"] == "micro_f1")
        & (results["budget_pct"] == row["budget_pct"])
    ]["value"]
    assert row["lower"] == pytest.approx(values.mean() - values.std(ddof=0))
    assert row["upper"] == pytest.approx(values.mean() + values.std(ddof=0))
    assert (curves["upper"] > curves["lower"]).any()


def test_the_summary_gives_the_chosen_metrics_with_their_direction(written):
    """Check summary.md has a section per --summary-metric, in the order given."""
    text = (written / "summary.md").read_text(encoding="utf-8")
    first = text.index("## Average rank by hamming_loss (lower is better")
    second = text.index("## Average rank by micro_f1 (higher is better")
    assert first < second
    assert "## Friedman test per budget (hamming_loss)" in text


def test_an_unknown_summary_metric_fails_before_anything_is_written(tmp_path, capsys):
    """Check a metric the config does not compute is an error naming it."""
    status, out = _experiment(tmp_path, "--summary-metric", "micro_f1,macro_f1")
    assert status == 2 and not out.exists()
    err = capsys.readouterr().err
    assert "--summary-metric: macro_f1 not among" in err and "micro_f1" in err


def test_an_existing_out_needs_overwrite(tmp_path, capsys):
    """Check a rerun into a folder with files is refused, then replaces with
    --overwrite (a stale output file of the earlier run goes, the user's stays)."""
    assert _experiment(tmp_path)[0] == 0
    out = tmp_path / "out"
    before = (out / "results.csv").read_bytes()
    (out / "notes.txt").write_text("mine")
    (out / "recovery.csv").unlink()
    (out / "dataset_means.csv").write_text("stale")
    capsys.readouterr()
    status, _ = _experiment(tmp_path)
    err = capsys.readouterr().err
    assert status == 2 and "--overwrite" in err and "holds files already" in err
    assert (out / "dataset_means.csv").read_text() == "stale"  # untouched
    config = CONFIG.replace('path = "sample"', f'path = "{tmp_path / "toy"}"')
    _write_toy(tmp_path / "toy", dense=False)
    assert _experiment(tmp_path, "--overwrite", config=config)[0] == 0
    assert (out / "dataset_means.csv").read_text() != "stale"
    assert (out / "notes.txt").read_text() == "mine"
    assert not (out / "recovery.csv").exists()  # the toy has no planted truth
    assert (out / "results.csv").read_bytes() != before
    assert not [p for p in out.iterdir() if p.name.startswith(".writing")]


def test_a_failed_run_leaves_nothing_behind(tmp_path, capsys, monkeypatch):
    """Check a config error and an error during the run both leave no --out."""
    bad = CONFIG.replace('path = "sample"', f'path = "{tmp_path / "yeest"}"')
    status, out = _experiment(tmp_path, config=bad)
    err = capsys.readouterr().err
    assert status == 2 and not out.exists()
    assert err.count("yeest") == 1  # the missing path is named once

    import mlfs_core.evaluation.runner as runner  # the command imports it lazily

    def broken(*args, **kwargs):
        raise RuntimeError("a task failed")

    monkeypatch.setattr(runner, "result_tables", broken)
    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    argv = ["experiment", str(path), "--out", str(out)]  # with the default cache
    assert main(argv) == 2
    assert "a task failed" in capsys.readouterr().err
    assert not out.exists()


# ---- the dense-data warning on the command line --------------------------------


def _write_toy(folder: Path, *, dense: bool) -> Path:
    rng = np.random.default_rng(3)
    folder.mkdir(parents=True, exist_ok=True)
    n, m = 40, 6
    X = rng.normal(10, 1, (n, m)).round(2) if dense else rng.poisson(0.5, (n, m))
    Y = (rng.random((n, 2)) < 0.5).astype(int)
    Y[:2] = 1
    write_mulan(Dataset(X, Y, [f"v{j}" for j in range(m)], ["y0", "y1"]), folder, "toy")
    return folder


@pytest.mark.filterwarnings("ignore:protocol.budgets")  # B's 1..50 on 6 features
def test_experiment_warns_on_dense_data_for_the_presence_methods_only(tmp_path, capsys):
    """Check the warning names MaxCS (not ATR) and the median cure; none for ATR."""
    toy = _write_toy(tmp_path / "toy", dense=True)
    config = (
        'protocol = "B"\nmethods = ["MaxCS", "ATR", { name = "MeanCS", params = '
        f'{{ binarize = "median" }} }}]\n[[datasets]]\npath = "{toy}"\n'
    )
    assert _experiment(tmp_path, config=config)[0] == 0
    err = capsys.readouterr().err
    (line,) = [x for x in err.splitlines() if "warning" in x and "Dense data" in x]
    assert "For MaxCS a feature is present" in line and 'binarize = "median"' in line
    assert "ATR" not in line and "MeanCS" not in line
    (tmp_path / "atr").mkdir()
    only_atr = config.replace('"MaxCS", ', "")
    assert _experiment(tmp_path / "atr", config=only_atr)[0] == 0
    assert "Dense data" not in capsys.readouterr().err


def test_rank_warns_about_dense_data_only_for_a_presence_method(tmp_path, capsys):
    """Check `mlfs rank` on dense data warns for MaxCS, not for ATR."""
    toy = str(_write_toy(tmp_path / "toy", dense=True))
    assert main(["rank", toy, "--method", "ATR", "--k", "2"]) == 0
    assert "Dense data" not in capsys.readouterr().err
    assert main(["rank", toy, "--method", "MaxCS", "--k", "2"]) == 0
    assert "For MaxCS a feature is present" in capsys.readouterr().err


def test_scores_takes_binarize_and_warns_on_dense_data(tmp_path, capsys):
    """Check `mlfs scores` warns under presence on dense data; median fixes it."""
    toy = str(_write_toy(tmp_path / "toy", dense=True))
    assert main(["scores", toy, "--measure", "bns"]) == 0
    presence = capsys.readouterr()
    assert "Dense data" in presence.err and "--binarize median" in presence.err
    assert main(["scores", toy, "--measure", "bns", "--binarize", "median"]) == 0
    median = capsys.readouterr()
    assert "Dense data" not in median.err
    from io import StringIO

    a = pd.read_csv(StringIO(presence.out)).drop(columns="label").to_numpy()
    b = pd.read_csv(StringIO(median.out)).drop(columns="label").to_numpy()
    assert a.shape == b.shape and np.count_nonzero(b) > np.count_nonzero(a)
    sparse = str(_write_toy(tmp_path / "sparse", dense=False))
    assert main(["scores", sparse, "--measure", "bns"]) == 0
    assert "Dense data" not in capsys.readouterr().err


def test_the_runner_reports_every_dataset_and_method_problem_at_once(tmp_path):
    """Check two missing datasets and an unknown method come in one message."""
    from mlfs_core.evaluation.runner import plan_experiment

    config = ExperimentConfig(
        datasets=(str(tmp_path / "one"), "sample", str(tmp_path / "two")),
        methods=("MaxCS", "NoSuchMethod"),
        protocol=protocol_a(metrics=("micro_f1", "f3")),
    )
    with pytest.raises(ConfigError) as info:
        plan_experiment(config)
    message = str(info.value)
    for part in ("datasets[0].path", "datasets[2].path", "NoSuchMethod", "f3"):
        assert message.count(part) == 1, (part, message)
    assert "datasets[1]" not in message


def test_feature_names_that_look_like_numbers_are_read_back_as_text(tmp_path):
    """Check a feature named "12" survives write_run_files -> read_selections."""
    from mlfs_core.evaluation.io import read_selections
    from mlfs_core.evaluation.outputs import selections_table, write_table

    selections = pd.DataFrame(
        {"dataset": ["d", "d"], "method": ["M", "N"], "features": [[1], [0]]}
    )
    names = {"d": ["7", "12"]}
    path = write_table(selections_table(selections, names), tmp_path / "s.csv")
    table = read_selections(path)
    assert table["feature_names"].tolist() == ["12", "7"]
    assert [f.tolist() for f in table["features"]] == [[1], [0]]


def test_the_dataclass_itself_takes_its_presets_defaults():
    """Check ProtocolConfig(name="B") is protocol B, not A's defaults labelled B."""
    from mlfs_core.evaluation.config import ProtocolConfig

    assert ProtocolConfig(name="B") == protocol_b()
    assert ProtocolConfig() == protocol_a() == ProtocolConfig(name="A")
    assert ProtocolConfig(name="B", bins=4) == protocol_b(bins=4)
    for name, preset in PROTOCOL_PRESETS.items():
        assert set(preset) == set(PROTOCOL_PRESETS["A"]), name
