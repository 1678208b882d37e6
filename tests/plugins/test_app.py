"""The app loads plug-ins from the server's side only and shows them (AppTest)."""

from __future__ import annotations

from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def app_env(tmp_path, monkeypatch, fresh_plugins):
    """Fresh Streamlit caches and work folder; plug-ins removed afterwards."""
    st.cache_data.clear()
    st.cache_resource.clear()
    monkeypatch.setenv("MLFS_WORK_DIR", str(tmp_path / "work"))
    monkeypatch.delenv("MLFS_DATA_DIR", raising=False)
    yield monkeypatch
    st.cache_data.clear()
    st.cache_resource.clear()


def _app(page=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if page is not None:
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
    return at


def fresh_plugins_digest(path) -> str:
    from mlfs_core.plugins import file_digest

    return file_digest(path)


def _tables(at) -> list:
    return [t.value for t in at.table]


def test_about_lists_the_server_plugins_with_versions(app_env, plugin_file):
    """Check that a plug-in named by MLFS_PLUGINS is loaded by the app and that
    About lists it with its file's name, method, version, classifier and
    metric, and no file digest (issue 54, item 8)."""
    app_env.setenv("MLFS_PLUGINS", str(plugin_file))
    at = _app("about")
    digest = fresh_plugins_digest(plugin_file)
    expected = (
        "- **example_plugin.py** (file): methods: "
        "`SumPearson` (version 1); classifiers: ridge_br; metrics: cardinality_error"
    )
    lines = [line for m in at.markdown for line in m.value.splitlines()]
    assert expected in lines
    shown = " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])
    assert digest[:8] not in shown and "digest" not in shown
    methods = [t for t in _tables(at) if "What it does" in t.columns]
    assert any("SumPearson" in t.index for t in methods)
    subheaders = [s.value for s in at.subheader]
    assert "Your methods" in subheaders


def test_about_options_show_no_lone_bullet(app_env):
    """Check that a method without options says "none" (a bare "-" cell renders
    as a Markdown bullet in st.table)."""
    at = _app("about")
    cells = [
        v
        for t in _tables(at)
        if "Options (defaults)" in t.columns
        for v in t["Options (defaults)"]
    ]
    assert "none" in cells
    assert not [c for c in cells if c.strip() in {"-", "*", ""}]


def test_rank_features_picker_offers_the_plugin_family(app_env, plugin_file):
    """Check that the Rank features picker lists the plug-in's family (from the
    registry) and ranks with its method."""
    app_env.setenv("MLFS_PLUGINS", str(plugin_file))
    at = _app("rank")
    family = at.radio(key="rank_a_family")
    assert "Your methods" in family.options
    family.set_value("Your methods").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="rank_a_method").value == "SumPearson"
    assert at.dataframe, "no ranking table"


def test_a_broken_server_plugin_is_an_error_message_not_a_traceback(app_env, tmp_path):
    """Check that a failing plug-in shows st.error and the app still works."""
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no')\n")
    app_env.setenv("MLFS_PLUGINS", str(broken))
    at = _app("about")
    errors = [e.value for e in at.error]
    assert any("broken.py" in e and "RuntimeError: no" in e for e in errors)
    assert [s.value for s in at.subheader][:1]  # the page rendered
