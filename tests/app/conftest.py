"""Fixtures of the app tests: a fresh AppTest, cleared caches, a tiny dataset folder.

The tests follow the app's code: ``pages/`` (app.py and app_pages/),
``ui/`` (ui/*.py), ``sections/`` (ui/sections/) and ``browser/`` (the
Playwright tests, whose server and Chromium fixtures are in its conftest.py).
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
TOY_NAME = "toy"


def _arff(relation: str, feature: str, X, Y) -> str:
    """Mulan ARFF text: numeric features ``{feature}0..``, 0/1 labels l0..lq-1."""
    lines = [f"@relation {relation}"]
    lines += [f"@attribute {feature}{j} numeric" for j in range(X.shape[1])]
    lines += [f"@attribute l{i} {{0,1}}" for i in range(Y.shape[1])]
    lines.append("@data")
    lines += [",".join(map(str, [*x, *y])) for x, y in zip(X, Y, strict=True)]
    return "\n".join(lines) + "\n"


def toy_arff(n_samples: int = 60, n_features: int = 12, seed: int = 0) -> str:
    """A small Mulan ARFF text: numeric word counts and three labels l0..l2."""
    rng = np.random.default_rng(seed)
    X = rng.poisson(0.8, size=(n_samples, n_features))
    Y = (rng.random((n_samples, 3)) < 0.4).astype(int)
    X[:, 0] += 2 * Y[:, 0]  # w0 is informative for l0
    return _arff("toy", "w", X, Y)


def dense_arff(n_samples: int = 40, n_features: int = 6, seed: int = 0) -> str:
    """Numeric features that are never zero (as on emotions or yeast), labels l0..l2."""
    rng = np.random.default_rng(seed)
    X = rng.normal(10.0, 1.0, size=(n_samples, n_features)).round(3)
    Y = (rng.random((n_samples, 3)) < 0.4).astype(int)
    Y[:3] = 1  # every label positive somewhere
    return _arff("dense", "v", X, Y)


TOY_XML = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<labels xmlns="http://mulan.sourceforge.net/labels">\n'
    + "".join(f'<label name="l{i}"></label>\n' for i in range(3))
    + "</labels>\n"
)


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    """Clear Streamlit's process-wide caches and point the app at temporary folders."""
    st.cache_data.clear()
    st.cache_resource.clear()
    monkeypatch.setenv("MLFS_WORK_DIR", str(tmp_path / "work"))
    monkeypatch.delenv("MLFS_DATA_DIR", raising=False)
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


def dataset_dir(root: Path, name: str, arff: str, monkeypatch) -> Path:
    """``root/datasets/name`` holding ``name.arff`` (the text ``arff``) and
    ``name.xml`` (labels l0..l2); its parent is set as MLFS_DATA_DIR."""
    folder = root / "datasets" / name
    folder.mkdir(parents=True)
    (folder / f"{name}.arff").write_text(arff)
    (folder / f"{name}.xml").write_text(TOY_XML)
    monkeypatch.setenv("MLFS_DATA_DIR", str(folder.parent))
    return folder


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    """A folder with one toy dataset (ARFF + XML), set as MLFS_DATA_DIR."""
    return dataset_dir(tmp_path, TOY_NAME, toy_arff(), monkeypatch).parent


def upload_toy(at: AppTest, stem: str, seed: int = 1) -> AppTest:
    """Upload a toy dataset ``stem`` (:func:`toy_arff` of ``seed`` and its XML)
    on the Data page; fail on any exception or error."""
    upload(
        at,
        [(f"{stem}.arff", toy_arff(seed=seed).encode(), "text/plain"),
         (f"{stem}.xml", TOY_XML.encode(), "text/xml")],
    )  # fmt: skip
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at


@pytest.fixture
def plugin_from(tmp_path, monkeypatch):
    """``plugin_from(name, text)`` writes a plug-in file ``name.py`` and names it
    in MLFS_PLUGINS (returns its path); what it registered is removed afterwards."""
    from mlfs_core import plugins

    saved = plugins.checkpoint(), set(sys.modules)

    def write(name: str, text: str) -> Path:
        path = tmp_path / f"{name}.py"
        path.write_text(text)
        monkeypatch.setenv("MLFS_PLUGINS", str(path))
        return path

    yield write
    plugins.rollback(saved[0])
    for module in [m for m in sys.modules if m not in saved[1]]:
        if module.startswith("_mlfs_plugin_"):
            sys.modules.pop(module)


def spy_rankings(monkeypatch, keyword: str = "k") -> list[tuple[str, object]]:
    """Record (method, its ``keyword`` argument) of every engine ranking asked for."""
    import mlfs_core

    calls = []
    real = mlfs_core.compute_ranking

    def spy(X, Y, method, **kwargs):
        calls.append((method, kwargs.get(keyword)))
        return real(X, Y, method, **kwargs)

    monkeypatch.setattr(mlfs_core, "compute_ranking", spy)
    return calls


