"""Tests of the package's public surface."""

import inspect
from pathlib import Path

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


def test_lazy_exports_match_all():
    """Check that __all__ and the lazy export table list the same names."""
    assert sorted(mlfs_core.__all__) == sorted(mlfs_core._EXPORTS)


def test_import_is_light():
    """Check that importing the packages does not import scipy.stats, sklearn or pandas.

    The app's first page pays for every import; these cost seconds together.
    """
    code = "import mlfs_core, mlfs_core.evaluation, mlfs_core.analysis, mlfs_core.data"
    assert imported_after(code, ["scipy.stats", "sklearn"], timeout=120) == []
