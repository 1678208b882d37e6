"""Post-hoc tests against scipy, scikit-posthocs and statsmodels, and by hand.

The committed study data (Study 1 = paper 000, Study 2 = paper 001, the
merged tables the app reads) are the realistic cases; small tables are the
hand cases.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp
from scipy.stats import norm, wilcoxon
from statsmodels.stats.multitest import multipletests

from mlfs_core.analysis import (
    bonferroni_dunn_cd,
    bonferroni_dunn_q,
    control_comparisons,
    friedman_nemenyi,
    holm_adjust,
    nemenyi_pvalues,
    select,
    wilcoxon_holm,
    wilcoxon_method,
)
from mlfs_core.analysis.posthoc import _asymptotic_name
from mlfs_core.analysis.ranks import method_blocks

from .tables import long_table

ROOT = Path(__file__).resolve().parents[3]
STUDIES = {
    "paper000": ROOT / "studies" / "paper000" / "app" / "results.csv.gz",
    "paper001": ROOT / "studies" / "paper001" / "app" / "results.csv.gz",
}
# (study, metric, choice): one budget or the mean over budgets
CASES = [
    ("paper000", "micro_f1", {"budget": 10.0}),
    ("paper000", "micro_f1", {"budget": 50.0}),
    ("paper000", "macro_f1", {"budget": 90.0}),
    ("paper000", "hamming_loss", {"budget": 30.0}),
    ("paper000", "micro_f1", {"over_budgets": "mean"}),
    ("paper001", "micro_f1", {"over_budgets": "mean"}),
    ("paper001", "hamming_loss", {"over_budgets": "mean"}),
    ("paper001", "ranking_loss", {"over_budgets": "mean"}),
    ("paper001", "example_f1", {"budget": 10}),
    ("paper001", "subset_accuracy", {"budget": 50}),
]
TOL = 1e-12


@pytest.fixture(scope="module")
def studies():
    return {name: pd.read_csv(path) for name, path in STUDIES.items()}


def _wide(results, metric, choice) -> pd.DataFrame:
    """The complete blocks (datasets x methods) the tests run on."""
    chosen = select(results, metric=metric, **choice)
    return method_blocks(chosen.table, [])


def _case_id(case):
    study, metric, choice = case
    return f"{study}-{metric}-{next(iter(choice.values()))}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_nemenyi_equals_scikit_posthocs_on_the_studies(studies, case):
    """Check nemenyi_pvalues against posthoc_nemenyi_friedman to 1e-12."""
    study, metric, choice = case
    results = studies[study]
    wide = _wide(results, metric, choice)
    assert wide.shape[0] >= 5 and wide.shape[1] >= 5  # a real comparison
    ours = nemenyi_pvalues(select(results, metric=metric, **choice))
    ref = sp.posthoc_nemenyi_friedman(wide.to_numpy())
    ref.index = ref.columns = wide.columns
    ref = ref.loc[ours.index, ours.columns]
    np.testing.assert_allclose(ours.to_numpy(), ref.to_numpy(), rtol=0, atol=TOL)


def _scipy_wilcoxon(x, y, method="auto"):
    """scipy's two-sided p-value, with the method our rule picks under "auto"."""
    if np.all(x == y):
        return 1.0
    chosen = wilcoxon_method(x - y) if method == "auto" else method
    return wilcoxon(x, y, method=_scipy_name(chosen)).pvalue


