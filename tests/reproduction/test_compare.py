"""Published tables vs a reproduction: differences, Spearman, best methods, verdicts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr

from mlfs_core.errors import ConfigError
from mlfs_papers.compare import (
    agreement_summary,
    best_outcome,
    better_outcome,
    constant_ranks,
    dataset_statistics_side_by_side,
    per_budget_agreement,
    side_by_side,
    verdict,
)


def _ranks(cells: dict[float, dict[str, float]], **extra) -> pd.DataFrame:
    rows = [
        {"budget_pct": b, "method": m, "mean": v, **extra}
        for b, block in cells.items()
        for m, v in block.items()
    ]
    return pd.DataFrame(rows)


PUBLISHED = _ranks(
    {
        10: {"A": 1.0, "B": 2.0, "C": 3.0},
        20: {"A": 1.5, "B": 1.5, "C": 3.0},
        30: {"A": 3.0, "B": 2.0, "C": 1.0},
    }
)
OURS = _ranks(
    {
        10: {"A": 1.0, "B": 2.5, "C": 2.5},  # same best, B/C tied
        20: {"A": 1.0, "B": 2.0, "C": 3.0},  # A alone where the paper ties A/B
        30: {"A": 1.0, "B": 2.0, "C": 3.0},  # reversed
    }
)


def test_side_by_side_differences_and_only_shared_cells():
    ours = pd.concat([OURS, _ranks({40: {"A": 1.0}})], ignore_index=True)
    out = side_by_side(PUBLISHED, ours)
    assert len(out) == 9  # the 40 % cell has no published counterpart
    cell = out.set_index(["budget_pct", "method"]).loc[(10.0, "B")]
    assert cell["published"] == 2.0 and cell["ours"] == 2.5 and cell["diff"] == 0.5


def test_side_by_side_names_missing_columns_and_disjoint_tables():
    with pytest.raises(ConfigError, match="mean"):
        side_by_side(PUBLISHED.drop(columns="mean"), OURS)
    with pytest.raises(ConfigError, match="share no cell"):
        side_by_side(PUBLISHED, OURS.assign(method="Z"))


def test_constant_ranks_use_each_blocks_own_method_count():
    table = pd.concat(
        [
            _ranks({10: {"A": 1, "B": 2}}, g="x"),
            _ranks({10: dict.fromkeys("ABCD", 1)}, g="y"),
        ]
    )
    out = constant_ranks(table, groups=["g"])
    assert out.groupby("g")["mean"].unique().map(list).to_dict() == {
        "x": [1.5],
        "y": [2.5],
    }


def test_per_budget_spearman_best_and_outcome():
    per = per_budget_agreement(side_by_side(PUBLISHED, OURS)).set_index("budget_pct")
    expected = spearmanr([1.0, 2.0, 3.0], [1.0, 2.5, 2.5]).statistic
    assert per.loc[10.0, "spearman"] == pytest.approx(expected)
    assert per.loc[30.0, "spearman"] == pytest.approx(-1.0)
    assert per["outcome"].to_dict() == {10.0: "agree", 20.0: "tie", 30.0: "disagree"}
    assert per.loc[20.0, "published_best"] == "A/B"
    assert per.loc[20.0, "ours_best"] == "A"
    assert per.loc[10.0, "mean_abs_diff"] == pytest.approx(1.0 / 3.0)


def test_summary_gives_ours_and_the_constant_floor():
    s = agreement_summary(side_by_side(PUBLISHED, OURS)).set_index("ranks")
    # |diff| over the 9 cells: 0 .5 .5 | .5 .5 0 | 2 0 2 -> 6 / 9
    assert s.loc["ours", "mean_abs_diff"] == pytest.approx(6.0 / 9.0)
    # constant 2.0: 1 0 1 | .5 .5 1 | 1 0 1 -> 6 / 9
    assert s.loc["constant", "mean_abs_diff"] == pytest.approx(6.0 / 9.0)
    assert np.isnan(s.loc["constant", "spearman_mean"])
    assert s.loc["ours", ["best_agree", "best_tie", "best_disagree"]].tolist() == [
        1,
        1,
        1,
    ]
    # The constant ties every method, so it never agrees outright.
    assert s.loc["constant", ["best_agree", "best_tie"]].tolist() == [0, 3]


def test_summary_keeps_groups_apart():
    pub = pd.concat([PUBLISHED.assign(measure="CS"), PUBLISHED.assign(measure="BNS")])
    ours = pd.concat([PUBLISHED.assign(measure="CS"), OURS.assign(measure="BNS")])
    s = agreement_summary(
        side_by_side(pub, ours, groups=["measure"]), groups=["measure"]
    )
    mine = s[s["ranks"] == "ours"].set_index("measure")
    assert mine.loc["CS", "mean_abs_diff"] == 0.0
    assert mine.loc["CS", "best_agree"] == 3
    assert mine.loc["BNS", "mean_abs_diff"] == pytest.approx(6.0 / 9.0)


def test_table3_flags_rows_that_differ_at_the_printed_precision():
    published = pd.DataFrame(
        {
            "row": ["enron"] * 3 + ["bookmarks"],
            "dataset": ["enron"] * 3 + [""],
            "statistic": ["N", "LC", "LD", "N"],
            "value": ["1702", "5.31", "0.06", "87856"],
        }
    )
    ours = pd.DataFrame(
        [{"dataset": "enron", "N": 1702, "LC": 3.3783, "LD": 0.0637, "q": 53}]
    )
    out = dataset_statistics_side_by_side(published, ours).set_index(
        ["row", "statistic"]
    )
    assert out.loc[("enron", "LC"), "ours"] == 3.38
    assert out["differs"].tolist()[:3] == [False, True, False]
    assert pd.isna(out.loc[("bookmarks", "N"), "differs"])


@pytest.mark.parametrize(
    "outcomes, expected",
    [
        ([True] * 9, "agree"),
        ([True] * 5 + [False] * 4, "partly"),
        ([True] * 4 + [False] * 4, "disagree"),  # half is not more than half
        ([False] * 9, "disagree"),  # 0 of 9 is never "partly"
        (["holds"] * 8 + ["tie"], "partly"),
        (["tie", "tie", "holds"], "tie"),
        (["tie", "fails", "holds"], "disagree"),
    ],
)
def test_verdict_rule(outcomes, expected):
    assert verdict(outcomes).verdict == expected


def test_verdict_counts_text_and_bad_input():
    v = verdict(["holds"] * 5 + ["tie"] + ["fails"] * 3)
    assert (v.holds, v.ties, v.fails, v.n_stated) == (5, 1, 3, 9)
    assert v.text() == "partly: holds at 5 of 9 stated budgets, tied at 1"
    with pytest.raises(ConfigError, match="at least one"):
        verdict([])
    with pytest.raises(ConfigError, match="maybe"):
        verdict(["maybe"])


def test_best_and_better_outcomes_report_ties():
    means = {"MaxCS": 2.0, "MeanCS": 2.0, "RoRCS": 3.0}
    assert best_outcome(means, "MeanCS") == "tie"
    assert best_outcome({**means, "MaxCS": 2.1}, "MeanCS") == "holds"
    assert best_outcome(means, "RoRCS") == "fails"
    with pytest.raises(ConfigError, match="RaRCS"):
        best_outcome(means, "RaRCS")
    assert [better_outcome(a, 2.0) for a in (1.0, 2.0, 3.0)] == [
        "holds",
        "tie",
        "fails",
    ]
