"""The per-user workspace: named by the URL's ``ws`` token, restored on a new
session with that token, kept apart from other users, bounded on disk."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui import state, workspace

from ..conftest import new_app, open_page, results_csv, upload_toy


def _app(**params) -> AppTest:
    """A fresh session (a new tab, a reload) opened with ``params`` in its URL."""
    return new_app(params=params)


def _token(at: AppTest) -> str:
    token = at.session_state[state.SESSION]
    assert at.query_params["ws"] == [token] or at.query_params["ws"] == token
    return token


def _url_value(at: AppTest, key: str):
    value = at.query_params.get(key)
    return value[-1] if isinstance(value, list) else value


def test_a_new_session_gets_an_unguessable_token_in_its_url():
    """Check: the URL's ws is a 22-character token_urlsafe, a different one per
    session, and the workspace folder is named by it with a manifest."""
    a, b = _app(), _app()
    ta, tb = _token(a), _token(b)
    assert ta != tb and len(ta) == 22 and workspace.valid(ta)
    folder = workspace.folder(state.work_dir(), ta)
    assert json.loads((folder / "manifest.json").read_text())["version"] == 1


def test_the_upload_comes_back_selected_in_a_new_session_with_the_link():
    """Check: a session opened with the first one's ws and dataset (a reload,
    a new tab, a server restart: nothing in memory) lists the upload in the
    sidebar and has it selected."""
    first = upload_toy(_app(), "mine")
    token = _token(first)
    assert first.session_state[state.DATASET] == "mine (upload)"
    first.run()
    assert _url_value(first, "dataset") == "mine (upload)"
    again = _app(ws=token, dataset="mine (upload)")
    assert _token(again) == token
    box = again.selectbox(key="dataset")
    assert "mine (upload)" in box.options
    assert box.value == "mine (upload)"
    open_page(again, "data")
    assert not again.error
    assert any("Statistics of mine (upload)" in h.value for h in again.subheader)


def test_another_user_without_the_token_never_sees_the_workspace():
    """Check: a session without the token, or with a made-up valid-looking one,
    gets its own new workspace and none of the first one's uploads."""
    first = upload_toy(_app(), "secret")
    token = _token(first)
    guess = "A" * 22
    for other in (_app(), _app(ws=guess), _app(ws="../" + token)):
        assert _token(other) not in (token, guess)
        assert not any("secret" in o for o in other.selectbox(key="dataset").options)
    assert not workspace.folder(state.work_dir(), guess).exists()


def test_this_sessions_experiment_comes_back_on_every_analysis_page():
    """Check: results written under session_dir("runs") and chosen as the
    session's experiment are the analysis pages' source again after a reload."""
    first = _app()
    token = _token(first)
    folder = workspace.folder(state.work_dir(), token) / "runs" / "abc"
    folder.mkdir(parents=True)
    (folder / "results.csv").write_bytes(results_csv(n_datasets=2))
    first.session_state[state.EXPERIMENT_RESULTS] = str(folder)
    first.session_state[state.RESULTS_SOURCE] = state.SOURCE_SESSION
    first.run()
    manifest = workspace.read_manifest(folder.parents[1])
    assert manifest[state.EXPERIMENT_RESULTS] == "runs/abc"  # relative, not a path
    again = _app(ws=token)
    assert again.session_state[state.EXPERIMENT_RESULTS] == str(folder.resolve())
    open_page(again, "average_ranks")
    assert again.radio(key="results_source_widget").value == state.SOURCE_SESSION


def test_session_dir_is_inside_the_workspace():
    """Check: the experiment page's session_dir("runs") lies in the workspace."""
    at = _app()
    folder = workspace.folder(state.work_dir(), _token(at))
    spec = upload_toy(at, "w").session_state[state.UPLOADS]["w (upload)"]
    uploads = Path(spec["dir"])
    assert uploads.parent == folder / "uploads"