def new_app(
    *, params: dict | None = None, present: bool = False, timeout: float = 60, **state
) -> AppTest:
    """An AppTest of app.py, run once, with no exception.

    ``params``: the URL's query parameters (``present``: with
    ``present=true``); ``state``: session-state values set before the first
    run (widget key -> value).
    """
    at = AppTest.from_file(APP, default_timeout=timeout)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    if present:
        at.query_params["present"] = "true"
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def link_shared(shared: Path, folder: Path, monkeypatch, *names: str) -> Path:
    """``folder`` holding a link to each shared dataset of ``names``, as the
    app's data folder (``MLFS_DATA_DIR``)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).symlink_to(shared / name)
    monkeypatch.setenv("MLFS_DATA_DIR", str(folder))
    return folder


def text_sizes(spec: dict) -> list[float]:
    """Every font size under ``spec`` (a Plotly figure's JSON, or part of it)."""
    sizes = []

    def walk(node, inside_font=False):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "size" and inside_font and isinstance(v, int | float):
                    sizes.append(v)
                walk(v, inside_font or "font" in k)
        elif isinstance(node, list):
            for v in node:
                walk(v, inside_font)

    walk(spec)
    return sizes


def open_page(at: AppTest, page: str) -> AppTest:
    """Switch to the page script named ``page`` and run it; fail on any exception."""
    at.switch_page(PAGE_PATHS[page]).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def upload(at: AppTest, files: list[tuple[str, bytes, str]], **labels) -> AppTest:
    """Put ``files`` in the Data page's dataset uploader, set the label widgets
    (``labels``: widget key -> value), and press Load."""
    (uploader,) = [u for u in at.file_uploader if u.key.startswith("upload_files")]
    uploader.set_value(files).run()
    for key, value in labels.items():
        widget = at.radio(key=key) if key == "upload_label_end" else None
        if widget is None:
            widget = (at.number_input if key.endswith("count") else at.text_input)(
                key=key
            )
        widget.set_value(value).run()
    at.button(key="load_upload").click().run()
    return at


def charts(at: AppTest) -> list:
    """The plotly charts on the page (AppTest has no typed accessor for them)."""
    return at.get("plotly_chart")


def results_csv(n_datasets: int = 3, metric: str = "micro_f1") -> bytes:
    """A tidy results CSV: A > B > C on every dataset, two budgets, two folds."""
    rows = ["dataset,protocol,method,budget,budget_pct,fold,repeat,metric,value"]
    quality = {"A": 0.8, "B": 0.6, "C": 0.4}
    for d in range(n_datasets):
        for method, q in quality.items():
            for pct in (10, 50):
                for fold in (0, 1):
                    value = q + 0.01 * d + 0.001 * fold
                    rows.append(
                        f"d{d},A,{method},{pct},{pct}.0,{fold},0,{metric},{value}"
                    )
    return ("\n".join(rows) + "\n").encode()


def selections_csv(n_datasets: int = 3) -> bytes:
    """Selections for results_csv: A and B share their top features, C does not."""
    rows = ["dataset,method,fold,repeat,n_features,features"]
    orders = {"A": range(20), "B": [1, 0, *range(2, 20)], "C": range(19, -1, -1)}
    for d in range(n_datasets):
        for method, order in orders.items():
            for fold in (0, 1):
                features = " ".join(map(str, order))
                rows.append(f"d{d},{method},{fold},0,20,{features}")
    return ("\n".join(rows) + "\n").encode()


def upload_results(
    at: AppTest, *, with_selections: bool = True, metric: str = "micro_f1"
) -> AppTest:
    """Choose the "Uploaded results CSV" source and upload the synthetic tables."""
    at.radio(key="results_source_widget").set_value("Uploaded results CSV").run()
    at.file_uploader(key="results_upload").set_value(
        ("results.csv", results_csv(metric=metric), "text/csv")
    ).run()
    if with_selections:
        at.file_uploader(key="selections_upload").set_value(
            ("selections.csv", selections_csv(), "text/csv")
        ).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def figure_data(chart) -> list[dict]:
    """The traces of a plotly chart element, typed arrays decoded to lists."""
    return [
        {k: _decode(v) for k, v in t.items()}
        for t in json.loads(chart.proto.spec)["data"]
    ]


def _decode(value):
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        if shape:
            array = array.reshape([int(n) for n in str(shape).split(",")])
        return array.tolist()
    return value


PAGE_PATHS = {
    "data": "app_pages/data.py",
    "rank": "app_pages/rank.py",
    "experiment": "app_pages/experiment.py",
    "average_ranks": "app_pages/average_ranks.py",
    "similarity": "app_pages/similarity.py",
    "budget": "app_pages/budget.py",
    "about": "app_pages/about.py",
    "learn_score": "app_pages/score.py",
    "learn_aggregation": "app_pages/aggregation.py",
    "learn_greedy": "app_pages/greedy.py",
    "learn_relief": "app_pages/learn_relief.py",
    "learn_sparse": "app_pages/learn_sparse.py",
}
"""Page name -> script path relative to app.py (AppTest's switch_page wants the path).
"""


def widget(at: AppTest, kind: str, prefix: str):
    """The one widget of ``kind`` (e.g. "multiselect") whose key starts with ``prefix``.

    Widgets over a results table's options carry a digest of the options in
    their key (``ui.choices.options_key``).
    """
    found = [w for w in getattr(at, kind) if str(w.key).startswith(prefix)]
    assert len(found) == 1, [w.key for w in getattr(at, kind)]
    return found[0]