def _scipy_name(method):
    return _asymptotic_name() if method == "asymptotic" else method


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_wilcoxon_holm_equals_scipy_and_scikit_posthocs_on_the_studies(studies, case):
    """Check wilcoxon_holm against scipy's wilcoxon + statsmodels' Holm and
    against posthoc_wilcoxon(p_adjust="holm"), to 1e-12."""
    study, metric, choice = case
    results = studies[study]
    wide = _wide(results, metric, choice)
    ours = wilcoxon_holm(select(results, metric=metric, **choice))
    methods = list(ours.index)
    pairs = [(a, b) for i, a in enumerate(methods) for b in methods[i + 1 :]]
    raw = [_scipy_wilcoxon(wide[a].to_numpy(), wide[b].to_numpy()) for a, b in pairs]
    holm = multipletests(raw, method="holm")[1]
    for (a, b), expected in zip(pairs, holm, strict=True):
        assert ours.loc[a, b] == pytest.approx(expected, abs=TOL)
        assert ours.loc[b, a] == ours.loc[a, b]
    if not any(np.all(wide[a] == wide[b]) for a, b in pairs):
        chosen = select(results, metric=metric, **choice)
        asym = wilcoxon_holm(chosen, method="asymptotic")
        samples = [wide[m].to_numpy() for m in methods]
        ref = sp.posthoc_wilcoxon(
            samples, p_adjust="holm", method=_scipy_name("asymptotic")
        )
        np.testing.assert_allclose(asym.to_numpy(), ref.to_numpy(), rtol=0, atol=TOL)


def test_wilcoxon_method_rule():
    """Check the rule: exact without zeros or ties (N <= 50), else asymptotic."""
    assert wilcoxon_method([0.1, -0.2, 0.3]) == "exact"
    assert wilcoxon_method([0.1, -0.1, 0.3]) == "asymptotic"  # |d| ties
    assert wilcoxon_method([0.0, -0.2, 0.3]) == "asymptotic"  # a zero
    assert wilcoxon_method(np.arange(1.0, 52)) == "asymptotic"  # N > 50
    assert wilcoxon_method(np.arange(1.0, 51)) == "exact"
    with pytest.raises(ValueError, match="method='permutation' is not one of"):
        wilcoxon_holm(
            select(long_table([[1, 2], [2, 1]], ["X", "Y"]), higher_is_better=True),
            method="permutation",
        )


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_control_comparisons_on_the_studies(studies, case):
    """Check both control forms against scikit-posthocs, scipy and statsmodels."""
    study, metric, choice = case
    results = studies[study]
    wide = _wide(results, metric, choice)
    control = "ATR" if study == "paper001" else "Random"
    chosen = select(results, metric=metric, **choice)
    bd = control_comparisons(chosen, control)
    siegel = sp.posthoc_siegel_friedman(wide.to_numpy())  # unadjusted z tests
    siegel.index = siegel.columns = wide.columns
    raw = siegel.loc[bd["method"], control].to_numpy()
    np.testing.assert_allclose(bd["pvalue"], raw, rtol=0, atol=TOL)
    bonferroni = multipletests(raw, method="bonferroni")[1]
    np.testing.assert_allclose(bd["pvalue_adjusted"], bonferroni, rtol=0, atol=TOL)
    k, n = wide.shape[1], wide.shape[0]
    far = (bd["rank"] - bd["control_rank"]).abs() > bonferroni_dunn_cd(k, n)
    assert (bd["significant"] == far).all()

    wh = control_comparisons(chosen, control, test="wilcoxon-holm")
    raw = [_scipy_wilcoxon(wide[m], wide[control]) for m in wh["method"]]
    np.testing.assert_allclose(wh["pvalue"], raw, rtol=0, atol=TOL)
    holm = multipletests(raw, method="holm")[1]
    np.testing.assert_allclose(wh["pvalue_adjusted"], holm, rtol=0, atol=TOL)
    assert (wh["significant"] == (wh["pvalue_adjusted"] <= 0.05)).all()


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_nemenyi_significance_is_the_critical_difference(studies, case):
    """Check p < alpha exactly when the average ranks differ by more than the CD."""
    study, metric, choice = case
    results = studies[study]
    chosen = select(results, metric=metric, **choice)
    pvalues = nemenyi_pvalues(chosen)
    res = friedman_nemenyi(chosen)
    ranks = res.ranks["mean"]
    diff = np.abs(
        ranks[pvalues.index].to_numpy()[:, None] - ranks[pvalues.index].to_numpy()
    )
    off = ~np.eye(len(ranks), dtype=bool)
    far = diff > res.cd
    close = np.abs(diff - res.cd) < 1e-9  # exactly at the CD: either side
    assert ((pvalues.to_numpy() < 0.05) == far)[off & ~close].all()
    assert list(pvalues.index) == list(ranks.index)  # best average rank first


