"""pyproject.toml's dependency floors and the CI script that proves them."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

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
    assert ".venv-min/bin/pip install -q --no-deps -e . -e ./mlfs_papers" in script
    assert 'pip install -q -e ".[test]" -e ./mlfs_papers' in script
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


# ---- the wheel's files -----------------------------------------------------------


@pytest.fixture(scope="module")
def engine_build(tmp_path_factory) -> Path:
    """The folder the engine's wheel is laid out in (setup.py's build_py).

    ``build_py`` is the step of ``pip wheel`` that lays the packages out, and
    it runs offline; CI's wheel job (``.ci/wheel``) builds and installs the
    real wheel.
    """
    out = tmp_path_factory.mktemp("build_lib")
    proc = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture(scope="module")
def wheel_files(engine_build) -> set[str]:
    """The package files a wheel of the checkout holds."""
    return {
        p.relative_to(engine_build).as_posix()
        for p in engine_build.rglob("*")
        if p.is_file()
    }


BUILD_LEFTOVERS = ("__pycache__", "build", "dist")
"""Folders a build leaves in the checkout (``pip wheel ./mlfs_papers`` builds
in place): not the project's files."""


def _checkout_files(folder: str, pattern: str) -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / folder).glob(pattern)
        if p.is_file()
        and not set(BUILD_LEFTOVERS) & set(p.relative_to(ROOT).parts)
        and not any(part.endswith(".egg-info") for part in p.parts)
    }


def test_the_wheel_holds_the_app_pages_ui_and_streamlit_settings(wheel_files):
    """Check app.py, every page, every ui module and .streamlit/config.toml."""
    app = {"app.py", ".streamlit/config.toml"}
    app |= _checkout_files("app_pages", "*.py") | _checkout_files("ui", "**/*.py")
    assert len(app) > 20
    assert {f"mlfs_app/{name}" for name in app} <= wheel_files


def test_the_wheel_holds_the_sample_inside_the_engine(wheel_files):
    """Check every sample file is shipped as mlfs_core/sample_data/..."""
    sample = _checkout_files("sample_data", "**/*")
    assert {"sample_data/planted.arff", "sample_data/planted.xml"} <= sample
    shipped = {"mlfs_core/" + name for name in sample}
    assert shipped <= wheel_files
    assert "mlfs_core/sample_data/results/protocol_a/results.csv" in wheel_files


def test_the_wheel_holds_every_engine_module_and_nothing_else(wheel_files):
    """Check each mlfs_core module is shipped, and no other top-level name."""
    engine = _checkout_files("mlfs_core", "**/*.py")
    assert "mlfs_core/cli/__init__.py" in engine
    assert engine <= wheel_files
    assert {name.split("/")[0] for name in wheel_files} == {"mlfs_core", "mlfs_app"}
    assert "mlfs_app/setup.py" not in wheel_files
    assert not any("__pycache__" in name for name in wheel_files)


def test_the_test_support_package_is_editable_only(wheel_files, monkeypatch):
    """Check setup.py lists uitest, so an editable install (pip install -e
    ".[test]") maps it and bench/ imports it, and the wheel holds none of it."""
    from distutils.core import run_setup  # setuptools' own, on Python >= 3.12

    monkeypatch.chdir(ROOT)
    packages = run_setup(str(ROOT / "setup.py"), stop_after="init").packages
    assert "uitest" in packages
    assert (ROOT / "uitest" / "server.py").is_file()
    assert not [name for name in wheel_files if name.startswith("uitest")]


def test_the_bundled_sample_is_found_in_both_layouts(tmp_path, monkeypatch):
    """Check sample_dir(): mlfs_core/sample_data when shipped, else the checkout's."""
    from mlfs_core.data import bundled

    package = tmp_path / "mlfs_core"
    monkeypatch.setattr(bundled, "_PACKAGE", package)
    assert bundled.sample_dir() == tmp_path / "sample_data"
    (package / "sample_data").mkdir(parents=True)
    (package / "sample_data" / "planted.arff").write_text("")
    assert bundled.sample_dir() == package / "sample_data"
    assert (bundled.SAMPLE_ARFF).is_file()  # the real one, in this checkout


