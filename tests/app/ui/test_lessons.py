"""AppTest: the lesson player (``?lesson=NAME&step=N``) and the lesson recorder.

What a student sees at each step of a lesson (the note, the question, the
step counter, the page and its chart), the URL after Next and Previous (the
step and the step's view, so a copied link opens the same step), what a
student reads when the server lacks the lesson's dataset or the link is bad,
and a recorded lesson's file.
"""

from __future__ import annotations

import pytest

from mlfs_core.lessons import bundled_lessons, read_lesson
from tests.conftest import shared_datasets_dir

from ..conftest import charts, figure_data, link_shared, new_app

TITLES = {
    "score": "A score, step by step",
    "aggregation": "An aggregation, step by step",
    "greedy": "A greedy step",
    "rank": "Rank features",
}

PROBE = """title = "Probe"
datasets = ["sample (planted)"]

[[step]]
view = "score?dataset=sample+%28planted%29&score_top=10"
note = "Note one."
question = "Question one?"

[[step]]
view = "score?dataset=sample+%28planted%29&score_top=30&score_measure=BNS"
note = "Note two: the same page, other choices."

[[step]]
view = "aggregation?dataset=sample+%28planted%29&agg_method=RoR"
note = "Note three."
question = "Question three?"
"""


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """A three-step lesson ``probe`` on the sample, in MLFS_DATA_DIR."""
    (tmp_path / "probe.toml").write_text(PROBE)
    monkeypatch.setenv("MLFS_DATA_DIR", str(tmp_path))
    return tmp_path


def _page_title(at) -> str:
    return at.title[0].value


def _panel_text(at) -> list[str]:
    return [m.value for m in at.markdown]


def test_a_lesson_link_opens_its_first_step(probe):
    """Check ?lesson=probe opens step 1's page with its choices, note and question."""
    at = new_app(params={"lesson": "probe"})
    assert not at.error, [e.value for e in at.error]
    assert _page_title(at) == TITLES["score"]
    assert "**Probe** · step 1 of 3" in _panel_text(at)
    assert "Note one." in _panel_text(at)
    assert at.info[0].value == "**Question:** Question one?"
    assert at.slider(key="score_top").value == 10
    assert at.query_params["score_top"] == "10"
    assert at.button(key="lesson_prev").disabled
    heat = figure_data(charts(at)[0])[0]
    assert heat["type"] == "heatmap" and len(heat["x"]) == 10  # the top 10 features


def test_next_and_previous_move_the_step_and_the_url(probe):
    """Check Next opens step 2 on the same page with its choices (and step=2
    in the URL), Next again another page, Previous comes back, and the last
    step's Next is disabled."""
    at = new_app(params={"lesson": "probe"})
    at.button(key="lesson_next").click().run()
    assert not at.exception and not at.error
    assert at.query_params["step"] == "2"
    assert "**Probe** · step 2 of 3" in _panel_text(at)
    assert at.slider(key="score_top").value == 30
    assert at.radio(key="score_measure").value == "bns"
    assert (at.query_params["score_top"], at.query_params["score_measure"]) == (
        "30",
        "BNS",
    )
    assert len(figure_data(charts(at)[0])[0]["x"]) == 30
    assert not at.info or "Question" not in at.info[0].value  # step 2 asks nothing
    at.button(key="lesson_next").click().run()
    assert _page_title(at) == TITLES["aggregation"]
    assert at.query_params["step"] == "3" and at.query_params["agg_method"] == "RoR"
    assert "score_top" not in at.query_params  # only the step's view
    assert at.selectbox(key="agg_method").value == "RoR"
    assert at.button(key="lesson_next").disabled
    at.button(key="lesson_prev").click().run()
    assert _page_title(at) == TITLES["score"]
    assert at.query_params["step"] == "2" and "agg_method" not in at.query_params
    assert at.slider(key="score_top").value == 30


def test_a_link_to_a_later_step_opens_it(probe):
    """Check &step=3 in the link opens step 3 directly (a student joining late)."""
    at = new_app(params={"lesson": "probe", "step": "3"})
    assert _page_title(at) == TITLES["aggregation"]
    assert "**Probe** · step 3 of 3" in _panel_text(at)
    assert at.info[0].value == "**Question:** Question three?"


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"lesson": "probe", "step": "9"}, "steps 1 to 3; the link asks for step '9'"),
        ({"lesson": "nope"}, "lesson 'nope': no such lesson"),
        ({"lesson": "../etc"}, "a lesson's name is lower-case letters"),
    ],
)  # fmt: skip
def test_a_bad_link_says_what_is_wrong(probe, params, expected):
    """Check a step out of range, an unknown lesson and a path each give one
    st.error naming the problem, and no page runs under it."""
    at = new_app(params=params)
    assert len(at.error) == 1 and expected in at.error[0].value, at.error
    assert not at.title  # no page drawn under the message


def test_a_lesson_whose_dataset_is_missing_says_so(tmp_path, monkeypatch):
    """Check a bundled lesson on a server without its dataset names the
    dataset and MLFS_DATA_DIR, and shows no other dataset instead."""
    monkeypatch.setenv("MLFS_DATA_DIR", str(tmp_path))  # empty
    at = new_app(params={"lesson": "what_a_filter_score_sees"})
    assert len(at.error) == 1
    message = at.error[0].value
    assert "uses the dataset(s) medical" in message and "MLFS_DATA_DIR" in message
    assert not at.title  # no page ran: no sample in the dataset's place
    assert all(not figure_data(c) for c in charts(at))  # only the warm-up's blank


