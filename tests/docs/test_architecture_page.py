"""docs/architecture.md: its how-to sections are short and their code runs."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
HOW_TOS = ("a method", "a metric", "a classifier", "a page", "a study")


def _sections() -> dict[str, str]:
    text = PAGE.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    return {p.splitlines()[0].strip(): "\n".join(p.splitlines()[1:]) for p in parts}


def _code(section: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    return "\n".join(blocks)


@pytest.mark.parametrize("what", HOW_TOS)
def test_each_how_to_is_under_twenty_lines(what):
    """Check "How to add X" exists and has fewer than 20 non-blank lines."""
    body = _sections()[f"How to add {what}"]
    lines = [line for line in body.splitlines() if line.strip()]
    assert 0 < len(lines) < 20, len(lines)


@pytest.fixture
def restore_registries():
    from mlfs_core import plugins

    state = plugins.checkpoint()
    yield
    plugins.rollback(state)


def test_the_method_example_registers_a_method_that_ranks(restore_registries):
    """Check the method example runs and its method ranks by variance."""
    from mlfs_core import rank_features
    from mlfs_core.selectors import get_method

    exec(_code(_sections()["How to add a method"]), {})
    spec = get_method("Var")
    assert (spec.score_kind, spec.citation) == ("score", "My note (2026)")
    X = np.array([[0.0, 1.0, 5.0], [0.0, 3.0, -5.0], [0.0, 2.0, 5.0]])
    Y = np.array([[1], [0], [1]])
    assert list(rank_features(X, Y, "Var", k=3)) == [2, 1, 0]


def test_the_metric_and_classifier_examples_register(restore_registries):
    """Check the metric and classifier examples run and make usable entries."""
    from mlfs_core.evaluation import METRICS, make_classifier

    exec(_code(_sections()["How to add a metric"]), {})
    Y = np.array([[1, 0], [0, 1]])
    assert METRICS["label_share"].function(Y, Y, None) == 0.5
    exec(_code(_sections()["How to add a classifier"]), {})
    model = make_classifier("ridge", {"alpha": 2.0}, random_state=0)
    assert model.fit(np.eye(4), np.array([[1, 0], [0, 1], [1, 1], [0, 0]]))


def test_the_study_example_registers_a_suite(tmp_path, restore_registries):
    """Check the study example registers a suite `mlfs benchmark` can find."""
    from mlfs_core.benchmark import SUITES, get_suite

    code = _code(_sections()["How to add a study"])
    code = code.replace("Path(__file__).parent", f"Path({str(tmp_path)!r})")
    try:
        exec(code, {})
        suite = get_suite("mystudy")
        assert suite.methods == ("MaxCS", "PMU")
        assert suite.config == tmp_path / "study.toml"
    finally:
        SUITES.pop("mystudy", None)


def _picture() -> str:
    text = PAGE.read_text(encoding="utf-8")
    return re.search(r"^```\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)[1]


def test_the_picture_names_every_engine_package_and_the_runners_concepts():
    """Check the layer picture shows every package of mlfs_core and the
    runner's and the metrics' parts by their module names, and names no
    package or runner part that does not exist."""
    root = PAGE.parents[1] / "mlfs_core"
    picture = _picture()
    packages = {p.name for p in root.iterdir() if (p / "__init__.py").is_file()}
    shown = set(re.findall(r"\b([a-z_]+)/", picture))
    assert packages - shown == set()
    runner = root / "evaluation" / "runner"
    parts = {p.stem for p in runner.iterdir() if p.suffix == ".py" or p.is_dir()}
    parts -= {"__init__", "__pycache__"}
    drawn = re.search(r"runner/ \(([^)]*)\)", picture)[1]
    assert set(re.findall(r"[a-z_]+", drawn)) == parts
    metrics = re.search(r"metrics/ \(([^)]*)\)", picture)[1]
    for module in re.findall(r"[a-z_]+", metrics):
        assert (root / "evaluation" / "metrics" / f"{module}.py").is_file()
