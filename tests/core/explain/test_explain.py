"""Tests of mlfs_core.explain: the step-by-step views replay the engine exactly."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import mlfs_core
from mlfs_core import label_scores, rank_features
from mlfs_core.explain import (
    aggregation_steps,
    greedy_steps,
    label_coverage,
    label_turns,
    method_steps,
    score_steps,
    top_feature_scores,
)
from mlfs_core.selectors.greedy import IT_METHODS

FILTERS = [f"{a}{m}" for m in ("CS", "BNS") for a in ("Max", "Mean", "RoR", "RaR")]


@pytest.fixture
def text_xy(rng):
    """Sparse word counts (80 x 30) and 5 labels of unequal frequency."""
    X = rng.poisson(0.4, size=(80, 30)).astype(float)
    Y = (rng.random((80, 5)) < [0.5, 0.3, 0.15, 0.08, 0.04]).astype(np.int8)
    X[:, 0] += 2 * Y[:, 0]
    X[:, 1] += 2 * Y[:, 3]
    return sp.csr_matrix(X), Y


def test_score_steps_totals_equal_the_engine(small_xy):
    """Check that CS = the sum of its four terms = label_scores, and BNS likewise."""
    X, Y = small_xy
    cs, bns = label_scores(X, Y, "chi2"), label_scores(X, Y, "bns")
    for feature in range(X.shape[1]):
        for label in range(Y.shape[1]):
            s = score_steps(X, Y, feature, label)
            assert s.tp + s.fp + s.fn + s.tn == s.n == X.shape[0]
            assert s.cs == pytest.approx(cs[label, feature], abs=1e-9)
            assert s.cs_terms["term"].sum() == pytest.approx(s.cs)
            assert s.bns == pytest.approx(bns[label, feature], abs=1e-9)


def test_score_steps_by_hand():
    """Check a hand-made table: tp 3, fp 1, fn 1, tn 3 (n = 8)."""
    X = np.array([[1], [1], [1], [1], [0], [0], [0], [0]])
    Y = np.array([[1], [1], [1], [0], [1], [0], [0], [0]])
    s = score_steps(X, Y, 0, 0)
    assert (s.tp, s.fp, s.fn, s.tn) == (3, 1, 1, 3)
    assert s.cs_terms["expected"].tolist() == [2.0, 2.0, 2.0, 2.0]
    assert s.cs_terms["term"].tolist() == [0.5, 0.5, 0.5, 0.5] and s.cs == 2.0
    assert s.bns_rates.loc["tpr", "value"] == 0.75
    assert s.bns_rates.loc["fpr", "clipped"] == 0.25
    assert s.table().loc["total", "total"] == 8


def test_bns_clipping_and_empty_label_are_shown(small_xy):
    """Check that a label without positives gives rate 0 clipped to 0.0005."""
    X, Y = small_xy
    s = score_steps(X, Y, 5, 2)  # feature present everywhere, label never positive
    assert s.bns_rates.loc["tpr", "total"] == 0
    assert s.bns_rates.loc["tpr", "value"] == 0.0
    assert s.bns_rates.loc["tpr", "clipped"] == 0.0005
    assert s.bns_rates.loc["fpr", "clipped"] == 0.9995
    assert s.bns == pytest.approx(6.58, abs=0.01)


def test_score_steps_rejects_bad_indices(small_xy):
    """Check that an out-of-range feature or label names the parameter."""
    X, Y = small_xy
    with pytest.raises(ValueError, match="feature must lie in"):
        score_steps(X, Y, 99, 0)
    with pytest.raises(ValueError, match="label must lie in"):
        score_steps(X, Y, 0, -1)


@pytest.mark.parametrize("method", FILTERS)
@pytest.mark.parametrize("k", [5, None])
def test_replaying_aggregation_steps_gives_rank_features(text_xy, method, k):
    """Check that the recorded steps are rank_features' order, RaR with its seed."""
    X, Y = text_xy
    for seed in (0, 7):
        steps = method_steps(X, Y, method, k=k, random_state=seed)
        expected = rank_features(X, Y, method, k=k, random_state=seed)
        assert steps["feature"].tolist() == expected.tolist()


@pytest.mark.parametrize("weighting", ["inverse", "proportional", "uniform"])
def test_rar_steps_follow_each_weighting(text_xy, weighting):
    """Check RaR's replay and its draw probabilities for every weighting."""
    X, Y = text_xy
    steps = method_steps(X, Y, "RaRCS", k=12, random_state=3, weighting=weighting)
    expected = rank_features(X, Y, "RaRCS", k=12, random_state=3, weighting=weighting)
    assert steps["feature"].tolist() == expected.tolist()
    turns = label_turns(Y.sum(axis=0), "rar", weighting=weighting)
    p = turns["probability"].to_numpy()
    assert steps["probability"].tolist() == p[steps["label"]].tolist()
    if weighting == "inverse":  # rarer labels are drawn more often
        assert np.all(np.diff(p) > 0)


