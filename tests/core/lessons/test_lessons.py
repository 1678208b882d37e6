"""The lesson format (mlfs_core.lessons): a good file, each kind of bad file
with a message naming its place, limits, the file round trip, lookup, slides."""

from __future__ import annotations

import json
import re
import zipfile

import pytest

from mlfs_core.errors import ConfigError
from mlfs_core.lessons import (
    MAX_BYTES,
    MAX_STEPS,
    MAX_TEXT,
    Lesson,
    bundled_lessons,
    find_lesson,
    lesson_text,
    parse_lesson,
    read_lesson,
    split_view,
    view_link,
)
from mlfs_core.lessons.slides import slides_html, step_heading, titled

GOOD = """# a comment
title = "Two steps"
datasets = ["medical", "emotions"]
about = "An introduction."

[[step]]
view = "score?dataset=medical&score_feature=%23392+cough&score_label=Class-4-753_0"
note = \"\"\"A note
on two lines.\"\"\"
question = "Which cell?"

[[step]]
view = "greedy?dataset=emotions&greedy_method=PMU&greedy_k=12"
note = "Second."
"""
PAGES = ["score", "greedy", "rank", "aggregation", "data"]


def test_a_good_lesson_reads_whole():
    """Check title, datasets, about, and each step's page, choices (decoded,
    in order), note, question and header line."""
    lesson = parse_lesson(GOOD, "good.toml", PAGES)
    assert (lesson.title, lesson.datasets) == ("Two steps", ("medical", "emotions"))
    assert lesson.about == "An introduction." and lesson.source == "good.toml"
    first, second = lesson.steps
    assert first.page == "score" and first.line == 6
    assert first.params == (
        ("dataset", "medical"),
        ("score_feature", "#392 cough"),
        ("score_label", "Class-4-753_0"),
    )
    assert first.note == "A note\non two lines." and first.question == "Which cell?"
    assert first.dataset == "medical"
    assert (second.page, second.question, second.line) == ("greedy", "", 12)
    assert second.view == "greedy?dataset=emotions&greedy_method=PMU&greedy_k=12"


def _place(text: str, message: str, pages=PAGES) -> None:
    with pytest.raises(ConfigError) as err:
        parse_lesson(text, "bad.toml", pages)
    assert message in str(err.value), str(err.value)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("greedy?", "nowhere?", "bad.toml, line 12, step 2: no page named 'nowhere'"),
        (
            "greedy?",
            "Greedy/x?",
            "bad.toml, line 12, step 2: the view's page 'Greedy/x'",
        ),
        ('note = "Second."', 'note = ""', "bad.toml, line 12, step 2: note is empty"),
        ('note = "Second."', "note = 3", "line 12, step 2: note must be text, not int"),
        (
            'note = "Second."',
            'colour = "red"',
            "line 12, step 2: unknown keys ['colour']",
        ),
        ('note = "Second."\n', "", "bad.toml, line 12, step 2: missing ['note']"),
        (
            "dataset=emotions",
            "dataset=yeast",
            "step 2: the view's dataset 'yeast' is not among the lesson's datasets",
        ),
        (
            "greedy_k=12",
            "greedy_k=12&ws=secret",
            "line 12, step 2: the view holds ['ws']",
        ),
        (
            "greedy_k=12",
            "greedy_k=12&step=2",
            "line 12, step 2: the view holds ['step']",
        ),
        (
            "greedy_k=12",
            "greedy_k=12&bad-name=1",
            "malformed parameter names ['bad-name']",
        ),
        (
            "greedy_k=12",
            "greedy_k=12&&x",
            "step 2: the view's query string does not parse",
        ),
        ('title = "Two steps"', 'title = ""', "bad.toml: title is empty"),
        ('title = "Two steps"\n', "", "bad.toml: missing ['title']"),
        (
            'datasets = ["medical", "emotions"]',
            'datasets = "medical"',
            "datasets must be a list",
        ),
        (
            'datasets = ["medical", "emotions"]',
            'datasets = ["medical", "medical"]',
            "names a dataset twice",
        ),
        (
            'about = "An introduction."',
            'author = "me"',
            "bad.toml: unknown keys ['author']",
        ),
        ('note = "Second."', 'note = "Second.', "bad.toml: not a TOML file"),
    ],
)
def test_each_kind_of_bad_file_names_its_place(old, new, message):
    """Check each broken rule is one ConfigError naming the file (and, for a
    step, its line and number)."""
    assert old in GOOD
    _place(GOOD.replace(old, new, 1), message)


