"""AppTest: a benchmark's output folder is a results source of the analysis pages."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

from mlfs_core.benchmark import find_benchmarks, run_benchmark

from .conftest import BUILT_INS

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SOURCE = "results_source_widget"


def test_a_benchmark_is_a_results_source(tiny_suite, mine, tmp_path, monkeypatch):
    """Check the Average ranks page analyses a benchmark folder like a study.

    The folder is found through ``MLFS_BENCHMARKS``; choosing it ranks the
    benchmarked method among the suite's methods, with no error.
    """
    root = tmp_path / "benchmarks"
    run_benchmark(tiny_suite, mine, out=root / "tiny", cache_dir=tmp_path / "c")
    monkeypatch.setenv("MLFS_BENCHMARKS", str(root))
    monkeypatch.setenv("MLFS_WORK_DIR", str(tmp_path / "work"))
    (label,) = find_benchmarks(root)  # the app adds $MLFS_BENCHMARKS's folders
    st.cache_data.clear()
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("app_pages/average_ranks.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert label in at.radio(key=SOURCE).options
    at.radio(key=SOURCE).set_value(label).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    chosen = [m for m in at.multiselect if str(m.key).startswith("ranks_methods")]
    assert len(chosen) == 1 and set(chosen[0].options) == {*BUILT_INS, mine}
    st.cache_data.clear()
