"""Paper 001's statements and 'ATR performs best' under several evaluations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core.errors import ConfigError
from mlfs_papers.paper001.evaluations import (
    convention_effects,
    evaluation_agreement,
    moves_most,
    reference_best,
)

METHODS = ["ATR", "X", "Y"]
HIB = {"f1": True, "hamming_loss": False}


def _means(order: dict[str, list[str]], datasets=("a", "b")) -> pd.DataFrame:
    """``order[dataset]`` best first, on both metrics."""
    rows = []
    for d in datasets:
        for i, m in enumerate(order.get(d, order.get("*"))):
            rows += [
                {"dataset": d, "method": m, "metric": "f1", "mean": 0.9 - 0.1 * i},
                {"dataset": d, "method": m, "metric": "hamming_loss", "mean": 0.1 * i},
            ]
    return pd.DataFrame(rows)


def _statements() -> pd.DataFrame:
    """ATR first on a (f1), ATR beats X on a and b (f1), X beats ATR on b (HL)."""
    base = {"position": "", "count": "", "of": "", "other": ""}
    rows = [
        {**base, "metric": "f1", "dataset": "a", "method": "ATR", "relation": "rank",
         "position": "1"},
        {**base, "metric": "f1", "dataset": "a", "method": "ATR", "relation": "beats",
         "other": "X"},
        {**base, "metric": "f1", "dataset": "b", "method": "ATR", "relation": "beats",
         "other": "X"},
        {**base, "metric": "hamming_loss", "dataset": "b", "method": "X",
         "relation": "beats", "other": "ATR"},
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_evaluation_agreement_counts_ours_and_the_floor():
    means = _means({"*": ["ATR", "X", "Y"]})
    total = evaluation_agreement(_statements(), means, HIB).summary()
    # ATR first everywhere: the three ATR-wins statements agree, X beats ATR not
    assert (total["n_scored"], total["agree"], total["disagree"]) == (4, 3, 1)
    assert total["share_agree"] == 0.75
    assert total["floor_share"] == 0.75  # the floor also says ATR wins everywhere
    assert (total["first_agree"], total["first_scored"]) == (1, 1)
    assert total["n_pairs"] == 3
    flipped = _means({"*": ["X", "ATR", "Y"]})
    total = evaluation_agreement(_statements(), flipped, HIB).summary()
    assert (total["agree"], total["first_agree"]) == (1, 0)


def test_reference_best_counts_cells_where_atr_is_first():
    means = _means({"a": ["ATR", "X", "Y"], "b": ["Y", "X", "ATR"]})
    best = reference_best(means, METHODS, HIB)
    assert (best["n_best"], best["n_cells"]) == (2, 4)
    assert best["avg_rank"] == 2.0
    assert best["best_avg_rank"] == 2.0  # all three tie at 2 on average
    best = reference_best(_means({"*": ["X", "ATR", "Y"]}), METHODS, HIB)
    assert (best["n_best"], best["best_method"], best["avg_rank"]) == (0, "X", 2.0)
    with pytest.raises(ConfigError, match="ATR"):
        reference_best(means, ["X", "Y"], HIB)


def test_convention_effects_rank_change_on_common_datasets():
    definition = _means({"*": ["ATR", "X", "Y"]}, datasets=("a", "b", "c"))
    mlknn = _means({"*": ["X", "Y", "ATR"]})  # no c: c is left out everywhere
    split = _means({"*": ["X", "ATR", "Y"]})
    full = _means({"*": ["Y", "X", "ATR"]})
    long = pd.concat(
        [
            definition.assign(evaluation="definition"),
            mlknn.assign(evaluation="mlknn"),
            split.assign(evaluation="split"),
            full.assign(evaluation="reference-code"),
        ]
    )
    effects = convention_effects(long, _statements(), HIB, METHODS)
    assert list(effects["evaluation"]) == [
        "definition",
        "mlknn",
        "split",
        "reference-code",
    ]
    assert set(effects["n_datasets"]) == {2}
    change = effects.set_index("evaluation")["rank_change"]
    assert change.to_dict() == {
        "definition": 0.0, "mlknn": 2.0, "split": 1.0, "reference-code": 2.0
    }  # fmt: skip
    assert effects.set_index("evaluation").loc["mlknn", "n_best"] == 0
    # reference-code (every convention at once) is not a single convention
    assert moves_most(effects) == "mlknn"
    assert moves_most(effects[effects["evaluation"] != "mlknn"]) == "split"


def test_convention_effects_bad_input():
    means = _means({"*": METHODS})
    with pytest.raises(ConfigError, match="evaluation"):
        convention_effects(means, _statements(), HIB, METHODS)
    long = pd.concat(
        [
            means.assign(evaluation="definition"),
            _means({"*": METHODS}, datasets=("z",)).assign(evaluation="mlknn"),
        ]
    )
    with pytest.raises(ConfigError, match="no dataset in common"):
        convention_effects(long, _statements(), HIB, METHODS)


def test_moves_most_without_baseline_is_none():
    effects = pd.DataFrame({"evaluation": ["mlknn"], "rank_change": [np.nan]})
    assert moves_most(effects) is None
