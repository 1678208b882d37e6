"""AppTest of the Learn page "Sparse regression, iteration by iteration"."""

from __future__ import annotations

import json

import numpy as np

from mlfs_core.data import load_dataset
from mlfs_core.explain import sparse_steps

from ..conftest import charts, figure_data, new_app, open_page


def _on_toy(**state):
    at = new_app(**state)
    at.selectbox(key="dataset").select("toy").run()
    return open_page(at, "learn_sparse")


def test_draws_the_objective_the_settling_ranking_and_the_shrinkage(data_dir):
    """Check the three charts on the toy data: one objective trace starting at
    iteration 0 with the engine's values, one trace per followed feature in
    the other two, their axis titles, and the stopping sentence."""
    at = _on_toy()
    at.selectbox(key="sparse_method").set_value("MIFS").run()
    at.slider(key="sparse_top").set_value(5).run()
    assert not at.exception and not at.error
    drawn = charts(at)
    assert len(drawn) == 3
    objective, settles, shrink = (json.loads(c.proto.spec) for c in drawn)
    ds = load_dataset(data_dir / "toy")
    expected = sparse_steps(ds.X, ds.Y, "MIFS", top=5)
    (trace,) = figure_data(drawn[0])
    assert trace["x"][0] == 0
    np.testing.assert_allclose(trace["y"], expected.objective["objective"], rtol=1e-12)
    assert objective["layout"]["xaxis"]["title"]["text"] == "iteration (0 = start)"
    assert objective["layout"]["yaxis"]["title"]["text"] == "objective"
    assert len(settles["data"]) == 5 and len(shrink["data"]) == 5
    names = [t["name"] for t in settles["data"]]
    assert names == [f"#{j} {ds.feature_names[j]}" for j in expected.top]
    assert [t["name"] for t in shrink["data"]] == names
    assert settles["layout"]["yaxis"]["autorange"] == "reversed"
    assert shrink["layout"]["xaxis"]["title"]["text"] == "gamma (log scale)"
    assert shrink["layout"]["yaxis"]["title"]["text"] == "row norm ||W_i||"
    assert any("MIFS stopped after" in c.value for c in at.caption)


def test_llsf_shrinks_beta_and_options_reach_the_engine(data_dir):
    """Check that LLSF's grid is over beta and a changed max_iter is used."""
    at = _on_toy()
    at.selectbox(key="sparse_method").set_value("LLSF").run()
    at.number_input(key="sparse_llsf_tol").set_value(0.0).run()
    at.number_input(key="sparse_llsf_max_iter").set_value(7).run()
    assert not at.exception and not at.error
    objective, _, shrink = (json.loads(c.proto.spec) for c in charts(at))
    assert len(figure_data(charts(at)[0])[0]["x"]) == 8  # start + 7 steps
    assert shrink["layout"]["xaxis"]["title"]["text"] == "beta (log scale)"
    assert "Row norms of W shrink as beta grows" in shrink["layout"]["title"]["text"]


def test_presentation_mode_draws_the_objective_first_and_large(data_dir):
    """Check presentation mode: the objective chart comes first, taller."""
    at = _on_toy(present=False)
    plain = json.loads(charts(at)[0].proto.spec)["layout"]["height"]
    at.query_params["present"] = "true"
    at.run()
    assert not at.exception
    spec = json.loads(charts(at)[0].proto.spec)
    assert spec["layout"]["title"]["text"].endswith(
        "the objective, iteration by iteration"
    )
    assert spec["layout"]["height"] >= plain