def test_ci_installs_the_wheel_outside_the_checkout_and_opens_the_app():
    """Check .ci/run calls the wheel job and what the job does."""
    assert "\n.ci/wheel\n" in (ROOT / ".ci" / "run").read_text()
    job = (ROOT / ".ci" / "wheel").read_text()
    for step in (
        "pip wheel -q --no-deps -w dist .\n",
        "pip wheel -q --no-deps -w dist ./mlfs_papers",
        'cd "$work"',
        "python3 -m venv venv",
        'venv/bin/pip install -q "$wheel[app]" "$papers"',
        'venv/bin/mlfs app --server.port "$port" --server.address 127.0.0.1',
        "/_stcore/health",
        'tests/app/browser/check_render.py" "$url"',
        "venv/bin/mlfs stats sample",
        "from mlfs_papers._suites import check_shipped; check_shipped()",
        "list_suites()",
        'kill "$server"',
    ):
        assert step in job, step
    assert job.index("check_render") < job.index('kill "$server"')


# ---- engine-only install, the app as an extra (issue 44) -------------------------


def _project() -> dict:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _names(specs) -> set[str]:
    return {re.split(r"[<>=;\[ ]", s, maxsplit=1)[0].lower() for s in specs}


def test_the_base_install_is_the_engine_and_the_app_an_extra():
    """Check streamlit and kaleido are not base dependencies but the app
    extra's, and the test extra still pulls them (with the same floors)."""
    project = _project()
    base = _names(project["dependencies"])
    extras = project["optional-dependencies"]
    assert not {"streamlit", "kaleido", "playwright"} & base
    assert {"numpy", "scipy", "scikit-learn", "pandas", "plotly"} <= base
    assert _names(extras["app"]) == {"streamlit", "kaleido"}
    assert set(extras["app"]) <= set(extras["test"])
    assert {"streamlit", "kaleido"} <= set(_floors())  # .ci/floors.py sees them


def test_the_readme_first_command_installs_the_app():
    """Check the README's quick start installs the app extra before starting it."""
    readme = (ROOT / "README.md").read_text()
    first = re.search(r"```bash\n(.*?)\n", readme).group(1)
    assert first == 'pip install -e ".[app]" -e ./mlfs_papers && streamlit run app.py'
    index = (ROOT / "docs" / "index.md").read_text()
    assert first in index


def test_mlfs_app_without_streamlit_names_the_extra(monkeypatch):
    """Check `mlfs app` on an engine-only install is one error naming [app]."""
    import importlib.util

    from mlfs_core.cli import app
    from mlfs_core.errors import ConfigError

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "streamlit" else real(name, *a),
    )
    with pytest.raises(ConfigError, match=r"mlfs-explorer\[app\]"):
        app.check_app_installed()


# ---- the papers apart from the engine (issue 45) ----------------------------------


def _paper_words() -> re.Pattern:
    """The architecture test's pattern of the papers' names (read, not copied)."""
    import ast

    tree = ast.parse((ROOT / "tests" / "architecture" / "test_layers.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "PAPER_WORDS":
            return re.compile(node.value.args[0].value, re.IGNORECASE)
    raise AssertionError("no PAPER_WORDS in tests/architecture/test_layers.py")


@pytest.fixture(scope="module")
def papers_files(tmp_path_factory) -> dict[str, bytes]:
    """The files of the papers' wheel (mlfs_papers/setup.py's build_py)."""
    out = tmp_path_factory.mktemp("papers_build_lib")
    proc = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(out)],
        cwd=ROOT / "mlfs_papers",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in out.rglob("*")
        if p.is_file()
    }


def test_the_engine_wheel_names_no_paper(engine_build, wheel_files):
    """Check no file of the engine's wheel is the papers' (no mlfs_papers, no
    study config or data, no path with a paper's name), no engine file names
    them, and no file of the wheel imports mlfs_papers."""
    words = _paper_words()
    assert words.search("mlfs_core/reproduction/paper000/claims.py")  # it bites
    assert not [n for n in wheel_files if words.search(n) or "_study" in n]
    assert not [n for n in wheel_files if n.startswith("mlfs_papers")]
    assert not [n for n in wheel_files if n.endswith(".csv.gz")]  # study data
    named, imports = [], []
    for name in sorted(wheel_files):
        text = (engine_build / name).read_bytes().decode("utf-8", errors="replace")
        if name.startswith("mlfs_core/") and words.search(text):
            named.append(name)
        if re.search(r"^\s*(from|import) mlfs_papers\b", text, re.M):
            imports.append(name)
    assert named == [] and imports == []


