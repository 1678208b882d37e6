"""Tests of the offline PNG export."""

from __future__ import annotations

import importlib.util
import os

import pandas as pd
import pytest

from mlfs_core.plots import label_frequency_bar, png_export_available, to_png_bytes

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
