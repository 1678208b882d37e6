"""Shared fixtures: paths to the read-only benchmark datasets and small seeded data."""

from __future__ import annotations

import mlfs_core  # noqa: F401  first: pins the BLAS kernel before numpy loads

# isort: split
import os
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
RND_SEED = 0
PLUGINS_ENV = "MLFS_PLUGINS"


@pytest.fixture(autouse=True)
def _plugins_do_not_leak():
    """Return the process to its plug-in state after each test.

    A test that runs the command line in this process (``main(["--plugin",
    ...])``) loads the file and names it in ``MLFS_PLUGINS`` for the processes
    it starts; both are undone here, so no later test sees that method or
    hands that file to its workers. What a wider fixture loaded before the
    test started stays.
    """
    from mlfs_core import plugins

    state, env = plugins.checkpoint(), os.environ.get(PLUGINS_ENV)
    yield
    plugins.rollback(state)
    if env is None:
        os.environ.pop(PLUGINS_ENV, None)
    else:
        os.environ[PLUGINS_ENV] = env


def shared_datasets_dir() -> Path:
    """Folder of the shared benchmark datasets (``MLFS_DATASETS`` or
    ``../shared/datasets``).
    """
    return Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))


def _required_folder(path: Path, what: str) -> Path:
    """``path`` if a folder; else the test fails in CI and is skipped elsewhere."""
    if not path.is_dir():
        message = f"{what} folder {path} is missing"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def shared_datasets() -> Path:
    """Path of ``../shared/datasets``; tests needing it fail loudly in CI if it is
    missing.
    """
    return _required_folder(shared_datasets_dir(), "shared datasets")


@pytest.fixture(scope="session")
def shared_papers() -> Path:
    """Folder of the two papers' text (``MLFS_PAPERS``, else ``papers`` beside the
    shared datasets folder); tests needing it fail loudly in CI if it is missing.
    """
    path = Path(os.environ.get("MLFS_PAPERS", shared_datasets_dir().parent / "papers"))
    return _required_folder(path, "shared papers")


@pytest.fixture(scope="session")
def paper_text(shared_papers):
    """A function: the text of paper ``number`` ("000", "001") of the papers folder."""

    def read(number: str) -> str:
        (path,) = shared_papers.glob(f"{number}_*.txt")
        return path.read_text(encoding="utf-8")

    return read


@pytest.fixture
def rng() -> np.random.Generator:
    """A seeded generator for test data."""
    return np.random.default_rng(RND_SEED)


@pytest.fixture
def small_xy(rng):
    """A small random sparse-ish matrix X (40 x 12) and label matrix Y (40 x 4)."""
    X = rng.poisson(0.7, size=(40, 12)).astype(float)
    X[:, 3] = 0.0  # a feature present nowhere
    X[:, 5] = 1.0  # a feature present everywhere
    Y = (rng.random((40, 4)) < 0.35).astype(np.int8)
    Y[:, 2] = 0  # a label with no positive
    return X, Y


@pytest.fixture(scope="module")
def dask_cluster():
    """Two Dask worker processes on the loopback interface only, one cluster a
    test module (they start after nothing was loaded, so only the tasks can tell
    them about plug-ins).
    """
    distributed = pytest.importorskip("distributed")  # in the "test" extra
    with distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        yield local