def test_a_toml_syntax_error_names_its_line():
    """Check a TOML syntax error keeps tomllib's line number."""
    with pytest.raises(ConfigError, match=r"bad\.toml: not a TOML file: .*line 14"):
        parse_lesson(GOOD.replace('note = "Second."', 'note = "Second.'), "bad.toml")


def test_steps_must_be_tables_at_least_one():
    """Check a lesson without steps, or with steps that are not tables, is refused."""
    head = 'title = "t"\ndatasets = ["d"]\n'
    _place(head, "bad.toml: missing ['step']")
    _place(head + "step = []\n", "'step' must be [[step]] tables, at least one")
    _place(head + 'step = ["x"]\n', "bad.toml, step 1: a step is a [[step]] table")


def test_limits_bytes_steps_and_text():
    """Check the bounds: file size, number of steps, length of a text."""
    head = 'title = "t"\ndatasets = ["d"]\n'
    step = '[[step]]\nview = "score"\nnote = "n"\n'
    parse_lesson(head + step * MAX_STEPS, "ok.toml")
    _place(
        head + step * (MAX_STEPS + 1),
        f"{MAX_STEPS + 1} steps; a lesson has at most {MAX_STEPS}",
    )
    _place(
        head + step.replace('"n"', json.dumps("x" * (MAX_TEXT + 1))),
        f"at most {MAX_TEXT}",
    )
    _place(head + "# " + "x" * MAX_BYTES + "\n" + step, f"at most {MAX_BYTES} bytes")


def test_any_plain_page_without_a_page_list():
    """Check the engine, given no page list, accepts any plain page name."""
    text = 'title = "t"\ndatasets = ["d"]\n[[step]]\nview = "any_page"\nnote = "n"\n'
    assert parse_lesson(text).steps[0].page == "any_page"


def test_nothing_in_a_lesson_runs(tmp_path):
    """Check a lesson is data: a Python-looking view or note is kept as text."""
    text = GOOD.replace("Second.", "__import__('os').system('touch x')")
    lesson = parse_lesson(text, "t.toml", PAGES)
    assert lesson.steps[1].note == "__import__('os').system('touch x')"
    assert not (tmp_path / "x").exists()


def test_views_split_and_join():
    """Check split_view and view_link are inverse, repeated parameters kept."""
    view = "rank?rank_truth=MaxCS&rank_truth=PMU&rank_top=30"
    page, params = split_view(view)
    assert page == "rank" and params == (
        ("rank_truth", "MaxCS"), ("rank_truth", "PMU"), ("rank_top", "30"),
    )  # fmt: skip
    assert view_link(page, params) == view
    assert split_view("/data") == ("data", ())


def test_the_file_round_trips():
    """Check lesson_text writes a file parse_lesson reads back equal (quotes,
    newlines and non-ASCII text included)."""
    lesson = parse_lesson(
        GOOD.replace("Which cell?", 'Which \\"cell\\"? Spolaôr\\tet al.')
    )
    assert lesson.steps[0].question == 'Which "cell"? Spolaôr\tet al.'
    again = parse_lesson(lesson_text(lesson))
    assert again.steps == tuple(
        s.__class__(s.page, s.params, s.note, s.question, line)
        for s, line in zip(lesson.steps, [t.line for t in again.steps], strict=True)
    )
    assert (again.title, again.datasets, again.about) == (
        lesson.title,
        lesson.datasets,
        lesson.about,
    )


def test_read_lesson_checks_the_file(tmp_path):
    """Check read_lesson names a missing, too big or non-UTF-8 file."""
    with pytest.raises(ConfigError, match="no such lesson file"):
        read_lesson(tmp_path / "missing.toml")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(ConfigError, match=f"big.toml: {MAX_BYTES + 1} bytes"):
        read_lesson(big)
    latin = tmp_path / "latin.toml"
    latin.write_bytes('title = "Spolaôr"'.encode("latin-1"))
    with pytest.raises(ConfigError, match="latin.toml: not UTF-8 text"):
        read_lesson(latin)
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    assert read_lesson(good, PAGES).source == "good.toml"


