"""Paper 000's published Tables 4-6 as data and beside a reproduction."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mlfs_core.errors import ConfigError
from mlfs_papers.paper000.app import published_cells
from mlfs_papers.paper000.published import (
    BNS_METHODS,
    CS_METHODS,
    PAPER_LABELS,
    TABLE5_METHODS,
    engine_name,
    kuncheva_comparison,
    paper_label,
    published_kuncheva,
    published_ranks,
    rank_comparison,
    reproduction_ranks,
    with_paper_labels,
)


@pytest.fixture(scope="module")
def published() -> pd.DataFrame:
    return published_cells()


def test_published_ranks_are_the_printed_means(published):
    t4, t5 = published_ranks(published, 4), published_ranks(published, 5)
    assert len(t4) == 9 * 8 and len(t5) == 9 * 6
    assert set(t4["measure"]) == {"CS", "BNS"} and set(t5["measure"]) == {""}
    cell = t5[(t5["budget_pct"] == 10) & (t5["method"] == "AF")]["mean"]
    assert cell.item() == 2.55
    # ranks 1..m: each row adds up to m(m+1)/2, up to the printed rounding
    sums = t4.groupby(["measure", "budget_pct"])["mean"].sum()
    np.testing.assert_allclose(sums, 10.0, atol=0.015)
    with pytest.raises(ConfigError, match="4 and 5"):
        published_ranks(published, 6)


def test_published_kuncheva_is_table6(published):
    t6 = published_kuncheva(published)
    assert list(t6.index) == list(CS_METHODS + BNS_METHODS) == list(t6.columns)
    np.testing.assert_array_equal(np.diag(t6), 1.0)
    np.testing.assert_array_equal(t6.to_numpy(), t6.T.to_numpy())
    assert t6.loc["RoRBNS", "RaRBNS"] == 0.82


def test_missing_column_is_named(published):
    with pytest.raises(ConfigError, match="statistic"):
        published_ranks(published.drop(columns="statistic"), 4)


def _results() -> pd.DataFrame:
    """Two datasets; method i scores 0.9 - 0.05 i (AF once, at 100 %), under
    the engine's names (the random baseline is ``Random``)."""
    methods = [*CS_METHODS, *BNS_METHODS, "Random", "AF"]
    rows = []
    for d in ("a", "b"):
        for pct in (10.0, 50.0):
            for i, m in enumerate(methods):
                if m == "AF" and pct != 10.0:
                    continue
                rows.append(
                    {
                        "dataset": d,
                        "method": m,
                        "budget": 100 if m == "AF" else int(pct),
                        "budget_pct": 100.0 if m == "AF" else pct,
                        "fold": 0,
                        "metric": "micro_f1",
                        "value": 0.9 - 0.05 * i,
                    }
                )
    return pd.DataFrame(rows)


def test_reproduction_ranks_rank_like_the_paper():
    t4, t5 = reproduction_ranks(_results())
    cs = t4[(t4["measure"] == "CS") & (t4["budget_pct"] == 50)].set_index("method")
    assert cs["mean"].to_dict() == {
        "MaxCS": 1.0,
        "MeanCS": 2.0,
        "RoRCS": 3.0,
        "RaRCS": 4.0,
    }
    bns = t4[(t4["measure"] == "BNS") & (t4["budget_pct"] == 10)]
    assert bns["mean"].min() == 1.0  # ranked among the four BNS only
    # AF (all features) is ranked against the others at every budget
    af = t5[t5["method"] == "AF"].set_index("budget_pct")["mean"]
    assert af.to_dict() == {10.0: 6.0, 50.0: 6.0}
    assert set(t5["method"]) == set(TABLE5_METHODS) and set(t5["measure"]) == {""}


def test_reproduction_ranks_show_the_engines_random_as_the_papers_rfs():
    """Check the engine's ``Random`` is ranked in Table 5 under the paper's
    label RFS (rows in rank_table's order: budget, then label), and that the
    engine's own ``RFS`` (Nie et al.'s method) is not taken for it."""
    results = _results()
    _, t5 = reproduction_ranks(results)
    assert "Random" not in set(t5["method"])
    rfs = t5[t5["method"] == "RFS"].set_index("budget_pct")["mean"]
    # Random (score 0.9 - 0.05 * 8) is last of the five selecting methods,
    # ahead of AF (0.9 - 0.05 * 9) only
    assert rfs.to_dict() == {10.0: 5.0, 50.0: 5.0}
    ordered = t5.sort_values(["budget_pct", "method"], ignore_index=True)
    pd.testing.assert_frame_equal(t5, ordered)
    nie = results.assign(method=results["method"].replace("Random", "RFS"))
    _, t5_nie = reproduction_ranks(nie)
    assert "RFS" not in set(t5_nie["method"])  # no random baseline in those results