def test_ror_turns_cycle_and_skips_are_counted():
    """Check RoR's label order and that a taken feature counts as skipped."""
    S = np.array([[3.0, 2.0, 1.0, 0.0], [3.0, 0.0, 1.0, 2.0]])
    steps = aggregation_steps(S, [2, 2], "ror")
    assert steps["label"].tolist() == [0, 1, 0, 1]
    assert steps["feature"].tolist() == [0, 3, 1, 2]
    assert steps["skipped"].tolist() == [0, 1, 0, 0]
    assert steps["position"].tolist() == [1.0, 2.0, 2.0, 3.0]


def test_max_steps_name_the_label_giving_the_maximum():
    """Check that Max records which label's score made each feature's maximum."""
    S = np.array([[1.0, 5.0, 0.0], [4.0, 0.0, 2.0]])
    steps = aggregation_steps(S, [1, 1], "max")
    assert steps["feature"].tolist() == [1, 0, 2]
    assert steps["label"].tolist() == [0, 1, 1]
    assert steps["score"].tolist() == [5.0, 4.0, 2.0]


def test_label_coverage_counts_each_labels_best_features():
    """Check coverage: Max's top 2 hold both labels' best, Mean's only one label's."""
    S = np.array([[9.0, 0.0, 4.0, 4.0], [0.0, 9.0, 0.0, 0.0]])
    orders = {
        "Max": np.array([0, 1, 2, 3]),
        "Mean": np.array([0, 1, 2, 3])[[2, 3, 0, 1]],
    }
    table = label_coverage(S, orders, 2, top=1, label_names=["a", "b"])
    covered = table.set_index(["method", "label"])["covered"]
    assert covered[("Max", "a")] == 1 and covered[("Max", "b")] == 1
    assert covered[("Mean", "a")] == 0 and covered[("Mean", "b")] == 0


def test_top_feature_scores_are_max_ordered(text_xy):
    """Check that the heatmap matrix holds the top features by Max, best first."""
    X, Y = text_xy
    table = top_feature_scores(X, Y, "chi2", top=6)
    assert table.shape == (5, 6)
    assert list(table.columns) == rank_features(X, Y, "MaxCS", k=6).tolist()


CRITERIA_CASES = [(m, "definition") for m in IT_METHODS]


@pytest.mark.parametrize(("method", "variant"), CRITERIA_CASES)
def test_greedy_terms_sum_to_the_criterion_and_picks_match(text_xy, method, variant):
    """Check that each step's terms sum to J(f|S), picks = rank_features, path too."""
    X, Y = text_xy
    X = X.toarray()
    X[:, 2] = 1.0  # a constant feature (H(f) = 0: SCLS's J = 0)
    params = {"variant": variant} if method in ("PMU", "MDMR") else {}
    k = 8
    steps = greedy_steps(X, Y, method, k=k, n_candidates=30, **params)
    ranking = mlfs_core.compute_ranking(X, Y, method, k=k, **params)
    assert steps.path["feature"].tolist() == ranking.order.tolist()
    np.testing.assert_allclose(steps.path["criterion"], ranking.criterion_path)
    sums = steps.candidates[steps.terms].sum(axis=1)
    np.testing.assert_allclose(sums, steps.candidates["criterion"], atol=1e-9)
    picked = steps.candidates[steps.candidates["picked"]]
    assert picked["feature"].tolist() == ranking.order.tolist()
    assert (steps.candidates.groupby("step")["picked"].sum() == 1).all()


def test_greedy_redundancy_term_is_zero_at_the_first_step(text_xy):
    """Check that with S empty the redundancy term is 0 and appears from step 1."""
    X, Y = text_xy
    steps = greedy_steps(X, Y, "ATR", k=3)
    redundancy = steps.terms[-1]
    assert redundancy.startswith("- (1/|S|) sum_s I(f; s)")
    first = steps.candidates[steps.candidates["step"] == 1]
    assert (first[redundancy] == 0).all()
    assert len(steps.terms) == 3


def test_greedy_steps_reports_progress_and_rejects_filters(text_xy):
    """Check the progress callback and the error for a non-greedy method."""
    X, Y = text_xy
    seen = []
    greedy_steps(X, Y, "D2F", k=4, progress=lambda done, total: seen.append(done))
    assert seen == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="unknown method 'MaxCS'"):
        greedy_steps(X, Y, "MaxCS")


def test_compare_coverage_uses_each_methods_own_selection(text_xy):
    """Check that the coverage of MaxCS and MeanCS counts their rank_features picks."""
    from mlfs_core.aggregation import per_label_orders
    from mlfs_core.explain import compare_coverage

    X, Y = text_xy
    table = compare_coverage(X, Y, ("MaxCS", "RaRCS"), k=4, top=3, random_state=5)
    S = label_scores(X, Y, "chi2")
    best = per_label_orders(S)[:, :3]
    for method in ("MaxCS", "RaRCS"):
        picks = set(rank_features(X, Y, method, k=4, random_state=5).tolist())
        expected = [len(picks & set(row)) for row in best.tolist()]
        got = table[table["method"] == method]["covered"].tolist()
        assert got == expected
    with pytest.raises(ValueError, match="one measure"):
        compare_coverage(X, Y, ("MaxCS", "MaxBNS"), k=4)