def test_find_lesson_looks_in_folders_then_the_bundle(tmp_path):
    """Check the lookup order (folder, its lessons/, bundled) and that a
    name is never a path."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "mine.toml").write_text(GOOD)
    assert find_lesson("mine", [tmp_path]) == tmp_path / "lessons" / "mine.toml"
    (tmp_path / "greedy_versus_ranking.toml").write_text(GOOD)  # shadows the bundled
    assert find_lesson("greedy_versus_ranking", [tmp_path]).parent == tmp_path
    assert (
        find_lesson("greedy_versus_ranking")
        == bundled_lessons()["greedy_versus_ranking"]
    )
    for bad in ("../x", "a/b", "Mine", "", "x" * 65):
        with pytest.raises(ConfigError, match="a lesson's name is"):
            find_lesson(bad, [tmp_path])
    with pytest.raises(ConfigError, match="no such lesson; the bundled lessons are"):
        find_lesson("absent", [tmp_path])


def test_the_bundled_lessons_are_valid():
    """Check the three bundled lessons read, each on one real dataset, with a
    question at every step."""
    found = bundled_lessons()
    assert sorted(found) == [
        "greedy_versus_ranking", "what_a_filter_score_sees", "why_aggregation_matters",
    ]  # fmt: skip
    for path in found.values():
        lesson = read_lesson(path, PAGES)
        assert len(lesson.datasets) == 1 and 4 <= len(lesson.steps) <= 6
        assert all(s.question and s.dataset == lesson.datasets[0] for s in lesson.steps)


def _figure(title: str):
    import plotly.graph_objects as go

    return go.Figure(go.Bar(x=["a", "b"], y=[1, 2]), layout_title_text=title)


def test_slides_html_is_one_offline_file():
    """Check the HTML holds every step's heading, note and question, each
    figure, plotly.js once and inline, and no script or link from elsewhere."""
    lesson = parse_lesson(GOOD, "good.toml", PAGES)
    page = slides_html(lesson, {1: [_figure("CS of the top 20"), _figure("BNS")]})
    assert page.count("Two steps: step") == 2
    assert "A note\non two lines." in page and "Question: Which cell?" in page
    assert "This step's figures were not collected." in page  # step 2
    # a figure's call names its div (plotly.js itself says "Plotly.newPlot" too)
    assert len(re.findall(r"Plotly\.newPlot\(\s*[\"']", page)) == 2
    assert len(re.findall(r"plotly\.js v\d", page)) == 1  # inlined once
    assert not re.search(r"<script[^>]+src=|<link[^>]+href=\"?http", page)
    assert "medical: CS of the top 20" in page  # the dataset named in the title
    one = slides_html(lesson, {2: [_figure("J")]}, steps=[2])
    assert "step 2 of 2" in one and "step 1 of 2" not in one


def test_step_heading_and_titles_name_the_dataset():
    """Check a slide's heading names lesson, step, dataset and page, and a
    figure's title gets the dataset once."""
    lesson = parse_lesson(GOOD, "good.toml", PAGES)
    assert step_heading(lesson, 2) == (
        "Two steps: step 2 of 2 (dataset emotions, page greedy)"
    )
    fig = titled(_figure("PMU: J per step"), lesson.steps[1])
    assert fig.layout.title.text == "emotions: PMU: J per step"
    assert titled(fig, lesson.steps[1]).layout.title.text == "emotions: PMU: J per step"


def test_slides_png_zip_names_each_step(monkeypatch):
    """Check the PNG archive holds one file per figure, named by step, each
    rendered with the dataset in its title."""
    from mlfs_core.lessons import slides
    from mlfs_core.plots import export

    rendered = []
    monkeypatch.setattr(
        export,
        "to_png_bytes",
        lambda fig, **kw: rendered.append(fig.layout.title.text) or b"PNG",
    )
    lesson = parse_lesson(GOOD, "good.toml", PAGES)
    data = slides.slides_png_zip(
        lesson, {1: [_figure("a"), _figure("b")], 2: [_figure("c")]}
    )
    names = zipfile.ZipFile(__import__("io").BytesIO(data)).namelist()
    assert names == ["step01_1.png", "step01_2.png", "step02_1.png"]
    assert rendered == ["medical: a", "medical: b", "emotions: c"]


def test_lesson_defaults():
    """Check a Lesson built in code has no steps, no about and a placeholder source."""
    lesson = Lesson("t", ("d",))
    assert (lesson.steps, lesson.about, lesson.source) == ((), "", "<lesson>")
