"""Tests of the package's public surface."""

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

import mlfs_core

from ..built_in_methods import BASELINES, INFORMATION_THEORETIC, SCORE_AGGREGATION
from ..fresh import imported_after, run_fresh


def test_all_names_importable():
    """Check that every name in mlfs_core.__all__ exists at the top level."""
    missing = [name for name in mlfs_core.__all__ if not hasattr(mlfs_core, name)]
    assert missing == []


def test_public_signatures():
    """Check the signatures other code and users rely on (issues 2 and 4)."""
    assert str(inspect.signature(mlfs_core.rank_features)) == (
        "(X, Y, method: 'str', *, k=None, random_state=None, **params) -> 'np.ndarray'"
    )
    params = inspect.signature(mlfs_core.load_dataset).parameters
    assert list(params)[:5] == ["path", "labels", "label_count", "label_prefix", "name"]
    assert list(inspect.signature(mlfs_core.label_scores).parameters) == [
        "X",
        "Y",
        "measure",
    ]
    assert list(inspect.signature(mlfs_core.kuncheva_index).parameters)[:3] == [
        "a",
        "b",
        "n_features",
    ]
    assert "alpha" in inspect.signature(mlfs_core.friedman_nemenyi).parameters


def test_registry_has_every_paper_method():
    """Check that all paper-000, paper-001 and baseline methods are registered."""
    names = set(mlfs_core.list_methods())
    expected = {*SCORE_AGGREGATION, *INFORMATION_THEORETIC, *BASELINES}
    assert expected <= names


def test_engine_never_imports_streamlit():
    """Check that importing every submodule of mlfs_core does not import streamlit.

    The walk is done in a fresh interpreter (``__main__``, which runs the CLI,
    aside); the number of modules it imported is checked too, so a walk that
    silently found nothing would fail.
    """
    code = (
        "import importlib, pkgutil, sys, mlfs_core\n"
        "names = [m.name for m in pkgutil.walk_packages(mlfs_core.__path__, "
        "'mlfs_core.') if m.name != 'mlfs_core.__main__']\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "print(len(names), 'streamlit' in sys.modules)"
    )
    count, imported = run_fresh(code).split()
    n_files = sum(1 for _ in Path(mlfs_core.__file__).parent.rglob("*.py"))
    assert int(count) == n_files - 2  # all but mlfs_core/__init__.py, __main__.py
    assert imported == "False"


def test_option_has_one_home():
    """Check that Option is public from mlfs_core.options only (issue 45)."""
    import mlfs_core.options
    import mlfs_core.selectors

    assert mlfs_core.options.Option.__module__ == "mlfs_core.options"
    assert "Option" not in mlfs_core.selectors.__all__
    assert not hasattr(mlfs_core.selectors, "Option")


def _package_inits() -> list[Path]:
    """Every package ``__init__.py`` of mlfs_core."""
    return sorted(Path(mlfs_core.__file__).parent.rglob("__init__.py"))


def _module_name(path: Path) -> str:
    root = Path(mlfs_core.__file__).parent.parent
    return ".".join(path.parent.relative_to(root).parts)


def _lazy_packages() -> list[str]:
    """The packages whose ``__init__.py`` has a lazy export table (``_EXPORTS``)."""
    return [
        _module_name(p)
        for p in _package_inits()
        if "_EXPORTS = {" in p.read_text(encoding="utf-8")
    ]


def test_lazy_exports_match_all():
    """Check that __all__ and the lazy export table list the same names."""
    assert sorted(mlfs_core.__all__) == sorted(mlfs_core._EXPORTS)


@pytest.mark.parametrize("name", _lazy_packages())
def test_lazy_package_writes_its_names_once(name):
    """Check that a lazy package's ``__all__`` is its export table, sorted, and
    that its source holds no second list (no ``__all__`` literal, no
    ``TYPE_CHECKING`` imports) that could drift from it."""
    package = importlib.import_module(name)
    assert package.__all__ == sorted(package._EXPORTS)
    source = Path(package.__file__).read_text(encoding="utf-8")
    assert "__all__ = sorted(_EXPORTS)" in source
    assert "TYPE_CHECKING" not in source
    for export, module in package._EXPORTS.items():
        assert getattr(importlib.import_module(module, name), export) is not None


def test_the_lazy_packages_are_found():
    """Check the walk above finds the five lazy packages (a walk that found
    none would pass vacuously)."""
    assert {
        "mlfs_core",
        "mlfs_core.benchmark",
        "mlfs_core.evaluation",
        "mlfs_core.selectors",
        "mlfs_core.views",
    } <= set(_lazy_packages())


_ROLE = re.compile(r":(?:func|class|data|attr|exc):`~?([A-Za-z_][A-Za-z0-9_]*)`")


@pytest.mark.parametrize("path", _package_inits(), ids=_module_name)
def test_package_docstring_names_only_its_public_names(path):
    """Check that every bare name a package's docstring cross-references
    (``:func:`select```, not a dotted path) is in the package's ``__all__``:
    the docstring explains, the export table lists. A package without
    ``__all__`` offers the public names it defines."""
    package = importlib.import_module(_module_name(path))
    named = set(_ROLE.findall(package.__doc__ or ""))
    public = set(package.__all__) if hasattr(package, "__all__") else set(dir(package))
    assert sorted(named - public) == []


def test_top_level_docstring_lists_no_names():
    """Check that mlfs_core's docstring points to the API page instead of
    listing the public names a second time."""
    assert "docs/api/top-level.md" in mlfs_core.__doc__
    assert _ROLE.findall(mlfs_core.__doc__) == []


def test_import_mlfs_core_imports_no_submodule():
    """Check that ``import mlfs_core`` imports only its BLAS pin, the lazy
    helper and the version: every public name waits for its first use."""
    code = (
        "import sys, mlfs_core\n"
        "print(sorted(m for m in sys.modules if m.startswith('mlfs_core')))"
    )
    loaded = ast.literal_eval(run_fresh(code).splitlines()[-1])
    assert loaded == [
        "mlfs_core",
        "mlfs_core._lazy",
        "mlfs_core._version",
        "mlfs_core.blas",
    ]


def test_import_is_light():
    """Check that importing the packages does not import scipy.stats, sklearn or pandas.

    The app's first page pays for every import; these cost seconds together.
    """
    code = "import mlfs_core, mlfs_core.evaluation, mlfs_core.analysis, mlfs_core.data"
    assert imported_after(code, ["scipy.stats", "sklearn"], timeout=120) == []
