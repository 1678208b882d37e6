"""Scoring a paper's rank statements: contradictions, outcomes, floor, Cohen's kappa."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from mlfs_core.errors import ConfigError
from mlfs_papers.statements import (
    cohen_kappa,
    find_contradictions,
    reference_kappa,
    score_statements,
    statement_agreement,
    trivial_means,
)

HIB = {"loss": False, "f1": True}


def _st(*rows) -> pd.DataFrame:
    cols = [
        "metric",
        "dataset",
        "method",
        "relation",
        "other",
        "position",
        "count",
        "of",
    ]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows], dtype=object).fillna("")


def _means(metric: str, dataset: str, **values) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "dataset": dataset,
            "method": list(values),
            "metric": metric,
            "mean": list(values.values()),
        }
    )


def test_contradictions_are_flagged_in_their_cell_only():
    s = _st(
        ("f1", "d1", "ATR", "rank", "", 1),
        ("f1", "d1", "IGMF", "beats", "ATR"),  # contradicts ATR first on d1
        ("f1", "d2", "IGMF", "beats", "ATR"),  # another dataset: fine
        ("f1", "d3", "ATR", "rank", "", 2),
        ("f1", "d3", "SCLS", "beats", "ATR"),  # one method above a second: fine
        ("loss", "d1", "ATR", "beats", "SCLS"),
        ("loss", "d1", "SCLS", "beats", "ATR"),  # both directions
        ("loss", "d4", "ATR", "rank", "", 2),
        ("loss", "d4", "SCLS", "rank", "", 1),
        ("loss", "d4", "LRFS", "beats", "ATR"),  # two above a second place
    )
    flags = find_contradictions(s).tolist()
    assert flags == [True, True, False, False, False, True, True, True, True, True]


def test_rank_statements_follow_the_metric_direction_and_ties():
    means = pd.concat(
        [
            _means("loss", "d1", ATR=0.1, IGMF=0.2, SCLS=0.2),
            _means("f1", "d1", ATR=0.5, IGMF=0.5, SCLS=0.7),
        ]
    )
    s = _st(
        ("loss", "d1", "ATR", "rank", "", 1),  # lowest loss: agree
        ("loss", "d1", "IGMF", "rank", "", 2),  # tied 2-3 with SCLS: tie
        ("f1", "d1", "ATR", "rank", "", 1),  # ranks 2-3: disagree
        ("f1", "d1", "ATR", "rank", "", 2),  # tied 2-3: tie
        ("f1", "d1", "SCLS", "beats", "ATR"),
        ("f1", "d1", "IGMF", "beats", "ATR"),  # equal values: tie
        ("loss", "d1", "IGMF", "beats", "ATR"),
        ("f1", "d9", "ATR", "rank", "", 1),  # no such dataset: unscored
    )
    out = score_statements(s, means, HIB)["ours"].tolist()
    assert out == [
        "agree",
        "tie",
        "disagree",
        "tie",
        "agree",
        "tie",
        "disagree",
        "unscored",
    ]


def test_a_method_that_did_not_finish_is_left_out_of_the_ranking():
    means = _means("f1", "d1", ATR=0.5, PMU=0.9, SCLS=0.4)
    s = _st(("f1", "d1", "ATR", "rank", "", 1), ("", "d1", "PMU", "dnf", ""))
    assert score_statements(s, means, HIB)["ours"].tolist() == ["agree", "unscored"]
    s_finished = s.iloc[:1]
    assert score_statements(s_finished, means, HIB)["ours"].tolist() == ["disagree"]


def test_counts_need_every_dataset_they_count_over():
    means = pd.concat(
        [
            _means("f1", d, ATR=a, LRFS=b)
            for d, a, b in (("d1", 1, 0), ("d2", 1, 0), ("d3", 0, 1))
        ]
    )
    s = _st(
        ("f1", "", "ATR", "beats_count", "LRFS", "", 2, 3),
        ("f1", "", "ATR", "beats_count", "LRFS", "", 3, 3),
        ("f1", "", "ATR", "beats_count", "LRFS", "", 2, 4),  # a dataset we lack
    )
    assert score_statements(s, means, HIB)["ours"].tolist() == [
        "agree",
        "disagree",
        "unscored",
    ]


def test_unknown_relation_and_metric_direction_are_named():
    means = _means("f1", "d1", ATR=0.5)
    with pytest.raises(ConfigError, match="worse"):
        find_contradictions(_st(("f1", "d1", "ATR", "worse", "")))
    with pytest.raises(ConfigError, match="'acc'"):
        score_statements(_st(("acc", "d1", "ATR", "rank", "", 1)), means, HIB)


def test_trivial_answer_makes_the_winner_best_in_both_directions():
    means = pd.concat(
        [_means("loss", "d1", ATR=0.9, X=0.1), _means("f1", "d1", ATR=0.1, X=0.9)]
    )
    t = trivial_means(means, HIB, winner="ATR").set_index(["metric", "method"])["mean"]
    assert t[("loss", "ATR")] < t[("loss", "X")]
    assert t[("f1", "ATR")] > t[("f1", "X")]


def test_agreement_counts_and_share():
    scored = pd.DataFrame(
        {
            "relation": ["rank", "rank", "beats", "beats", "dnf"],
            "ours": ["agree", "tie", "agree", "disagree", "unscored"],
        }
    )
    out = statement_agreement(scored).set_index("relation")
    assert out.loc["rank", ["n_scored", "agree", "tie"]].tolist() == [2, 1, 1]
    assert out.loc["all", "share_agree"] == pytest.approx(2 / 4)
    assert out.loc["all", "unscored"] == 1


@pytest.mark.parametrize("n_labels", [2, 3])
def test_cohen_kappa_equals_scikit_learns(rng, n_labels):
    a = rng.integers(0, n_labels, 60)
    b = np.where(rng.random(60) < 0.7, a, rng.integers(0, n_labels, 60))
    assert cohen_kappa(a, b) == pytest.approx(cohen_kappa_score(a, b))
    bools = a == 0, b == 0
    assert cohen_kappa(*bools) == pytest.approx(cohen_kappa_score(*bools))


def test_cohen_kappa_degenerate_and_bad_input():
    assert np.isnan(cohen_kappa([1, 1], [1, 1]))
    assert cohen_kappa([1, 0, 1, 0], [1, 1, 1, 1]) == 0.0  # a constant rater
    with pytest.raises(ConfigError, match="equal-length"):
        cohen_kappa([1, 0], [1])


def test_reference_kappa_reads_who_wins_each_cell():
    scored = _st(
        ("f1", "d1", "ATR", "beats", "X"),
        ("f1", "d2", "ATR", "beats", "X"),
        ("f1", "d3", "X", "beats", "ATR"),
        ("f1", "d4", "X", "beats", "ATR"),
        ("f1", "d5", "ATR", "beats", "X"),
    ).assign(ours=["agree", "disagree", "agree", "disagree", "tie"])
    out = reference_kappa(scored)
    paper = [True, True, False, False]
    ours = [True, False, False, True]
    assert out["kappa"] == pytest.approx(cohen_kappa_score(paper, ours))
    assert (out["n"], out["n_tied"]) == (4, 1)
    assert out["paper_share_reference_wins"] == 0.5
