"""AppTest: the Play button of each Learn page steps through the computation."""

from __future__ import annotations

import time

import pytest

from ui.sections import learn

from ..conftest import charts, figure_data, new_app, open_page


@pytest.fixture(autouse=True)
def _no_pause(monkeypatch):
    """Play without waiting between steps (the pause is for people)."""
    monkeypatch.setattr(learn, "PLAY_PAUSE", 0.0)


def _play(at, key: str):
    at.button(key=f"{key}_play").click().run()
    assert not at.exception and not at.error
    return at


def test_play_on_the_aggregation_page_reaches_the_last_pick():
    """Check Play from step 1 ends on the last step, with the last column of the
    heatmap circled as "this turn" and the steps table listing every pick."""
    at = open_page(new_app(), "learn_aggregation")
    at.slider(key="agg_k").set_value(6).run()
    assert at.slider(key="agg_step").value == 1
    _play(at, "agg_step")
    assert at.slider(key="agg_step").value == 6
    assert len(at.dataframe[0].value) == 6
    (heat,) = [c for c in charts(at) if "Whose turn" in c.proto.spec]
    (turn,) = [t for t in figure_data(heat) if t.get("name") == "this turn"]
    assert turn["x"] == [figure_data(heat)[0]["x"][5]]
    assert at.query_params["agg_step"] == "6"  # the URL shows where it stopped


def test_play_on_the_greedy_page_reaches_the_last_step():
    """Check Play from step 2 of 5 ends at step 5 (the path's last pick shown)."""
    at = open_page(new_app(), "learn_greedy")
    at.slider(key="greedy_k").set_value(5).run()
    at.slider(key="greedy_step").set_value(2).run()
    _play(at, "greedy_step")
    assert at.slider(key="greedy_step").value == 5
    assert at.info[0].value.startswith("Step 5:")
    assert len(at.dataframe[0].value) == 5


def test_play_on_the_score_page_shows_every_label_in_turn():
    """Check Play steps the label to the last one, whose table is then shown."""
    at = open_page(new_app(), "learn_score")
    labels = at.selectbox(key="score_label").options
    _play(at, "score_label")
    assert at.selectbox(key="score_label").value == len(labels) - 1
    assert at.subheader[0].value.endswith(f"and {labels[-1]}")


def test_play_at_the_last_step_starts_again_from_the_first():
    """Check Play on the last step replays from step 1 to the last."""
    at = open_page(new_app(), "learn_greedy")
    at.slider(key="greedy_k").set_value(3).run()
    at.slider(key="greedy_step").set_value(3).run()
    seen = []
    original = learn.play_next

    def spy(key, **kwargs):
        seen.append(kwargs["current"])
        original(key, **kwargs)

    learn.play_next = spy
    try:
        _play(at, "greedy_step")
    finally:
        learn.play_next = original
    assert seen == [1, 2, 3]
    assert at.slider(key="greedy_step").value == 3


def test_pause_stops_on_the_step_shown(monkeypatch):
    """Check Pause, clicked while a step is due, shows that step and plays no
    further; the button reads Pause while playing, Play after."""
    at = open_page(new_app(), "learn_aggregation")
    monkeypatch.setattr(learn, "play_next", lambda key, **kwargs: None)
    at.session_state["_play_next_agg_step"] = (3, time.monotonic())
    at.run()  # a playing run, as play_next leaves it (halted here): step 3 shown
    assert at.slider(key="agg_step").value == 3
    assert at.button(key="agg_step_play").label == "Pause"
    monkeypatch.undo()
    monkeypatch.setattr(learn, "PLAY_PAUSE", 0.0)
    at.session_state["_play_next_agg_step"] = (4, time.monotonic())
    at.button(key="agg_step_play").click().run()
    assert at.slider(key="agg_step").value == 4
    assert at.button(key="agg_step_play").label == "Play"


def test_the_button_reads_play_again_after_the_last_step():
    """Check a finished play leaves the Play button, not Pause."""
    at = open_page(new_app(), "learn_greedy")
    at.slider(key="greedy_k").set_value(3).run()
    _play(at, "greedy_step")
    assert at.slider(key="greedy_step").value == 3
    assert at.button(key="greedy_step_play").label == "Play"