# ---- hand cases -------------------------------------------------------------


def test_nemenyi_two_methods_by_hand():
    """Check two methods, X best on 3 datasets: q = 1 / sqrt(2*3/18) = sqrt(3); the
    range of two standard normals exceeds q sqrt(2) with probability 2 Phi(-sqrt 3).
    """
    t = long_table([[0.9, 0.1], [0.8, 0.2], [0.7, 0.3]], ["X", "Y"])
    p = nemenyi_pvalues(select(t, higher_is_better=True))
    assert p.loc["X", "Y"] == pytest.approx(2 * norm.sf(np.sqrt(3)), abs=1e-12)
    assert p.loc["X", "X"] == 1.0 and p.loc["Y", "X"] == p.loc["X", "Y"]


def test_nemenyi_is_the_same_for_either_direction():
    """Check that Nemenyi p-values depend on |R_i - R_j| only, the order does not."""
    t = long_table(np.random.default_rng(3).random((6, 4)), ["A", "B", "C", "D"])
    up = nemenyi_pvalues(select(t, higher_is_better=True))
    down = nemenyi_pvalues(select(t, higher_is_better=False))
    assert list(up.index) == list(down.index)[::-1]  # best first either way
    pd.testing.assert_frame_equal(up.loc[down.index, down.columns], down)


def test_wilcoxon_holm_by_hand():
    """Check exact Wilcoxon p-values and Holm's step-down on 4 datasets.

    X beats Y and Z on every dataset: exact two-sided p = 2 / 2^4 = 0.125
    each; Y vs Z: differences +0.1, -0.1, +0.2, +0.3 have signed ranks
    1.5-, 1.5+, 3, 4 -> W- = 1.5 (ties: the normal approximation). Holm
    multiplies the smallest by 3, the next by 2, keeping the order monotone.
    """
    values = [[0.9, 0.5, 0.4], [0.8, 0.3, 0.4], [0.7, 0.4, 0.2], [0.6, 0.5, 0.2]]
    t = long_table(values, ["X", "Y", "Z"])
    p = wilcoxon_holm(select(t, higher_is_better=True))
    v = np.asarray(values)
    raw = {
        ("X", "Y"): 0.125,
        ("X", "Z"): 0.125,
        ("Y", "Z"): wilcoxon(v[:, 1], v[:, 2], method=_asymptotic_name()).pvalue,
    }
    adjusted = dict(zip(raw, holm_adjust(list(raw.values())), strict=True))
    for (a, b), value in adjusted.items():
        assert p.loc[a, b] == pytest.approx(value, abs=1e-15)
    assert p.loc["X", "Y"] == pytest.approx(min(1.0, 0.125 * 3), abs=1e-15)


def test_holm_adjust_by_hand_and_against_statsmodels(rng):
    """Check Holm on a hand case and on random p-values against statsmodels."""
    # sorted 0.01, 0.03, 0.04 -> 0.03, 0.06, max(0.06, 0.04) = 0.06
    np.testing.assert_allclose(holm_adjust([0.04, 0.01, 0.03]), [0.06, 0.03, 0.06])
    for _ in range(20):
        p = rng.random(int(rng.integers(1, 30))) ** 3
        ref = multipletests(p, method="holm")[1]
        np.testing.assert_allclose(holm_adjust(p), ref, rtol=0, atol=1e-15)
    assert holm_adjust([]).size == 0


def test_identical_methods_get_p_one_and_everything_stays_finite():
    """Check that a pair equal on every dataset gets p = 1 (no NaN), all tests."""
    values = [[0.5, 0.5, 0.1], [0.6, 0.6, 0.2], [0.7, 0.7, 0.3]]
    t = long_table(values, ["X", "Y", "Z"])
    for p in (
        nemenyi_pvalues(select(t, higher_is_better=True)),
        wilcoxon_holm(select(t, higher_is_better=True)),
    ):
        assert np.isfinite(p.to_numpy()).all()
        assert p.loc["X", "Y"] == 1.0
    chosen = select(t, higher_is_better=True)
    out = control_comparisons(chosen, "X", test="wilcoxon-holm")
    assert out.set_index("method").loc["Y", "pvalue"] == 1.0
    flat = long_table(np.ones((3, 3)), ["X", "Y", "Z"])
    assert (wilcoxon_holm(select(flat, higher_is_better=True)).to_numpy() == 1.0).all()
    assert (
        nemenyi_pvalues(select(flat, higher_is_better=True)).to_numpy() == 1.0
    ).all()


