"""Tests of the offline PNG export."""

from __future__ import annotations

import importlib.util
import os

import pandas as pd
import pytest

from mlfs_core.plots import (
    export,
    label_frequency_bar,
    png_export_available,
    to_png_bytes,
)

HAS_KALEIDO = importlib.util.find_spec("kaleido") is not None


@pytest.mark.skipif(
    not HAS_KALEIDO or (not png_export_available() and not os.environ.get("CI")),
    reason="kaleido not installed, or Chromium missing outside CI",
)
def test_to_png_bytes_renders_a_png_offline():
    """Check that a figure renders to PNG bytes with kaleido and the local Chromium."""
    fig = label_frequency_bar(pd.DataFrame({"label": ["a", "b"], "count": [2, 1]}))
    data = to_png_bytes(fig, width=400, height=300, scale=1)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_export_passes_the_browser_and_leaves_the_environment_alone(monkeypatch):
    """Check that the browser given reaches kaleido as an option, not via os.environ,
    and that the engine ignores BROWSER_PATH (its callers read it)."""
    monkeypatch.setenv("BROWSER_PATH", "/not/this/one")
    seen = {}

    def fake_calc(fig, *, opts, kopts):
        seen.update(kopts)
        return b"\x89PNG"

    import kaleido

    monkeypatch.setattr(kaleido, "calc_fig_sync", fake_calc)
    fig = label_frequency_bar(pd.DataFrame({"label": ["a"], "count": [1]}))
    assert export.to_png_bytes(fig, browser="/opt/some/chromium") == b"\x89PNG"
    assert seen == {"mathjax": False, "path": "/opt/some/chromium"}
    assert os.environ["BROWSER_PATH"] == "/not/this/one"
    monkeypatch.setattr(export.shutil, "which", lambda name: None)
    assert export._find_browser() is None  # BROWSER_PATH is not read here
    assert export.png_export_available("/opt/some/chromium") is True
    assert export.png_export_available() is False
