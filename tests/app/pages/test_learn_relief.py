"""AppTest of the Learn page "Neighbours and weights (RF-ML)": what it draws."""

from __future__ import annotations

import json

import numpy as np

from mlfs_core import compute_ranking
from mlfs_core.data import load_dataset

from ..conftest import charts, figure_data, new_app, open_page


def _on_toy(**state):
    at = new_app(**state)
    at.selectbox(key="dataset").select("toy").run()
    return open_page(at, "learn_relief")


def _specs(at) -> list[dict]:
    """Each chart's spec, its traces' typed arrays decoded to lists."""
    specs = []
    for chart in charts(at):
        spec = json.loads(chart.proto.spec)
        spec["data"] = figure_data(chart)
        specs.append(spec)
    return specs


def test_page_draws_the_neighbours_and_the_weight_shifts(data_dir):
    """Check on the toy data: the scatter has the other instances and exactly
    k neighbours, with both distances on its axes; the weight chart has its
    segments and two marker traces, the top features by RF-ML's weight; the
    table lists the k neighbours."""
    at = _on_toy()
    at.slider(key="relief_k").set_value(4).run()
    at.slider(key="relief_reference").set_value(5).run()
    at.slider(key="relief_top").set_value(6).run()
    assert not at.exception and not at.error
    scatter, shift = _specs(at)
    assert [t["name"] for t in scatter["data"]] == [
        "other instances",
        "k nearest neighbours",
    ]
    assert len(scatter["data"][1]["x"]) == 4 and len(scatter["data"][0]["x"]) == 55
    assert scatter["layout"]["xaxis"]["title"]["text"].startswith("feature distance")
    assert scatter["layout"]["yaxis"]["title"]["text"].startswith("label distance")
    assert "Instance 5: its 4 nearest" in scatter["layout"]["title"]["text"]
    assert len(shift["data"]) == 3
    assert shift["layout"]["xaxis"]["title"]["text"] == "RF-ML weight"
    ds = load_dataset(data_dir / "toy")
    scores = compute_ranking(ds.X, ds.Y, "RF-ML", n_neighbors=4).scores
    top = np.argsort(-scores, kind="stable")[:6]
    assert len(shift["data"][2]["y"]) == 6
    np.testing.assert_allclose(shift["data"][2]["x"], scores[top])
    table = at.dataframe[0].value
    assert len(table) == 4 and table["rank"].tolist() == [1, 2, 3, 4]
    assert any("Instance 5" in i.value for i in at.info)


def test_page_follows_the_url_and_plays_the_instances(data_dir, monkeypatch):
    """Check that a link's choices are used, and Play steps to the next
    instance."""
    from ui.sections import learn

    monkeypatch.setattr(learn, "PLAY_PAUSE", 0.0)
    at = _on_toy(params={"relief_reference": "58", "relief_k": "2"})
    assert at.slider(key="relief_reference").value == 58
    assert len(_specs(at)[0]["data"][1]["x"]) == 2
    at.button(key="relief_reference_play").click().run()
    assert not at.exception
    assert at.slider(key="relief_reference").value == 59
