"""Uploaded results CSVs belong to the browser session that uploaded them."""

from __future__ import annotations

from pathlib import Path

from ..conftest import charts, figure_data, new_app, open_page, results_csv


def _upload_results(at, data: bytes):
    """Choose the uploaded source on Metric vs budget and upload ``data``."""
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", data, "text/csv")
    ).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    return Path(at.session_state["uploaded_results"])


def _datasets_drawn(at) -> set[str]:
    return {t.get("xaxis", "x") for t in figure_data(charts(at)[0])}


def test_two_sessions_keep_their_own_uploaded_results():
    """Check: each session's results land in its own folder (under its token),
    the same file uploaded by both is two copies, and a later upload by one
    session never changes what the other reads or draws."""
    alice = open_page(new_app(), "budget")
    bob = open_page(new_app(), "budget")
    mine, theirs = results_csv(n_datasets=1), results_csv(n_datasets=3)
    alice_dir = _upload_results(alice, mine)
    bob_same = _upload_results(bob, mine)  # the same bytes: still two folders
    assert bob_same != alice_dir
    assert alice_dir.parent.parent.name == alice.session_state["session_token"]
    assert bob_same.parent.parent.name == bob.session_state["session_token"]
    assert len(_datasets_drawn(alice)) == 1
    bob_dir = _upload_results(bob, theirs)
    assert (alice_dir / "results.csv").read_bytes() == mine  # not overwritten
    assert (bob_dir / "results.csv").read_bytes() == theirs
    alice.run()
    assert not alice.exception
    assert Path(alice.session_state["uploaded_results"]) == alice_dir
    assert len(_datasets_drawn(alice)) == 1  # never bob's three datasets
    assert len(_datasets_drawn(bob)) == 3


def test_uploaded_results_removed_by_the_quota_ask_for_a_new_upload(monkeypatch):
    """Check: results evicted by the session's quota say "upload them again"
    rather than pointing at a missing folder."""
    at = open_page(new_app(), "budget")
    folder = _upload_results(at, results_csv(n_datasets=1))
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    at.run()
    assert not at.exception
    assert any("upload them again" in i.value for i in at.info)


def test_results_over_the_global_cap_are_refused_with_a_clear_message(monkeypatch):
    """Check: past MLFS_UPLOAD_TOTAL_MB the results upload gives one st.error
    naming the cap, and no folder is kept."""
    monkeypatch.setenv("MLFS_UPLOAD_TOTAL_MB", str(100 / 1024 / 1024))
    at = open_page(new_app(), "budget")
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", results_csv(), "text/csv")
    ).run()
    assert not at.exception
    (message,) = [e.value for e in at.error]
    assert message.startswith("Could not keep the upload") and "MB" in message
    assert at.session_state["uploaded_results"] is None