def test_over_its_size_the_workspace_drops_its_oldest_upload_and_says_so(
    monkeypatch,
):
    """Check: past MLFS_WORKSPACE_MB the oldest upload goes (not the one in use),
    the sidebar names it, and it is no longer among the datasets."""
    monkeypatch.setenv("MLFS_WORKSPACE_MB", str(2.5 * 2200 / 1024 / 1024))
    at = upload_toy(_app(), "old", 1)
    old = Path(at.session_state[state.UPLOADS]["old (upload)"]["dir"])
    past = time.time() - 100
    os.utime(old, (past, past))
    upload_toy(at, "mid", 2)
    upload_toy(at, "new", 3)
    assert not old.exists()
    assert "old (upload)" not in at.selectbox(key="dataset").options
    assert at.selectbox(key="dataset").value == "new (upload)"
    notes = [w.value for w in at.sidebar.warning]
    assert any("old (upload)" in n and "Removed from your" in n for n in notes)
    size = workspace.size(workspace.folder(state.work_dir(), _token(at)))
    assert size <= workspace.workspace_limit()


def test_a_reload_after_an_eviction_names_what_is_gone():
    """Check: an upload whose folder was removed (e.g. by the global cap) is
    left out on a reload, with a note naming it, and no error."""
    first = upload_toy(_app(), "gone")
    token = _token(first)
    folder = Path(first.session_state[state.UPLOADS]["gone (upload)"]["dir"])
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    again = _app(ws=token, dataset="gone (upload)")
    assert again.selectbox(key="dataset").value == state.SAMPLE_NAME
    assert any("gone (upload)" in w.value for w in again.sidebar.warning)


def test_old_workspaces_go_by_age_then_by_total_size(monkeypatch, tmp_path):
    """Check: sweep removes those unused past MLFS_WORKSPACE_DAYS, then the least
    recently used until all fit MLFS_WORKSPACES_TOTAL_MB, never the one kept."""
    work = tmp_path / "w"
    tokens = [workspace.new_token() for _ in range(4)]
    now = time.time()
    for age, token in zip((10, 3, 2, 1), tokens, strict=True):
        folder = workspace.folder(work, token)
        (folder / "uploads" / "x").mkdir(parents=True)
        (folder / "uploads" / "x" / "f").write_bytes(b"z" * 1000)
        workspace.write_manifest(folder, {"version": 1})
        stamp = now - age * 86400
        os.utime(folder / "manifest.json", (stamp, stamp))
    monkeypatch.setenv("MLFS_WORKSPACE_DAYS", "5")
    monkeypatch.setenv("MLFS_WORKSPACES_TOTAL_MB", str(2200 / 1024 / 1024))
    removed = workspace.sweep(work, keep=tokens[1], now=now)
    assert removed == [tokens[0], tokens[2]]  # too old; then the oldest not kept
    left = sorted(p.name for p in workspace.root(work).iterdir())
    assert left == sorted([tokens[1], tokens[3]])
    assert workspace.clear_all(work) == 2
    assert list(workspace.root(work).iterdir()) == []


def test_manifest_is_written_atomically_and_a_broken_one_is_ignored(tmp_path):
    """Check: the manifest is replaced whole (no temp file left), and an
    unreadable manifest reads as None (a new workspace, not a traceback)."""
    folder = tmp_path / "space"
    workspace.write_manifest(folder, {"a": 1})
    workspace.write_manifest(folder, {"a": 2})
    assert workspace.read_manifest(folder) == {"a": 2}
    assert [p.name for p in folder.iterdir()] == ["manifest.json"]
    (folder / "manifest.json").write_text("{not json")
    assert workspace.read_manifest(folder) is None


@pytest.mark.parametrize("bad", ["", "short", "a/b" * 10, "..", "x" * 65, None])
def test_a_token_that_is_not_ours_is_never_a_path(bad, tmp_path):
    """Check: folder() refuses anything but the token alphabet and length."""
    with pytest.raises(ValueError):
        workspace.folder(tmp_path, bad)


def test_bad_limits_in_the_environment_are_named(monkeypatch):
    """Check: a limit that is no positive number is refused naming the variable."""
    monkeypatch.setenv("MLFS_WORKSPACE_MB", "lots")
    with pytest.raises(ValueError, match="MLFS_WORKSPACE_MB"):
        workspace.workspace_limit()
    monkeypatch.setenv("MLFS_WORKSPACE_MB", "-1")
    with pytest.raises(ValueError, match="positive"):
        workspace.workspace_limit()
