"""Paper 001's rank statements (studies/paper001/statements.csv) against its text."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from mlfs_papers.statements import find_contradictions
from studies.data import load_statements

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
# How the paper spells our dataset names, and PPT-MI (once "PT-MI").
SPELLING = {"PlantPseAAC": "plantPseAAC"}
METHOD_PATTERN = {"PPT-MI": "P?PT-MI"}
# The methods the paper says did not finish, by the term of their complexity.
CUBIC_IN_FEATURES = {"D2F", "PMU", "MDMR"}  # |L||F|^3
SQUARE_IN_LABELS = {"LRFS", "LSMFS", "MLSMFS"}  # |L|^2|F|^2


@pytest.fixture(scope="module")
def statements() -> pd.DataFrame:
    return load_statements(ROOT)  # as the study's report reads them


@pytest.fixture(scope="module")
def paper001(paper_text) -> str:
    return paper_text("001")


def test_every_sentence_is_verbatim_in_the_paper(statements, paper001):
    for sentence in statements["sentence"].unique():
        assert sentence in paper001, sentence


def test_named_datasets_and_methods_appear_in_their_sentence(statements):
    named = statements[statements["explicit"] == "True"]
    assert len(named) > 50
    for row in named.itertuples():
        words = re.sub(r"\s+([,.])", r"\1", row.sentence)
        assert SPELLING.get(row.dataset, row.dataset) in words, row
        for method in (row.method, row.other):
            if method and method != "ATR":
                name = METHOD_PATTERN.get(method, re.escape(method))
                assert re.search(rf"(?<![A-Za-z]){name}\b", words), (method, words)


@pytest.mark.parametrize(
    "position, word", [("1", r"(?:lowest|highest|first)"), ("2", "second")]
)
def test_atr_position_counts_match_the_number_the_sentence_states(
    statements, position, word
):
    atr = statements[
        (statements["relation"] == "rank")
        & (statements["method"] == "ATR")
        & (statements["position"] == position)
    ]
    assert atr["metric"].nunique() == 6
    for sentence, rows in atr.groupby("sentence"):
        said = re.search(rf"{word}.*? for (\w+) datasets", sentence)
        if said is None:  # "second rank for emotions and scene": count the names
            assert len(rows) == 2 and "emotions and scene" in sentence
            continue
        assert len(rows) == NUMBERS[said.group(1)], sentence


def test_did_not_finish_rows(statements, paper001):
    """The |L||F|^3 methods did not finish on six datasets, the |L|^2|F|^2
    ones on bibtex only: bibtex's rows name both groups."""
    dnf = statements[statements["relation"] == "dnf"]
    for method in CUBIC_IN_FEATURES:
        assert sorted(dnf.query("method == @method")["dataset"]) == sorted(
            ["enron", "medical", "genbase", "tmc2007-500", "bibtex", "ng20"]
        )
    for method in SQUARE_IN_LABELS:
        assert dnf.query("method == @method")["dataset"].tolist() == ["bibtex"]
    bibtex = set(dnf.query("dataset == 'bibtex'")["method"])
    assert bibtex == CUBIC_IN_FEATURES | SQUARE_IN_LABELS
    assert "encountered a similar challenge on the bibtex dataset" in paper001


def test_the_papers_contradictions_are_kept_and_flagged(statements):
    flagged = statements[statements["contradicted"] == "True"]
    hamming = flagged[flagged["metric"] == "hamming_loss"]
    # ATR "lowest Hamming loss" on GnegativePseAAC, yet "inferior to IGMF" there.
    assert set(zip(hamming["method"], hamming["relation"], hamming["dataset"])) == {
        ("ATR", "rank", "GnegativePseAAC"),
        ("IGMF", "beats", "GnegativePseAAC"),
    }
    assert (flagged["dataset"].isin(["GnegativePseAAC", "scene", "ng20"])).all()
    assert (
        find_contradictions(statements).to_numpy()
        == (statements["contradicted"] == "True").to_numpy()
    ).all()


def test_one_pairwise_answer_per_cell(statements):
    beats = statements[statements["relation"] == "beats"]
    pair = beats.apply(lambda r: tuple(sorted((r["method"], r["other"]))), axis=1)
    keys = pd.DataFrame(
        {"metric": beats["metric"], "dataset": beats["dataset"], "pair": pair}
    )
    duplicated = keys[keys.duplicated(keep=False)]
    # The only cells answered twice are the contradictions the paper makes.
    assert (statements.loc[duplicated.index, "contradicted"] == "True").all()
