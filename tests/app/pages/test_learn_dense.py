"""AppTest: the dense-data note is in the open on Rank features and the Learn pages.

Issue 43, item 7: on emotions MaxCS puts 12 of its top 20 features at score 0,
in file order; the warning was hidden in a collapsed "1 note" expander on
Rank features and the Learn pages. It is now an open ``st.warning`` near the
chart whenever a presence-based method (CS, BNS) ranks dense data.
"""

from __future__ import annotations

import pytest

from ..conftest import dataset_dir, dense_arff, link_shared, new_app, open_page


@pytest.fixture
def dense_dir(tmp_path, monkeypatch):
    """A data folder holding one generated dense dataset, ``dense``."""
    return dataset_dir(tmp_path, "dense", dense_arff(n_features=30), monkeypatch)


@pytest.fixture
def emotions_dir(shared_datasets, tmp_path, monkeypatch):
    """A data folder linking the shared emotions dataset."""
    return link_shared(shared_datasets, tmp_path / "real", monkeypatch, "emotions")


def _open(page: str, dataset: str):
    """``page`` on ``dataset``; Rank features with MaxCS's presence rule chosen
    (on dense data it opens on the median rule, which needs no note)."""
    at = new_app()
    at.selectbox(key="dataset").select(dataset).run()
    at = open_page(at, page)
    if page == "rank":
        at.selectbox(key="rank_a_binarize").select("presence").run()
    return at


def _in_the_open(at) -> list[str]:
    """The dense-data warnings shown in the open (not inside an expander)."""
    hidden = [w.value for e in at.expander for w in e.warning]
    shown = [w.value for w in at.warning if "Dense data" in w.value]
    return [w for w in shown if shown.count(w) > hidden.count(w)]


@pytest.mark.parametrize("page", ["rank", "learn_score", "learn_aggregation"])
def test_dense_note_is_open_where_cs_bns_rank_dense_data(dense_dir, page):
    """Check the Rank page (MaxCS), the Score page and the aggregation page show
    the dense-data note in the open, naming the method and the cure."""
    at = _open(page, "dense")
    assert not at.exception and not at.error
    (note,) = _in_the_open(at)
    assert note.startswith("dense: Dense data")
    assert 'binarize = "median"' in note
    assert ("MaxCS" if page != "learn_score" else "CS, BNS") in note
    cure = (
        'open "MaxCS options (binarize)"'
        if page == "rank"
        else 'choose "Feature present when: above its median"'
    )
    assert f"To fix it, {cure}" in note and "--binarize" not in note


def test_no_open_note_under_the_median_rule_or_a_greedy_method(dense_dir):
    """Check the median rule, and a method without the presence rule (PMU),
    get no open dense-data note."""
    at = _open("learn_aggregation", "dense")
    at.radio(key="agg_rule").set_value("median").run()
    assert _in_the_open(at) == []
    at = open_page(at, "learn_greedy")
    assert not at.exception and not at.error
    assert _in_the_open(at) == []
    at = open_page(at, "rank")
    at.selectbox(key="rank_a_binarize").select("median").run()
    assert _in_the_open(at) == []


def test_emotions_rank_note_counts_the_zero_scores(emotions_dir):
    """Check MaxCS on emotions: the open note says 12 of the top 20 score 0."""
    at = _open("rank", "emotions")
    assert not at.exception and not at.error
    (note,) = _in_the_open(at)
    assert note.startswith("emotions: Dense data") and "MaxCS" in note
    assert "12 of the top 20 features score 0" in note
    shown = at.dataframe[0].value
    assert int((shown["score"] == 0).sum()) == 12


def test_emotions_aggregation_steps_say_when_the_file_order_decides(emotions_dir):
    """Check MaxCS on emotions: step 4 ties with step 3 (2.534) and says the
    lower index goes first; step 10 scores 0 and says it is file order only."""
    at = new_app()
    at.session_state["agg_step"] = 4
    at.selectbox(key="dataset").select("emotions").run()
    open_page(at, "learn_aggregation")
    assert not at.exception and not at.error
    assert "2.534" in at.info[0].value
    assert "ties with the pick before it" in at.info[0].value
    at.slider(key="agg_step").set_value(10).run()
    assert "scores 0 for every label" in at.info[0].value
    assert "maximum coming from" not in at.info[0].value


@pytest.mark.parametrize("page", ["rank", "learn_greedy"])
def test_the_closed_notes_hold_no_second_dense_note(dense_dir, page):
    """Check the collapsed notes leave the dense-data note out: Rank shows it
    once, in the open; the greedy page (PMU discretizes, counts no presence)
    shows it nowhere."""
    at = _open(page, "dense")
    hidden = [w.value for e in at.expander for w in e.warning]
    assert not [w for w in hidden if "Dense data" in w]
    shown = [w.value for w in at.warning if "Dense data" in w.value]
    assert len(shown) == (1 if page == "rank" else 0)
