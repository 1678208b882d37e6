"""AppTest: the Learn pages and Rank features draw one row/column per feature.

Issue 43, item 1: on emotions the greedy step drew 8 candidates as 3 rows (the
names cut to one prefix, plotly merged the rows and stacked their bars) and
the aggregation drew 10 picks as 4 heatmap columns. These tests count what is
drawn in each figure's JSON against what the engine computed, on the planted
sample and on three real datasets (dense and wide emotions and medical, large
bibtex), loaded through the app's own loader.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from mlfs_core.data import load_dataset
from mlfs_core.explain import greedy_steps, method_view
from mlfs_core.plots.explain import MAX_LABEL_ROWS
from ui.state import SAMPLE_DIR

from ..conftest import charts, figure_data, link_shared, new_app, open_page

REAL = ("emotions", "medical", "bibtex")
SAMPLE = "sample (planted)"


@pytest.fixture
def real_dir(shared_datasets, tmp_path, monkeypatch):
    """A data folder with links to the three shared datasets, as MLFS_DATA_DIR."""
    link_shared(shared_datasets, tmp_path / "real", monkeypatch, *REAL)
    return shared_datasets


def _dataset(name, real):
    return load_dataset(SAMPLE_DIR if name == SAMPLE else real / name)


def _app(name, page: str, **state):
    """The app on dataset ``name`` with ``state`` preset (small steps for
    bibtex), opened on ``page`` with no exception or error."""
    at = new_app()
    for key, value in state.items():
        at.session_state[key] = value
    if name != SAMPLE:
        at.selectbox(key="dataset").select(name).run()
    open_page(at, page)
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at


def _chart(at, word: str) -> dict:
    (found,) = [c for c in charts(at) if word in c.proto.spec]
    return found


@pytest.fixture(params=[SAMPLE, *REAL])
def dataset(request):
    if request.param == SAMPLE:
        return SAMPLE, None
    return request.param, request.getfixturevalue("real_dir")


def test_greedy_step_draws_one_row_per_candidate(dataset):
    """Check every greedy step's chart: as many distinct rows as candidates, each
    trace one bar per candidate, and the pick's terms not stacked with others'."""
    name, real = dataset
    at = _app(name, "learn_greedy", greedy_method="PMU", greedy_k=3)
    ds = _dataset(name, real)
    expected = greedy_steps(ds.X, ds.Y, "PMU", k=3)
    for step in (1, 3):
        at.slider(key="greedy_step").set_value(step).run()
        assert not at.exception and not at.error
        traces = figure_data(_chart(at, "Candidates at this step"))
        shown = expected.candidates[expected.candidates["step"] == step]
        bars = [t for t in traces if t["type"] == "bar"]
        assert len(bars) == len(expected.terms)
        for trace in traces:
            assert len(trace["y"]) == len(shown)
            assert len(set(trace["y"])) == len(shown)  # no two candidates merged
        rows = traces[0]["y"]
        assert rows[0].startswith("★ #")  # the pick, first
        for row, j in zip(rows, shown["feature"], strict=True):
            assert row.removeprefix("★ ").startswith(f"#{j} ")
        total = next(t for t in traces if t["type"] == "scatter")
        np.testing.assert_allclose(total["x"], shown["criterion"], rtol=1e-9)


def test_aggregation_heatmap_draws_one_column_per_pick(dataset):
    """Check the aggregation heatmap: one distinct column per selected feature
    (k of them), one row per label, the columns in the engine's order."""
    name, real = dataset
    at = _app(name, "learn_aggregation", agg_method="Max", agg_k=10)
    ds = _dataset(name, real)
    steps, _, _ = method_view(ds.X, ds.Y, "MaxCS", k=10)
    heat = figure_data(_chart(at, "Whose turn it is"))[0]
    assert heat["type"] == "heatmap"
    assert len(heat["x"]) == len(set(heat["x"])) == len(steps) == 10
    rows = min(ds.Y.shape[1], MAX_LABEL_ROWS)  # bibtex: 30 of its 159 labels
    assert len(heat["y"]) == len(set(heat["y"])) == rows
    assert np.asarray(heat["z"]).shape == (rows, 10)
    for text, j in zip(heat["x"], steps["feature"], strict=True):
        assert text.startswith(f"#{j} ")


def test_score_heatmap_draws_one_column_per_top_feature(dataset):
    """Check the score page's heatmap: one distinct column per top feature."""
    name, _ = dataset
    at = _app(name, "learn_score", score_top=15)
    heat = figure_data(_chart(at, "of the top 15 features"))[0]
    n_features = min(15, len(at.selectbox(key="score_feature").options))
    assert len(heat["x"]) == len(set(heat["x"])) == n_features
    assert all(str(x).startswith("#") for x in heat["x"])


def test_rank_bars_one_per_feature(dataset):
    """Check Rank features: one distinct bar per shown feature."""
    name, _ = dataset
    at = _app(name, "rank", rank_top=25)
    bar = figure_data(_chart(at, "top 25"))[0]
    assert len(bar["y"]) == len(set(bar["y"])) == 25
    spec = json.loads(_chart(at, "top 25").proto.spec)
    ticks = spec["layout"]["yaxis"]["ticktext"]
    assert len(set(ticks)) == 25 and all(t.startswith("#") for t in ticks)


def test_rank_says_when_the_shown_features_tie(real_dir):
    """Check MaxCS on medical: the top 20 share one score, and the page says tied
    features are in file order; on the sample (no ties) it says nothing."""
    at = _app("medical", "rank")
    scores = at.dataframe[0].value["score"]
    tied = int((scores.duplicated(keep=False) & (scores != 0)).sum())
    assert tied >= 2
    (note,) = [c.value for c in at.caption if "share their score" in c.value]
    assert note.startswith(f"{tied} of these 20 features") and "file's order" in note
    at = open_page(new_app(), "rank")
    assert not [c.value for c in at.caption if "share their score" in c.value]