def test_the_one_label_map_between_the_engine_and_paper_000():
    """Check the label map: Random <-> RFS, every other name unchanged, in a
    method column and on a methods x methods matrix."""
    assert PAPER_LABELS == {"Random": "RFS"}
    assert paper_label("Random") == "RFS" and engine_name("RFS") == "Random"
    assert paper_label("MaxCS") == engine_name("MaxCS") == "MaxCS"
    assert paper_label("AF") == engine_name("AF") == "AF"
    frame = pd.DataFrame({"method": ["MaxCS", "Random", "AF"], "mean": [1, 2, 3]})
    assert with_paper_labels(frame)["method"].tolist() == ["MaxCS", "RFS", "AF"]
    assert frame["method"].tolist() == ["MaxCS", "Random", "AF"]  # not changed
    matrix = pd.DataFrame(
        np.eye(2), index=["MaxCS", "Random"], columns=["MaxCS", "Random"]
    )
    shown = with_paper_labels(matrix)
    assert list(shown.index) == list(shown.columns) == ["MaxCS", "RFS"]


def test_rank_comparison_of_the_paper_with_itself_beats_the_floor(published):
    t4, t5 = published_ranks(published, 4), published_ranks(published, 5)
    comparison = rank_comparison(published, t4, t5)
    s = comparison.summary.set_index(["table", "measure", "ranks"])
    assert s.loc[("Table 5", "", "ours"), "mean_abs_diff"] == 0.0
    assert s.loc[("Table 5", "", "constant"), "mean_abs_diff"] > 0.5
    assert s.loc[("Table 4", "CS", "ours"), "spearman_mean"] == pytest.approx(1.0)
    assert np.isnan(s.loc[("Table 4", "CS", "constant"), "spearman_mean"])
    per = comparison.per_budget
    assert len(per) == 27 and set(per["outcome"]) == {"agree"}
    assert len(comparison.cells) == 9 * 14 and (comparison.cells["diff"] == 0).all()


def test_rank_comparison_counts_a_changed_cell(published):
    t4, t5 = published_ranks(published, 4), published_ranks(published, 5)
    at10 = (t5["budget_pct"] == 10) & (t5["method"] == "AF")
    t5.loc[at10, "mean"] = 1.0  # AF first at 10 %: the paper has MeanCS
    comparison = rank_comparison(published, t4, t5)
    row = comparison.per_budget.query("table == 'Table 5' and budget_pct == 10")
    assert row["outcome"].item() == "disagree" and row["ours_best"].item() == "AF"
    assert row["mean_abs_diff"].item() == pytest.approx((2.55 - 1.0) / 6)


def test_kuncheva_comparison_pairs_and_difference(published):
    theirs = published_kuncheva(published)
    ours = theirs.copy()
    ours.loc["MaxCS", "MeanCS"] = ours.loc["MeanCS", "MaxCS"] = 0.33  # paper: 0.73
    table6 = kuncheva_comparison(published, ours)
    assert len(table6.pairs) == 28
    assert table6.mean_abs_diff == pytest.approx(0.4 / 28)
    assert table6.difference.loc["MeanCS", "MaxCS"] == pytest.approx(-0.4)
    assert (table6.difference.drop(index=["MaxCS", "MeanCS"]) == 0).all().all()
    assert 0.5 < table6.spearman < 1.0
    with pytest.raises(ConfigError, match="no pair"):
        kuncheva_comparison(published, ours.loc[["MaxCS"], ["MaxCS"]])


def test_kuncheva_comparison_takes_the_engines_names(published):
    """Check our matrix under the engine's names (Random beside the CS/BNS
    methods) compares like the same matrix under the paper's labels."""
    theirs = published_kuncheva(published)
    methods = [*theirs.index, "RFS"]
    ours = pd.DataFrame(0.5, index=methods, columns=methods)
    ours.loc[theirs.index, theirs.columns] = theirs
    engine = ours.rename(index=engine_name, columns=engine_name)
    assert "Random" in engine.index
    a = kuncheva_comparison(published, ours)
    b = kuncheva_comparison(published, engine)
    pd.testing.assert_frame_equal(a.pairs, b.pairs)
    assert a.mean_abs_diff == b.mean_abs_diff == 0.0