def test_bonferroni_dunn_by_hand():
    """Check Bonferroni-Dunn on a hand table: z = (R_i - R_c) / sqrt(k(k+1)/(6N)),
    p = 2 Phi(-|z|), times k - 1."""
    values = [[0.9, 0.5, 0.1], [0.8, 0.1, 0.5], [0.9, 0.5, 0.1], [0.7, 0.6, 0.5]]
    t = long_table(values, ["A", "B", "C"])  # ranks A 1 1 1 1, B 2 3 2 2, C 3 2 3 3
    out = control_comparisons(select(t, higher_is_better=True), "A").set_index("method")
    se = np.sqrt(3 * 4 / 24)
    assert out.loc["B", "statistic"] == pytest.approx((2.25 - 1) / se)
    assert out.loc["C", "statistic"] == pytest.approx((2.75 - 1) / se)
    assert out.loc["B", "pvalue"] == pytest.approx(2 * norm.sf(1.25 / se))
    assert out.loc["C", "pvalue_adjusted"] == pytest.approx(2 * 2 * norm.sf(1.75 / se))
    assert list(out.index) == ["B", "C"] and (out["control"] == "A").all()


# Demsar (2006), Table 5(b): Bonferroni-Dunn q_0.05 for k = 2..10. The table
# prints 2.724 for k = 9, but z at 1 - 0.05 / 16 is 2.734 (norm.isf(0.003125)),
# between its neighbours 2.690 and 2.773 as the others are: a misprint.
BD_TABLE = [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773]


@pytest.mark.parametrize("k", range(2, 11))
def test_bonferroni_dunn_q_matches_demsar(k):
    """Check the Bonferroni-Dunn critical values against Demsar's table."""
    assert bonferroni_dunn_q(k) == pytest.approx(BD_TABLE[k - 2], abs=6e-4)


def test_bad_input_is_refused_with_one_clear_error():
    """Check the errors: unknown control, unknown test, too few datasets."""
    t = long_table([[0.9, 0.1], [0.8, 0.2]], ["X", "Y"])
    chosen = select(t, higher_is_better=True)
    with pytest.raises(ValueError, match="control method 'ATR' is not among"):
        control_comparisons(chosen, "ATR")
    with pytest.raises(ValueError, match="test='t-test' is not one of"):
        control_comparisons(chosen, "X", test="t-test")
    with pytest.raises(ValueError, match="at least 2 complete datasets"):
        nemenyi_pvalues(select(t.iloc[:2], higher_is_better=True))
    with pytest.raises(ValueError, match="2 metrics"):
        select(pd.concat([t.assign(metric="micro_f1"), t.assign(metric="macro_f1")]))


def test_the_posthoc_tests_take_one_budget_only():
    """Check a per-budget selection is refused with a message saying what to
    select, and the results table itself with a TypeError naming select."""
    t = pd.concat(
        [
            long_table([[0.9, 0.1], [0.8, 0.2]], ["X", "Y"]).assign(budget=b)
            for b in (1, 2)
        ]
    )
    per_budget = select(t, higher_is_better=True, by=["budget"])
    for test in (nemenyi_pvalues, wilcoxon_holm):
        with pytest.raises(ValueError, match=r"by=\['budget'\] apart; select one"):
            test(per_budget)
    with pytest.raises(TypeError, match=r"takes a Selection.*select\(results"):
        wilcoxon_holm(t)
    with pytest.raises(ValueError, match="missing='keep'"):
        nemenyi_pvalues(select(t, budget=1, missing="keep"))
