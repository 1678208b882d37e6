"""The Experiment page's baselines suite: a method against every baseline family.

The same run as ``mlfs benchmark --suite baselines``
(:func:`mlfs_core.benchmark.run_baselines`): the chosen method against the
registry's baseline families on the chosen datasets under a protocol preset,
with the task cache of the page's experiments (a stopped run resumes). The
panel shows the summary paragraph and the tables, and offers the folder (CSV
and LaTeX tables, CD diagrams) as a zip file.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pandas as pd
import streamlit as st

from mlfs_core.benchmark import run_baselines
from mlfs_core.evaluation import ProtocolConfig
from mlfs_core.views import methods_by_family, protocol_choices

from .. import links, progress, state, widgets
from .experiment import dataset_item

RESULT = "exp_baselines_folder"
"""Session key of the folder of the last suite run."""


def panel(catalogue: dict, current: str) -> None:
    """The suite's settings, its Run button and the last run's tables."""
    with st.expander("Against the field's baselines (the baselines suite)"):
        st.caption(
            "Your method against the first two methods of every baseline family "
            "of the registry (score + aggregation, information-theoretic, the "
            "field's families, the random baseline), Friedman, then "
            "Bonferroni-Dunn with your method as the control; as "
            "`mlfs benchmark --suite baselines`."
        )
        settings = _settings(catalogue, current)
        enough = len(settings["datasets"]) >= 2
        if not enough:
            st.info("Choose at least two datasets.", icon=":material/info:")
        if st.button("Run the suite", key="exp_bl_run", disabled=not enough):
            folder = widgets.call_showing_warnings(
                "The suite could not run", _run, catalogue, settings
            )
            if folder is not None:
                st.session_state[RESULT] = str(folder)
        folder = st.session_state.get(RESULT)
        if folder and Path(folder, "summary.md").is_file():
            _show(Path(folder))


def _settings(catalogue: dict, current: str) -> dict:
    known, family_of = methods_by_family()
    # the method on a row of its own: "name · family" is too long for a third
    # of a projector's 1024 px page
    method = st.selectbox(
        "Your method",
        known,
        index=len(known) - 1,  # plug-ins come last in the registry
        format_func=lambda name: f"{name} · {family_of[name]}",
        **links.bound("exp_bl_method"),
    )
    presets = list(protocol_choices())
    default = ProtocolConfig().name  # the engine's default: the field's protocol
    cols = st.columns(2)
    preset = cols[0].selectbox(
        "Protocol preset",
        presets,
        index=presets.index(default) if default in presets else 0,
        **links.bound("exp_bl_preset"),
    )
    quick = cols[1].checkbox(
        "Quick (2 splits, 6 budgets)", True, **links.bound("exp_bl_quick")
    )
    datasets = st.multiselect(
        "Benchmark data (two or more)",
        list(catalogue),
        default=[current] if current in catalogue else None,
        **links.bound("exp_bl_datasets"),
    )
    every = st.checkbox(
        "Every method of every family (slow)", False, **links.bound("exp_bl_all")
    )
    return {
        "method": method,
        "preset": preset,
        "quick": quick,
        "datasets": datasets,
        "all_baselines": every,
    }


def _run(catalogue: dict, settings: dict) -> Path:
    """Run the suite into a folder of the work dir named by the settings."""
    items = [dataset_item(n, catalogue[n]) for n in settings["datasets"]]
    key = repr(sorted(settings.items())).encode()
    folder = state.work_dir() / "baselines" / hashlib.sha256(key).hexdigest()[:16]
    bar = st.progress(0, text="Starting the baselines suite")
    eta = progress.TimeLeft()

    def report(done: int, total: int, message: str) -> None:
        eta.update(done, total)
        text = f"{done}/{total} tasks{eta.text()} · {message}"
        bar.progress(done / max(total, 1), text=text)

    result = run_baselines(
        {"name": settings["method"]},
        datasets=items,
        quick=settings["quick"],
        all_baselines=settings["all_baselines"],
        preset=settings["preset"],
        out=folder,
        cache_dir=state.work_dir() / "experiment_cache",
        progress=report,
    )
    bar.progress(1.0, text="Done")
    return result.folder


def _show(folder: Path) -> None:
    """The summary, the average ranks, the control test and a zip of the folder."""
    st.markdown(folder.joinpath("summary.md").read_text(encoding="utf-8"))
    st.markdown("**Average ranks** (1 = best)")
    st.dataframe(pd.read_csv(folder / "average_ranks.csv", index_col=0).round(2))
    test = next(
        (
            folder / f"{n}.csv"
            for n in ("bonferroni_dunn", "nemenyi")
            if (folder / f"{n}.csv").is_file()
        ),
        None,
    )
    if test is not None:
        st.markdown("**Each baseline against your method**")
        st.dataframe(pd.read_csv(test), hide_index=True)
    st.download_button(
        "Download the tables (CSV, LaTeX) and CD diagrams (zip)",
        _zipped(folder),
        file_name="baselines.zip",
        mime="application/zip",
        key="exp_bl_zip",
        on_click="ignore",
    )


def _zipped(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.iterdir()):
            if path.suffix in (".csv", ".tex", ".md", ".html", ".js", ".json"):
                archive.write(path, path.name)
    return buffer.getvalue()