def test_the_papers_wheel_holds_its_suites_configs_data_and_tables(papers_files):
    """Check the papers' wheel ships every module, both suites' configs and
    committed data and the published tables, and no script of the studies."""
    from mlfs_papers._suites import SHIPPED_STUDIES

    modules = _checkout_files("mlfs_papers", "**/*.py") - {"mlfs_papers/setup.py"}
    assert "mlfs_papers/paper000/app.py" in modules
    assert modules <= set(papers_files)
    for name in SHIPPED_STUDIES:
        config = f"mlfs_papers/_study_configs/study_{name}.toml"
        assert (
            papers_files[config]
            == (ROOT / "configs" / config.split("/")[-1]).read_bytes()
        )
        data = _checkout_files(f"studies/{name}/data", "*/*")
        assert any(d.endswith("/results.csv.gz") for d in data)
        shipped = {
            "mlfs_papers/_study_data/" + d.removeprefix("studies/") for d in data
        }
        assert shipped <= set(papers_files)
    table = "mlfs_papers/_study_data/paper000/published.csv"
    assert (
        papers_files[table]
        == (ROOT / "studies" / "paper000" / "published.csv").read_bytes()
    )
    assert "mlfs_papers/setup.py" not in papers_files
    assert not any(
        n.startswith("mlfs_papers/_study") and n.endswith(".py") for n in papers_files
    )
    assert {n.split("/")[0] for n in papers_files} == {"mlfs_papers"}


def test_the_papers_register_through_entry_points_only():
    """Check the engine's pyproject declares no plug-in and the papers' declares
    the conventions, both suites and the published tables, each importable."""
    import importlib

    import tomllib

    assert "entry-points" not in _project()
    papers = tomllib.loads((ROOT / "mlfs_papers" / "pyproject.toml").read_text())
    assert papers["project"]["dependencies"] == ["mlfs-explorer>=0.2"]
    points = papers["project"]["entry-points"]["mlfs_explorer.plugins"]
    assert set(points) >= {
        "paper001-conventions",
        "paper000-suite",
        "paper001-suite",
        "paper000-published",
        "paper001-variants",
    }
    for module in points.values():
        importlib.import_module(module)


def test_the_suites_find_their_files_in_both_layouts(tmp_path, monkeypatch):
    """Check study_locations(): the checkout's files, else the package data."""
    from mlfs_papers import _suites

    config, data = _suites.study_locations("paper001")
    assert config == ROOT / "configs" / "study_paper001.toml" and config.is_file()
    assert data == ROOT / "studies" / "paper001" / "data"
    monkeypatch.setattr(_suites, "ROOT", tmp_path / "site-packages")
    monkeypatch.setattr(_suites, "PACKAGE", tmp_path / "site-packages" / "mlfs_papers")
    config, data = _suites.study_locations("paper001")
    package = tmp_path / "site-packages" / "mlfs_papers"
    assert config == package / "_study_configs" / "study_paper001.toml"
    assert data == package / "_study_data" / "paper001" / "data"


def test_the_test_command_runs_the_papers_doctests_not_their_setup():
    """Check `python -m pytest` collects mlfs_papers (its doctests) and never
    imports mlfs_papers/setup.py as a test module (that would run setup())."""
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    options = options["ini_options"]
    assert "mlfs_papers" in options["testpaths"]
    assert "--ignore=mlfs_papers/setup.py" in options["addopts"].split()
    assert "--doctest-modules" in options["addopts"].split()


def test_the_wheel_holds_the_bundled_lessons(wheel_files):
    """Check every bundled lesson file (mlfs_core/lessons/*.toml) is shipped."""
    lessons = _checkout_files("mlfs_core/lessons", "*.toml")
    assert len(lessons) == 3
    assert lessons <= wheel_files
