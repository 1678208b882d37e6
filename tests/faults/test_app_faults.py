"""The app's upload path uses the engine's budgets and says so with st.error."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _upload(files):
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (uploader,) = [u for u in at.file_uploader if u.key.startswith("upload_files")]
    uploader.set_value(files).run()
    at.text_input(key="upload_labels").set_value("y").run()
    at.button(key="load_upload").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _arff(n_attributes: int) -> bytes:
    head = "@relation wide\n" + "".join(
        f"@attribute a{i} numeric\n" for i in range(n_attributes)
    )
    row = ",".join(["1"] * n_attributes)
    return (head + "@attribute y {0,1}\n@data\n" + f"{row},1\n{row},0\n").encode()


def test_an_upload_declaring_too_many_attributes_is_an_error(monkeypatch):
    """Check the declared-size budget in the app: st.error with the count."""
    monkeypatch.setenv("MLFS_MAX_ATTRIBUTES", "2500")  # the sample has 2,010
    at = _upload([("wide.arff", _arff(3000), "text/plain")])
    errors = [e.value for e in at.error]
    assert len(errors) == 1
    assert "3,001 attributes" in errors[0] and "budget of 2,500" in errors[0]
    assert at.session_state["dataset"] != "wide (upload)"


def test_an_upload_above_the_size_limit_is_an_error(monkeypatch):
    """Check the upload limit (MLFS_MAX_UPLOAD_MB) before the files are kept."""
    monkeypatch.setenv("MLFS_MAX_UPLOAD_MB", "1")
    data = _arff(20) + b"%" + b" " * (2 << 20) + b"\n"
    at = _upload([("big.arff", data, "text/plain")])
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "above the limit of 1 MB" in errors[0]
