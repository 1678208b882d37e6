"""Pairwise post-hoc tests after the Friedman test: which methods differ?

Three tests, on the same complete blocks (datasets on which every method has
a value) as :func:`~mlfs_core.friedman_nemenyi`:

- :func:`nemenyi_pvalues`: every pair, from the average ranks (Nemenyi 1963;
  Demsar 2006, section 3.2.2). Two methods differ at level alpha exactly
  when their average ranks differ by more than the Nemenyi critical
  difference.
- :func:`wilcoxon_holm`: every pair, by a Wilcoxon signed-rank test on the
  per-dataset values, the p-values adjusted by Holm's step-down procedure.
  Benavoli, Corani and Mangili (2016) recommend this over the mean-ranks
  tests, whose outcome for two methods depends on which other methods are
  in the comparison.
- :func:`control_comparisons`: every method against one control method
  (e.g. a proposed method against the others): the Bonferroni-Dunn test on
  the average ranks (Demsar 2006, section 3.2.2), or Wilcoxon-Holm over the
  k - 1 comparisons.

The pairwise functions return a square DataFrame of p-values (diagonal 1),
rows and columns ordered by average rank, best first.

References
----------
J. Demsar, "Statistical comparisons of classifiers over multiple data sets",
JMLR 7 (2006) 1-30.

A. Benavoli, G. Corani, F. Mangili, "Should we really use post-hoc tests
based on mean-ranks?", JMLR 17 (2016) 1-10.

S. Holm, "A simple sequentially rejective multiple test procedure",
Scandinavian Journal of Statistics 6 (1979) 65-70.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from ..columns import METHOD, RANK
from .ranks import complete_block_ranks, one_block
from .selection import Selection

__all__ = [
    "CONTROL_TESTS",
    "bonferroni_dunn_cd",
    "bonferroni_dunn_q",
    "control_comparisons",
    "holm_adjust",
    "nemenyi_pvalues",
    "wilcoxon_holm",
    "wilcoxon_method",
]

CONTROL_TESTS = ("bonferroni-dunn", "wilcoxon-holm")
"""The tests :func:`control_comparisons` runs."""

_CONTROL = "control"
_CONTROL_RANK = "control_rank"
_STATISTIC = "statistic"
_PVALUE = "pvalue"
_PVALUE_ADJUSTED = "pvalue_adjusted"
_SIGNIFICANT = "significant"


def holm_adjust(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the order given.

    With the m p-values sorted ascending, p_(1) <= ... <= p_(m), the adjusted
    value of p_(i) is max over j <= i of min(1, (m - j + 1) p_(j)); a
    hypothesis is rejected at level alpha when its adjusted p-value is at most
    alpha (Holm 1979).

    Parameters
    ----------
    pvalues : array_like
        Unadjusted p-values.

    Returns
    -------
    ndarray
        The adjusted p-values, each at least its unadjusted value, at most 1.

    Examples
    --------
    >>> holm_adjust([0.01, 0.04, 0.03]).round(6).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def _blocks(selection: Selection, caller: str):
    """Complete blocks (datasets x methods), their ranks, methods best first."""
    chosen = one_block(selection, caller)
    what = f"{caller}: a post-hoc test"
    wide, ranks = complete_block_ranks(chosen.table, chosen.higher_is_better, what)
    mean_ranks = pd.Series(ranks.mean(axis=0), index=wide.columns, name=RANK)
    order = np.argsort(mean_ranks.to_numpy(), kind="stable")
    methods = wide.columns[order]
    return wide[methods], mean_ranks[methods]


def _square(pvalues: np.ndarray, methods) -> pd.DataFrame:
    out = pd.DataFrame(pvalues, index=list(methods), columns=list(methods))
    out.index.name = METHOD
    out.columns.name = METHOD
    return out


def nemenyi_pvalues(selection: Selection) -> pd.DataFrame:
    """Nemenyi post-hoc p-values of every pair of methods.

    For k methods on N datasets with average ranks R_i, the statistic of a
    pair is q = abs(R_i - R_j) / sqrt(k (k + 1) / (6 N)) and its p-value the
    probability that the studentized range of k independent standard normals
    exceeds q sqrt(2) (Demsar 2006). The values equal
    ``scikit_posthocs.posthoc_nemenyi_friedman`` on the same blocks.

    Parameters
    ----------
    selection : Selection
        The block to compare on, made by :func:`~mlfs_core.analysis.select`.

    Returns
    -------
    DataFrame
        Square, indexed and labelled by method (best average rank first),
        symmetric, diagonal 1.

    Raises
    ------
    ValueError
        If the selection ranks groups apart (``by``), or fewer than 2
        complete datasets or 2 methods remain.

    Examples
    --------
    >>> import pandas as pd
    >>> from mlfs_core.analysis import select
    >>> t = pd.DataFrame({"dataset": ["a", "a", "b", "b", "c", "c"],
    ...                   "method": ["X", "Y"] * 3, "metric": "micro_f1",
    ...                   "value": [0.9, 0.1, 0.8, 0.2, 0.7, 0.3]})
    >>> p = nemenyi_pvalues(select(t))
    >>> list(p.index), round(float(p.loc["X", "Y"]), 4)
    (['X', 'Y'], 0.0833)
    """
    wide, mean_ranks = _blocks(selection, "nemenyi_pvalues")
    n, k = wide.shape
    r = mean_ranks.to_numpy()
    q = np.abs(r[:, None] - r[None, :]) / np.sqrt(k * (k + 1) / (6.0 * n))
    from scipy.stats import studentized_range

    p = studentized_range.sf(q * np.sqrt(2.0), k, np.inf)
    p = np.clip(np.nan_to_num(p, nan=1.0), 0.0, 1.0)
    np.fill_diagonal(p, 1.0)
    return _square(p, wide.columns)


_WILCOXON_METHODS = ("auto", "exact", "asymptotic")
"""The accepted ``method`` values of the Wilcoxon tests here."""


@functools.cache
def _asymptotic_name() -> str:
    """scipy's name of the normal approximation: "asymptotic" (scipy >= 1.13)
    or "approx" (older); asked once per process (a test call costs 1 ms, and
    every pair of methods needs the name)."""
    from scipy.stats import wilcoxon

    try:
        wilcoxon([1.0, 2.0, -3.0], method="asymptotic")
    except ValueError:
        return "approx"
    return "asymptotic"


def wilcoxon_method(d: np.ndarray) -> str:
    """The Wilcoxon method used for the differences ``d`` under ``method="auto"``.

    "exact" (the exact null distribution) when no difference is 0, no two
    absolute differences tie and there are at most 50; otherwise
    "asymptotic" (the normal approximation with the tie correction, no
    continuity correction). The rule is the same in every scipy version
    (scipy's own "auto" has changed between versions, and since 1.15 runs a
    permutation test on ties, which is slow).
    """
    d = np.asarray(d, dtype=float)
    nonzero = np.abs(d[d != 0])
    ties = np.unique(nonzero).size < nonzero.size
    if nonzero.size == d.size and not ties and d.size <= 50:
        return "exact"
    return "asymptotic"


def _wilcoxon(
    x: np.ndarray, y: np.ndarray, zero_method: str, method: str
) -> tuple[float, float]:
    """Wilcoxon signed-rank statistic and two-sided p-value; (0, 1) when x == y."""
    d = x - y
    if np.all(d == 0):  # no difference on any dataset: no evidence at all
        return 0.0, 1.0
    from scipy.stats import wilcoxon

    chosen = wilcoxon_method(d) if method == "auto" else method
    if chosen == "asymptotic":
        chosen = _asymptotic_name()
    res = wilcoxon(x, y, zero_method=zero_method, method=chosen)
    p = float(res.pvalue)
    return float(res.statistic), (1.0 if not np.isfinite(p) else min(max(p, 0.0), 1.0))


def _check_wilcoxon_method(method: str, caller: str) -> None:
    if method not in _WILCOXON_METHODS:
        raise ValueError(
            f"{caller}: method={method!r} is not one of "
            f"{', '.join(map(repr, _WILCOXON_METHODS))}"
        )


def wilcoxon_holm(
    selection: Selection,
    *,
    zero_method: str = "wilcox",
    method: str = "auto",
) -> pd.DataFrame:
    """Wilcoxon signed-rank test of every pair of methods, Holm-adjusted.

    Each pair is compared by :func:`scipy.stats.wilcoxon` on its per-dataset
    values (two-sided; the exact or the normal method as
    :func:`wilcoxon_method` chooses); the k (k - 1) / 2 p-values are then
    adjusted together by :func:`holm_adjust`. A pair
    with the same value on every dataset gets p = 1. As Benavoli et al.
    (2016) recommend, the outcome for two methods depends only on those two
    methods' values, not on which others are compared. The values equal
    ``scikit_posthocs.posthoc_wilcoxon(..., p_adjust="holm")`` on the same
    blocks and with the same ``method``.

    Parameters
    ----------
    selection : Selection
        The block to compare on, made by :func:`~mlfs_core.analysis.select`.
    zero_method : {"wilcox", "pratt", "zsplit"}
        Treatment of datasets on which a pair ties (scipy's option).
    method : {"auto", "exact", "asymptotic"}
        The p-value's method for every pair, or "auto": per pair, as
        :func:`wilcoxon_method` says.

    Returns
    -------
    DataFrame
        Square Holm-adjusted p-values, indexed and labelled by method (best
        average rank first), symmetric, diagonal 1.

    Examples
    --------
    >>> import pandas as pd
    >>> from mlfs_core.analysis import select
    >>> t = pd.DataFrame({"dataset": list("aabbccdd"), "method": ["X", "Y"] * 4,
    ...                   "value": [0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.5]})
    >>> float(wilcoxon_holm(select(t, higher_is_better=True)).loc["X", "Y"])
    0.125
    """
    _check_wilcoxon_method(method, "wilcoxon_holm")
    wide, _ = _blocks(selection, "wilcoxon_holm")
    values = wide.to_numpy(dtype=float)
    k = values.shape[1]
    upper = np.triu_indices(k, 1)
    pairs = zip(*upper, strict=True)
    raw = [
        _wilcoxon(values[:, i], values[:, j], zero_method, method)[1] for i, j in pairs
    ]
    p = np.ones((k, k))
    p[upper] = holm_adjust(raw)
    p.T[upper] = p[upper]
    return _square(p, wide.columns)


def bonferroni_dunn_q(n_methods: int, alpha: float = 0.05) -> float:
    """Critical value of the Bonferroni-Dunn test for ``n_methods`` methods.

    The two-sided normal quantile at alpha / (k - 1): z_(1 - alpha / (2 (k - 1)))
    (Demsar 2006, Table 5(b)).

    Examples
    --------
    >>> round(bonferroni_dunn_q(10), 3)
    2.773
    """
    if n_methods < 2:
        raise ValueError(f"n_methods must be at least 2, got {n_methods}")
    from scipy.stats import norm

    return float(norm.isf(alpha / (2.0 * (n_methods - 1))))


def bonferroni_dunn_cd(n_methods: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Bonferroni-Dunn critical difference q_alpha sqrt(k (k + 1) / (6 N)).

    A method whose average rank differs from the control's by more than this
    differs significantly from the control at level ``alpha``.

    Examples
    --------
    Demsar's worked example (4 methods, 14 data sets; q = 2.394):

    >>> round(bonferroni_dunn_cd(4, 14), 3)
    1.168
    """
    if n_datasets < 1:
        raise ValueError(f"n_datasets must be at least 1, got {n_datasets}")
    k = n_methods
    return bonferroni_dunn_q(k, alpha) * float(
        np.sqrt(k * (k + 1) / (6.0 * n_datasets))
    )


def control_comparisons(
    selection: Selection,
    control: str,
    *,
    test: str = "bonferroni-dunn",
    alpha: float = 0.05,
    zero_method: str = "wilcox",
    method: str = "auto",
) -> pd.DataFrame:
    """Every method against one control method, corrected for k - 1 comparisons.

    ``test="bonferroni-dunn"`` (Demsar 2006): z = (R_i - R_c) / sqrt(k (k + 1)
    / (6 N)) from the average ranks, two-sided normal p-value, multiplied by
    k - 1 (at most 1). ``test="wilcoxon-holm"``: a Wilcoxon signed-rank test
    of each method against the control on the per-dataset values, the k - 1
    p-values Holm-adjusted.

    Parameters
    ----------
    selection : Selection
        The block to compare on, made by :func:`~mlfs_core.analysis.select`.
    control : str
        The control method (e.g. ``"ATR"``); it must have results on the
        complete datasets.
    test : {"bonferroni-dunn", "wilcoxon-holm"}
        The test.
    alpha : float, default=0.05
        Level of the ``significant`` column.
    zero_method, method : str
        As in :func:`wilcoxon_holm` (``wilcoxon-holm`` only).

    Returns
    -------
    DataFrame
        One row per other method (best average rank first): ``method,
        control, rank, control_rank, statistic`` (z, or the Wilcoxon
        statistic), ``pvalue``, ``pvalue_adjusted`` and ``significant``
        (adjusted p-value at most ``alpha``).

    Raises
    ------
    ValueError
        If ``test`` is unknown or ``control`` is not among the methods, or as
        :func:`nemenyi_pvalues`.
    """
    if test not in CONTROL_TESTS:
        raise ValueError(
            f"control_comparisons: test={test!r} is not one of "
            f"{', '.join(map(repr, CONTROL_TESTS))}"
        )
    _check_wilcoxon_method(method, "control_comparisons")
    wide, mean_ranks = _blocks(selection, "control_comparisons")
    if control not in wide.columns:
        raise ValueError(
            f"control_comparisons: control method {control!r} is not among the "
            f"compared methods ({', '.join(map(str, wide.columns))})"
        )
    n, k = wide.shape
    others = [m for m in wide.columns if m != control]
    if test == "bonferroni-dunn":
        from scipy.stats import norm

        se = np.sqrt(k * (k + 1) / (6.0 * n))
        stat = (mean_ranks[others].to_numpy() - mean_ranks[control]) / se
        raw = np.minimum(1.0, 2.0 * norm.sf(np.abs(stat)))
        adjusted = np.minimum(1.0, raw * (k - 1))
    else:
        tests = [
            _wilcoxon(wide[m].to_numpy(), wide[control].to_numpy(), zero_method, method)
            for m in others
        ]
        stat = np.array([s for s, _ in tests])
        raw = np.array([p for _, p in tests])
        adjusted = holm_adjust(raw)
    return pd.DataFrame(
        {
            METHOD: others,
            _CONTROL: control,
            RANK: mean_ranks[others].to_numpy(),
            _CONTROL_RANK: float(mean_ranks[control]),
            _STATISTIC: stat,
            _PVALUE: raw,
            _PVALUE_ADJUSTED: adjusted,
            _SIGNIFICANT: adjusted <= alpha,
        }
    )
