"""Feature tick labels (one row per feature) and readable formulas (Learn pages)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mlfs_core
from mlfs_core.explain import (
    distinct_labels,
    feature_labels,
    greedy_steps,
    readable,
    shorten,
    term_names,
    term_role,
)
from mlfs_core.plots import (
    aggregation_turns_figure,
    greedy_terms_figure,
    label_score_heatmap,
)
from mlfs_core.plots.explain import term_legend
from mlfs_core.selectors.greedy import IT_METHODS
from mlfs_core.selectors.it.criteria import CRITERIA

# emotions' names: long shared prefixes, differing at the end only
EMOTIONS_LIKE = [
    f"Mean_Acc1298_{a}_Mem40_{b}"
    for a in ("Mean", "Std")
    for b in ("Centroid", "Rolloff", "Flux", "MFCC_0", "MFCC_1")
]


def test_feature_labels_are_distinct_with_shared_long_prefixes():
    """Check names equal in their first 16 characters still get distinct labels,
    each the index then the name cut in the middle; emotions' names fit whole
    at the default length."""
    labels = feature_labels(EMOTIONS_LIKE, range(len(EMOTIONS_LIKE)), limit=16)
    assert len(set(labels)) == len(EMOTIONS_LIKE)
    assert labels[0] == "#0 " + shorten(EMOTIONS_LIKE[0], 16)
    assert all(len(t) <= len(f"#{i} ") + 16 for i, t in enumerate(labels))
    assert labels[0].endswith("troid")  # the distinguishing end is kept
    whole = feature_labels(EMOTIONS_LIKE, [5])
    assert whole == ["#5 Mean_Acc1298_Std_Mem40_Centroid"]


def test_feature_labels_are_distinct_for_identical_names_and_repeats():
    """Check identical names differ by index, and a repeated index is numbered."""
    assert feature_labels(["x", "x", "x"], [2, 0, 1]) == ["#2 x", "#0 x", "#1 x"]
    labels = feature_labels(["w0", "w1"], [1, 1, 0, 1])
    assert labels == ["#1 w1", "#1 w1 (2)", "#0 w0", "#1 w1 (3)"]


def test_feature_labels_accept_a_mapping_of_index_to_name():
    """Check a {index: name} mapping (a ranking table's columns) works too."""
    assert feature_labels({7: "a", 3: "a"}, [7, 3]) == ["#7 a", "#3 a"]


def test_distinct_labels_number_texts_that_collide():
    """Check texts equal after cutting get their position; unique texts stay."""
    long = ["TAG_" + "x" * 40 + "_end", "TAG_" + "x" * 41 + "_end", "short"]
    out = distinct_labels(long, limit=12)
    assert len(set(out)) == 3 and out[2] == "short"
    assert out[0].endswith("(#0)") and out[1].endswith("(#1)")
    assert distinct_labels(["a", "b"]) == ["a", "b"]


def test_shorten_keeps_head_and_tail_and_rejects_a_tiny_limit():
    """Check the middle cut and its length."""
    assert shorten("abcdefghij", 5) == "ab…ij"
    assert len(shorten("a" * 100, 24)) == 24
    with pytest.raises(ValueError, match="limit"):
        shorten("abc", 1)


def _emotions_like_candidates(n: int = 8) -> tuple[pd.DataFrame, list[str]]:
    terms = ["relevance R(f) = sum_i I(f; l_i)", "- sum_s sum_i I(f; s; l_i)"]
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "step": 2,
            "feature": np.arange(n),
            "picked": np.arange(n) == 0,
            terms[0]: rng.random(n),
            terms[1]: -rng.random(n) / 4,
        }
    )
    frame["criterion"] = frame[terms[0]] + frame[terms[1]]
    return frame, terms


def test_greedy_chart_draws_one_row_per_candidate_on_emotions_like_names():
    """Check the defect of issue 43: 8 candidates whose names share a 24-character
    prefix are drawn as 8 rows (they were 2, bars stacked), the pick starred."""
    candidates, terms = _emotions_like_candidates(8)
    longer = [n + "_and_a_long_suffix_" + "x" * 20 for n in EMOTIONS_LIKE]
    fig = greedy_terms_figure(candidates, terms, feature_names=longer)
    for trace in fig.data:
        assert len(trace.y) == len(set(trace.y)) == 8
    assert fig.data[0].y[0].startswith("★ #0 ")


def test_heatmaps_draw_one_column_per_feature_on_emotions_like_names():
    """Check the score and aggregation heatmaps keep a column per feature even
    when the matrix's columns are long names with a shared prefix."""
    labels = ["amazed-suprised", "happy-pleased"]
    matrix = pd.DataFrame(
        np.arange(20.0).reshape(2, 10), index=labels, columns=EMOTIONS_LIKE
    )
    heat = label_score_heatmap(matrix)
    assert len(set(heat.data[0].x)) == 10
    steps = pd.DataFrame({"step": range(1, 11), "feature": range(10), "label": 0})
    turns = aggregation_turns_figure(matrix, steps, upto=4)
    assert len(set(turns.data[0].x)) == 10


