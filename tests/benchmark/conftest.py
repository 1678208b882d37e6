"""Fixtures of the benchmark tests: the test plug-in and a small committed suite.

``tiny_suite`` is a study of its own, made here: a protocol B config on two
small shared datasets (emotions, flags) with three cheap built-in methods,
run once and written in the committed layout of the studies
(``<data>/<dataset>/results.csv.gz, selections.csv.gz, timings.csv,
meta.json``), so the tests can check what is reused and tamper with it.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from mlfs_core.benchmark import QuickPlan, Suite, register_suite
from mlfs_core.cache import engine_id
from mlfs_core.evaluation import run_experiment
from mlfs_core.evaluation.config import load_config
from mlfs_core.evaluation.outputs import (
    compact_results,
    compact_selections,
    write_table,
)

HERE = Path(__file__).resolve().parent
PLUGIN = HERE / "mine.py"
METHOD = "MineSumPearson"  # not the example plug-in's name: both load in one session
BUILT_INS = ("PPT-MI", "IGMF", "LRFS")
TINY = "tiny-study"

# The plug-in file is loaded by the tests, as a user's: never imported by
# --doctest-modules collection (that would register its method for the session).
collect_ignore = ["mine.py"]


def load_test_plugin():
    """Load the test plug-in file as a user would (worker processes load it too)."""
    from mlfs_core.plugins import load_plugins

    return load_plugins([str(PLUGIN)])


@pytest.fixture(scope="module")
def mine():
    """The test plug-in's method, registered for one test module, then removed
    again (the plug-in tests check exactly what a process has loaded)."""
    from mlfs_core import plugins

    state = plugins.checkpoint()
    load_test_plugin()
    yield METHOD
    plugins.rollback(state)


def _config_text(datasets: Path) -> str:
    paths = "\n".join(
        f'[[datasets]]\npath = "{(datasets / d).as_posix()}"'
        for d in ("emotions", "flags")
    )
    methods = ", ".join(f'"{m}"' for m in BUILT_INS)
    return f"""name = "{TINY}"
seed = 0
methods = [{methods}]

[protocol]
name = "B"
split = "holdout"
test_size = 0.4
budgets = [1, 2, 3, 4, 5, 6, 7, 8]
budget_unit = "count"
discretize = "uniform"
bins = 3
label_handling = "drop_constant"
metrics = ["hamming_loss", "micro_f1", "ranking_loss"]

[protocol.classifier]
name = "mlknn"
params = {{ k = 10, s = 1.0 }}

{paths}
"""


def commit_study(config_path: Path, data_dir: Path) -> None:
    """Run ``config_path`` and write each dataset's data as a study commits it."""
    from mlfs_core.data import load_dataset

    config = load_config(config_path)
    for spec in config.datasets:
        result = run_experiment(replace(config, datasets=(spec,)))
        out = data_dir / Path(spec.path).name
        out.mkdir(parents=True, exist_ok=True)
        write_table(compact_results(result.results), out / "results.csv.gz")
        sel = compact_selections(result.selections, config.protocol)
        write_table(sel, out / "selections.csv.gz")
        t = result.timings
        t = t[t["stage"] == "selection"].groupby(["dataset", "method", "stage"])
        write_table(t["seconds"].sum().reset_index(), out / "timings.csv")
        ds = load_dataset(spec.path)
        meta = {
            "dataset": out.name,
            "stats": {"N": ds.X.shape[0], "M": ds.X.shape[1], "q": ds.Y.shape[1]},
            "config": f"configs/{config_path.name}",
            "code_version": {"engine": engine_id(), "commit": "test"},
        }
        (out / "meta.json").write_text(json.dumps(meta))


@pytest.fixture(scope="session")
def tiny_study(tmp_path_factory, shared_datasets) -> Path:
    """A committed tiny study (made once per session): its folder."""
    root = tmp_path_factory.mktemp("tiny_study")
    config = root / "configs" / "study_tiny.toml"
    config.parent.mkdir()
    config.write_text(_config_text(shared_datasets))
    commit_study(config, root / "data")
    return root


@pytest.fixture
def tiny_suite(tiny_study, tmp_path) -> Suite:
    """The tiny study as a registered suite, on a copy of its data (tamper freely)."""
    data = tmp_path / "data"
    shutil.copytree(tiny_study / "data", data)
    suite = Suite(
        name=TINY,
        title="Tiny study",
        config=tiny_study / "configs" / "study_tiny.toml",
        data_dir=data,
        methods=BUILT_INS,
        metric="micro_f1",
        quick=QuickPlan(datasets=("emotions", "flags"), budgets=(2, 4, 8)),
    )
    return register_suite(suite)
