"""pyproject.toml's dependency floors and the CI script that proves them."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _floors() -> dict[str, str]:
    spec = importlib.util.spec_from_file_location(
        "_ci_floors", ROOT / ".ci" / "floors.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pins = module.floors(ROOT / "pyproject.toml")
    return dict(pin.split("==") for pin in pins)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def test_floors_cover_what_the_code_needs():
    floors = _floors()
    # validate_data and __sklearn_tags__ (the selector) arrived in scikit-learn 1.6
    assert _version(floors["scikit-learn"]) >= (1, 6)
    # kaleido 1.x renders only with plotly >= 6.1.1
    assert _version(floors["plotly"]) >= (6, 1, 1)
    # the dask backend supports return_as="generator" (the runner) from 1.4 on
    assert _version(floors["joblib"]) >= (1, 4)
    assert "defusedxml" in floors  # uploaded XML is parsed with it
    # conftest's relative imports under --import-mode=importlib need 8.4
    assert _version(floors["pytest"]) >= (8, 4)
    assert {"streamlit", "pyarrow"} <= set(floors)  # the app tests run too


def test_the_installed_versions_meet_the_floors():
    from importlib.metadata import version

    for name, floor in _floors().items():
        assert _version(version(name)) >= _version(floor), name


def test_ci_lints_and_runs_the_engine_tests_on_the_floors():
    script = (ROOT / ".ci" / "run").read_text()
    assert "ruff check ." in script and "ruff format --check ." in script
    assert "$(python3 .ci/floors.py)" in script
    assert '.venv-min/bin/python -m pytest tests/core tests/app -m "not browser"' in (
        script
    )
    assert "REQUIRE_BROWSER" not in script


def test_every_declared_pytest_marker_is_used():
    text = (ROOT / "pyproject.toml").read_text()
    declared = re.findall(r'^\s*"(\w+):', text.split("markers = [")[1], re.M)
    tests = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("*.py"))
    assert declared == ["browser"]
    for marker in declared:
        assert f"pytest.mark.{marker}" in tests, marker