def test_a_broken_lesson_file_names_its_line(probe):
    """Check a lesson file with an unknown page names its file, line and step."""
    (probe / "broken.toml").write_text(PROBE.replace("aggregation?", "nowhere?"))
    at = new_app(params={"lesson": "broken"})
    assert "broken.toml, line 13, step 3: no page named 'nowhere'" in at.error[0].value


def test_recording_a_lesson_makes_a_file_that_plays(probe):
    """Check "Add this view" keeps the page and its choices with the note and
    question, and the download is a lesson naming them."""
    from ..conftest import open_page

    at = open_page(new_app(), "learn_score")
    at.slider(key="score_top").set_value(15)
    # the browser writes a bound widget's value into the URL; AppTest has no
    # browser, so the URL is set as the browser would (the browser test
    # test_browser_lessons.py records through the real URL)
    at.query_params["score_top"] = "15"
    at.run()
    at.text_area(key="lesson_note").input("Look at the table.").run()
    at.text_input(key="lesson_question").input("Which cell?").run()
    at.button(key="lesson_add").click().run()
    at.button(key="lesson_add").click().run()  # no note: refused
    assert any("Write the teacher's note first." in e.value for e in at.error)
    from ui.lessons import recorded_lesson

    recorded = at.session_state["_lesson_recorded"]
    lesson = recorded_lesson("Mine", recorded, list(TITLES) + ["data"])
    (step,) = lesson.steps
    assert step.page == "score" and ("score_top", "15") in step.params
    assert (step.note, step.question) == ("Look at the table.", "Which cell?")
    assert "ws" not in dict(step.params)  # the workspace token stays private
    assert lesson.datasets == ("sample (planted)",)


@pytest.fixture
def shared(tmp_path, monkeypatch):
    """The shared datasets the bundled lessons use, as MLFS_DATA_DIR."""
    source = shared_datasets_dir()
    if not (source / "medical").is_dir():
        pytest.skip(f"the shared datasets are not at {source}")
    return link_shared(
        source, tmp_path / "data", monkeypatch, "medical", "enron", "emotions"
    )


@pytest.mark.parametrize("name", sorted(bundled_lessons()))
def test_every_bundled_step_plays_on_real_data(shared, name):
    """Check every step of each bundled lesson draws its page, note, question
    and charts on the real dataset, with the view's choices in the URL."""
    lesson = read_lesson(bundled_lessons()[name])
    at = new_app(params={"lesson": name}, timeout=180)
    for number, step in enumerate(lesson.steps, start=1):
        assert not at.exception and not at.error, [e.value for e in at.error]
        assert _page_title(at) == TITLES[step.page], number
        assert (
            f"**{lesson.title}** · step {number} of {len(lesson.steps)}"
            in _panel_text(at)
        )
        assert step.note in _panel_text(at)
        assert at.info[0].value == f"**Question:** {step.question}"
        assert charts(at), f"step {number} draws no chart"
        assert at.query_params["dataset"] == lesson.datasets[0]
        if number < len(lesson.steps):
            at.button(key="lesson_next").click().run()


def test_a_link_to_someone_elses_upload_says_it_is_missing(data_dir):
    """Check a link naming an upload this workspace lacks (the teacher's link
    without their ws token) says so above the page while the sample is shown,
    and the message goes once the student picks a dataset (issue 54, item 4)."""
    at = new_app(params={"dataset": "class notes (upload)"})
    said = [w.value for w in at.warning if "This link names" in w.value]
    assert len(said) == 1 and "the dataset “class notes (upload)”" in said[0]
    assert "sample is shown instead" in said[0]
    assert at.selectbox(key="dataset").value == "sample (planted)"
    at.run()
    assert any("This link names" in w.value for w in at.warning)  # still said
    at.selectbox(key="dataset").select("toy").run()
    assert not [w for w in at.warning if "This link names" in w.value]


def test_a_link_to_an_available_dataset_says_nothing(data_dir):
    """Check a link naming a dataset of the data folder opens it, silently."""
    at = new_app(params={"dataset": "toy"})
    assert at.selectbox(key="dataset").value == "toy"
    assert not [w for w in at.warning if "This link names" in w.value]


def test_an_uploaded_lesson_file_plays_in_this_workspace(tmp_path):
    """Check "Play a lesson file" checks an uploaded lesson, keeps it in the
    workspace and plays it from ?lesson=NAME; a broken file is an error
    naming its line and step, and is not kept."""
    at = new_app()
    uploader = at.file_uploader(key="lesson_upload")
    broken = PROBE.replace("aggregation?", "nowhere?").encode()
    uploader.set_value(("My Class.toml", broken, "application/toml")).run()
    assert any("My Class.toml, line 13, step 3: no page" in e.value for e in at.error)
    assert not [b for b in at.button if b.key == "lesson_play"]
    at.file_uploader(key="lesson_upload").set_value(
        ("My Class.toml", PROBE.encode(), "application/toml")
    ).run()
    at.button(key="lesson_play").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.query_params["lesson"] == "my_class"
    assert _page_title(at) == TITLES["score"]
    assert "**Probe** · step 1 of 3" in _panel_text(at)
