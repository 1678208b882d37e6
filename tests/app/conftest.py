"""Fixtures of the app tests: a fresh AppTest, cleared caches, a tiny dataset folder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
TOY_NAME = "toy"


def toy_arff(n_samples: int = 60, n_features: int = 12, seed: int = 0) -> str:
    """A small Mulan ARFF text: numeric word counts and three labels l0..l2."""
    rng = np.random.default_rng(seed)
    X = rng.poisson(0.8, size=(n_samples, n_features))
    Y = (rng.random((n_samples, 3)) < 0.4).astype(int)
    X[:, 0] += 2 * Y[:, 0]  # w0 is informative for l0
    lines = ["@relation toy"]
    lines += [f"@attribute w{j} numeric" for j in range(n_features)]
    lines += [f"@attribute l{i} {{0,1}}" for i in range(3)]
    lines.append("@data")
    lines += [",".join(map(str, [*x, *y])) for x, y in zip(X, Y, strict=True)]
    return "\n".join(lines) + "\n"


TOY_XML = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<labels xmlns="http://mulan.sourceforge.net/labels">\n'
    + "".join(f'<label name="l{i}"></label>\n' for i in range(3))
    + "</labels>\n"
)


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """Clear Streamlit's process-wide caches and point the app at temporary folders."""
    st.cache_data.clear()
    st.cache_resource.clear()
    monkeypatch.setenv("MLFS_WORK_DIR", str(tmp_path / "work"))
    monkeypatch.delenv("MLFS_DATA_DIR", raising=False)
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    """A folder with one toy dataset (ARFF + XML), set as MLFS_DATA_DIR."""
    folder = tmp_path / "datasets" / TOY_NAME
    folder.mkdir(parents=True)
    (folder / "toy.arff").write_text(toy_arff())
    (folder / "toy.xml").write_text(TOY_XML)
    monkeypatch.setenv("MLFS_DATA_DIR", str(folder.parent))
    return folder.parent


def new_app() -> AppTest:
    """An AppTest of app.py, run once, with no exception."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    """Switch to ``app_pages/<page>.py`` and run it; fail on any exception."""
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def charts(at: AppTest) -> list:
    """The plotly charts on the page (AppTest has no typed accessor for them)."""
    return at.get("plotly_chart")
