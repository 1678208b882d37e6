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


def test_a_failed_experiment_run_says_what_it_kept(tmp_path, monkeypatch):
    """Check the Experiment page: a full disk at the final write is st.error
    naming the path, with the finished tasks kept (counted) for the next Run."""
    import ui.sections.experiment as experiment
    from mlfs_core.errors import DiskFullError

    def full(result, folder):
        raise DiskFullError(f"no space left on device writing {folder}/results.csv")

    monkeypatch.setenv("MLFS_WORK_DIR", str(tmp_path / "work"))
    monkeypatch.setattr(experiment, "save", full)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("app_pages/experiment.py").run()
    at.multiselect(key="exp_methods_A").set_value(["MaxCS"]).run()
    at.text_input(key="exp_folds_A").set_value("2").run()
    at.text_input(key="exp_budgets_A").set_value("10").run()
    at.button(key="exp_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (error,) = [e.value for e in at.error]
    assert "no space left on device writing" in error and "results.csv" in error
    cache = tmp_path / "work" / "experiment_cache"
    kept = len(list(cache.glob("*/*.json")))
    assert kept > 0
    assert f"Kept: the {kept} finished tasks, in the cache: Run resumes" in error
    monkeypatch.undo()
    monkeypatch.setenv("MLFS_WORK_DIR", str(tmp_path / "work"))
    at.button(key="exp_run").click().run()
    assert not at.error and len(list(cache.glob("*/*.json"))) == kept
