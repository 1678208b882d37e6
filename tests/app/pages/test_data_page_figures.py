"""The Data page's charts: drawn once per dataset, the same as the pure functions."""

from __future__ import annotations

import json

from mlfs_core.data import describe, load_dataset
from mlfs_core.plots import cooccurrence_heatmap, label_frequency_bar

from ..conftest import charts, new_app


def _traces_and_title(fig: dict) -> tuple[list, str]:
    return fig["data"], fig["layout"]["title"]["text"]


def test_data_page_charts_are_the_pure_functions_figures():
    """Check that the sample's two Data page charts, shown from cached dicts
    without validation, carry the traces and titles that label_frequency_bar
    and cooccurrence_heatmap draw from the sample's counts."""
    from ui.datasets import SAMPLE_KEY

    at = new_app()
    shown = [json.loads(c.proto.spec) for c in charts(at)]
    ds = load_dataset(SAMPLE_KEY.path)
    expected = [
        label_frequency_bar(describe.label_frequency(ds.Y, ds.label_names)),
        cooccurrence_heatmap(describe.label_cooccurrence(ds.Y, ds.label_names)),
    ]
    expected = [json.loads(fig.to_json()) for fig in expected]
    got = [_traces_and_title(f) for f in shown if f.get("data")]
    assert got[-2:] == [_traces_and_title(f) for f in expected]


def test_data_page_figures_are_drawn_once_per_dataset(monkeypatch):
    """Check that a second session's Data page takes the figures from the cache
    (the drawing functions are not called again)."""
    import ui.cached as cached

    calls = []
    real = cached.label_frequency_bar

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(cached, "label_frequency_bar", counting)
    new_app()
    new_app()
    assert calls == [1]


def test_the_data_page_leaves_plugins_to_the_other_pages(monkeypatch):
    """Check that the router loads the server's plug-ins for every page but the
    first one (Data lists no method; its imports stay off the first page's
    path), and does so on the next page."""
    import ui.sections.methods as methods

    from ..conftest import open_page

    calls = []
    real = methods.server_plugins

    def counting():
        calls.append(1)
        return real()

    monkeypatch.setattr(methods, "server_plugins", counting)
    at = new_app()
    assert calls == []
    open_page(at, "rank")
    assert calls == [1]