def test_readable_turns_ascii_formulas_into_unicode_math():
    """Check Σ, subscripts, minus signs, ≠ and powers; hyphens in words stay."""
    assert readable("R(f) - sum_{i<j} I(f; l_i; l_j)") == "R(f) − Σᵢ<ⱼ I(f; lᵢ; lⱼ)"
    assert readable("+ max_{i != j} I(f; l_i | l_j)") == "+ maxᵢ≠ⱼ I(f; lᵢ | lⱼ)"
    assert readable("(c - e)^2 / e") == "(c − e)² / e"
    assert readable("F^-1(tpr)") == "F⁻¹(tpr)"
    assert readable("I(f_P; Y_P)") == "I(fₚ; Yₚ)"
    assert readable("the label-set variable") == "the label-set variable"


@pytest.mark.parametrize("method", sorted(IT_METHODS))
def test_every_greedy_formula_and_term_reads_without_ascii_notation(method):
    """Check no registered greedy method's formula or term keeps sum_, _{ or
    l_i after :func:`readable`, and every term has a role (no "term 2")."""
    spec_formula = mlfs_core.get_method(method).formula or ""
    terms = [name for name, _ in CRITERIA[method].terms]
    for text in [spec_formula, *terms]:
        shown = readable(text)
        assert "sum_" not in shown and "_{" not in shown and "l_i" not in shown
    assert all(term_role(t) for t in terms)
    assert not any(n.startswith("term ") for n in term_names(terms))


def test_greedy_terms_are_named_relevance_interaction_redundancy():
    """Check PMU's recorded terms are named by role, in formula order, and the
    legend gives the role with the readable formula."""
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(60, 6))
    Y = (rng.random((60, 3)) < 0.4).astype(int)
    result = greedy_steps(X, Y, "PMU", k=3)
    assert term_names(result.terms) == [
        "relevance",
        "label interaction",
        "redundancy",
    ]
    assert term_legend(result.terms[1]) == "label interaction: − Σᵢ<ⱼ I(f; lᵢ; lⱼ)"
    assert term_legend(result.terms[2]) == "redundancy: − Σₛ Σᵢ I(f; s; lᵢ)"


def test_term_names_number_a_role_used_twice_and_fall_back_to_position():
    """Check two terms of one role get (1), (2); an unknown term its position."""
    assert term_names(["- sum_s I(f; s)", "- sum_s sum_i I(f; s; l_i)", "z(f)"]) == [
        "redundancy (1)",
        "redundancy (2)",
        "term 3",
    ]


def test_many_labels_draw_the_turns_and_the_highest_rows_only():
    """Check 159 labels (bibtex) draw 30 rows: every label that took a turn,
    then the highest scores; the axis says 30 of 159, markers sit on them."""
    rng = np.random.default_rng(2)
    names = [f"TAG_{i:03d}" for i in range(159)]
    matrix = pd.DataFrame(rng.random((159, 6)), index=names, columns=list("abcdef"))
    matrix.iloc[150, :] = 50.0  # the highest row
    turns = [3, 140, 77, 3, 12, 99]  # RoR-like turns, a rare label among them
    steps = pd.DataFrame({"step": range(1, 7), "feature": range(6), "label": turns})
    fig = aggregation_turns_figure(matrix, steps, upto=6)
    drawn = list(fig.data[0].y)
    assert len(drawn) == len(set(drawn)) == 30
    assert {names[t] for t in turns} <= set(drawn) and names[150] in drawn
    assert drawn == sorted(drawn)  # the labels' own order
    assert fig.layout.yaxis.title.text == "label (30 of 159: the highest scores)"
    marked = [y for t in fig.data[1:] for y in t.y]
    assert set(marked) <= set(drawn) and len(marked) == 6
    heat = label_score_heatmap(matrix)
    assert len(heat.data[0].y) == 30 and names[150] in heat.data[0].y
    small = label_score_heatmap(matrix.head(6))
    assert len(small.data[0].y) == 6 and small.layout.yaxis.title.text == "label"


def test_legends_give_the_role_once_then_the_formula():
    """Check ATR's legends: "relevance / q: R(f) / q" and "PPT relevance: I(fₚ; Yₚ)",
    not the role's words twice."""
    assert term_legend("relevance R(f) / q") == "relevance / q: R(f) / q"
    legend = term_legend("transformed relevance I(f_P; Y_P)")
    assert legend == "PPT relevance: I(fₚ; Yₚ)"
    assert term_legend("- label pairs, ordered, i = j included").startswith(
        "label interaction: − label pairs"
    )
