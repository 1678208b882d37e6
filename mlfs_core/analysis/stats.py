"""Friedman test and Nemenyi critical difference (Demsar 2006)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..columns import MEAN, STD
from .ranks import _ranks, _summarize, complete_block_ranks, one_block, per_budget
from .selection import Selection


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman test over N datasets and m methods, with the Nemenyi CD.

    Attributes
    ----------
    statistic : float
        Friedman chi-squared, with scipy's correction for ties.
    pvalue : float
        Its chi-squared (m - 1 degrees of freedom) p-value.
    ranks : DataFrame
        Indexed by method, columns ``mean, std`` (average ranks, 1 = best).
    cd : float
        Nemenyi critical difference at ``alpha``: two methods whose average
        ranks differ by more than ``cd`` differ significantly.
    n_datasets, n_methods : int
        N and m.
    alpha : float
        Significance level of ``cd``.
    iman_davenport : float
        Iman and Davenport's F statistic (N - 1) chi2 / (N (m - 1) - chi2),
        which Demsar (2006) recommends over the chi-squared form (less
        conservative); ``inf`` when every dataset ranks the methods alike.
    iman_davenport_pvalue : float
        Its p-value under F with (m - 1, (m - 1)(N - 1)) degrees of freedom.
    """

    statistic: float
    pvalue: float
    ranks: pd.DataFrame
    cd: float
    n_datasets: int
    n_methods: int
    alpha: float = 0.05
    iman_davenport: float = float("nan")
    iman_davenport_pvalue: float = float("nan")

    def summary(self) -> dict:
        """The test's numbers as one table row (no ranks, no alpha)."""
        return {name: getattr(self, name) for name in SUMMARY_COLUMNS}


SUMMARY_COLUMNS = (
    "statistic",
    "pvalue",
    "iman_davenport",
    "iman_davenport_pvalue",
    "cd",
    "n_datasets",
    "n_methods",
)
"""The columns of :meth:`FriedmanResult.summary`, in order."""


def nemenyi_q(n_methods: int, alpha: float = 0.05) -> float:
    """Critical value q_alpha of the Nemenyi test for ``n_methods`` methods.

    q_alpha = studentized range quantile(1 - alpha, m, inf) / sqrt(2).

    Examples
    --------
    >>> round(nemenyi_q(10), 3)
    3.164
    """
    if n_methods < 2:
        raise ValueError(f"n_methods must be at least 2, got {n_methods}")
    from scipy import stats  # lazily: scipy.stats costs ~1 s at start-up

    q = stats.studentized_range.ppf(1.0 - alpha, n_methods, np.inf)
    return float(q / np.sqrt(2.0))


def nemenyi_cd(n_methods: int, n_datasets: int, alpha: float = 0.05) -> float:
    """Nemenyi critical difference q_alpha * sqrt(m (m + 1) / (6 N)).

    Examples
    --------
    >>> round(nemenyi_cd(2, 6), 4)
    0.8002
    """
    if n_datasets < 1:
        raise ValueError(f"n_datasets must be at least 1, got {n_datasets}")
    m = n_methods
    return nemenyi_q(m, alpha) * float(np.sqrt(m * (m + 1) / (6.0 * n_datasets)))


ID_RTOL = 1e-9
"""Relative tolerance under which Friedman's chi-squared counts as its maximum.

Iman-Davenport's F divides by ``N (m - 1) - chi2``, which is 0 exactly when
every dataset ranks the methods the same way. Computed in floating point,
chi2 can then come out an ulp or two below ``N (m - 1)`` (59.99999999999999
for 60), which would give F ~ 1e16 and a tiny but non-zero p instead of
infinity and 0. The rule: when ``N (m - 1) - chi2 <= ID_RTOL * N (m - 1)``, F
is ``inf`` and its p-value 0. Rounding error is a few ulps (~1e-15
relative), far inside the tolerance; the closest a real chi2 comes to its
maximum without reaching it (one swap of two adjacent ranks on one dataset)
is about 24 / (m (m + 1)) below it, a relative gap of
24 / (N m (m^2 - 1)), which is above 1e-9 for every table with
N m^3 < 2e10 (e.g. 20 methods on a million datasets, or 100 methods on
20 000), so no genuine F is turned into infinity.
"""


def iman_davenport(chi2: float, n_datasets: int, n_methods: int) -> tuple[float, float]:
    """Iman-Davenport F statistic and p-value from Friedman's chi-squared.

    F = (N - 1) chi2 / (N (m - 1) - chi2), distributed as F with m - 1 and
    (m - 1)(N - 1) degrees of freedom (Iman and Davenport 1980; Demsar 2006,
    section 3.2.2). When chi2 reaches its maximum N (m - 1) (every dataset
    ranks the methods the same way) F is infinite and the p-value 0; chi2
    within a relative :data:`ID_RTOL` of the maximum counts as reaching it
    (float rounding can leave it an ulp below).

    Examples
    --------
    Demsar's worked example (4 methods, 14 data sets, chi2 = 9.28):

    >>> f, p = iman_davenport(9.28, 14, 4)
    >>> round(f, 2)
    3.69
    >>> iman_davenport(59.99999999999999, 20, 4)
    (inf, 0.0)
    """
    n, m = int(n_datasets), int(n_methods)
    maximum = n * (m - 1)
    denominator = maximum - chi2
    if denominator <= ID_RTOL * maximum:
        return float("inf"), 0.0
    f = (n - 1) * chi2 / denominator
    from scipy import stats  # lazily: scipy.stats costs ~1 s at start-up

    return float(f), float(stats.f.sf(f, m - 1, (m - 1) * (n - 1)))


def friedman_nemenyi(selection: Selection, *, alpha: float = 0.05) -> FriedmanResult:
    """Friedman test of equal average ranks, plus the Nemenyi critical difference.

    Parameters
    ----------
    selection : Selection
        The block to test, made by :func:`~mlfs_core.analysis.select` (one
        budget, or the mean over budgets); repeated rows per (dataset,
        method) are averaged.
    alpha : float, default=0.05
        Significance level of the critical difference.

    Returns
    -------
    FriedmanResult

    Raises
    ------
    ValueError
        If the selection ranks groups apart (``by``; see
        :func:`friedman_by_budget`), or fewer than 2 complete datasets or 2
        methods remain.

    Notes
    -----
    The statistic is 12 N / (m (m + 1)) [sum_j R_j^2 - m (m + 1)^2 / 4] with
    R_j the average ranks, divided by the tie correction
    1 - sum(t^3 - t) / (N m (m^2 - 1)), which makes it equal to
    :func:`scipy.stats.friedmanchisquare` on the same blocks. When every
    dataset ranks the methods the same way it is set to its maximum N (m - 1)
    exactly (Iman-Davenport's F is then infinite, see :data:`ID_RTOL`). A CD
    diagram puts rank 1 on the left.

    References
    ----------
    Demsar (2006), "Statistical comparisons of classifiers over multiple data
    sets", JMLR 7.
    """
    instead = ", or call friedman_by_budget for one test per budget"
    chosen = one_block(selection, "friedman_nemenyi", instead=instead)
    return _friedman(chosen.table, chosen.higher_is_better, alpha)


def _friedman(table: pd.DataFrame, higher_is_better: bool, alpha: float):
    wide, ranks = complete_block_ranks(table, higher_is_better, "the Friedman test")
    n, m = wide.shape
    from scipy import stats  # lazily: scipy.stats costs ~1 s at start-up

    statistic = _friedman_statistic(ranks)
    pvalue = float(stats.chi2.sf(statistic, m - 1)) if np.isfinite(statistic) else 1.0
    f_statistic, f_pvalue = iman_davenport(statistic, n, m)
    return FriedmanResult(
        statistic=statistic,
        pvalue=pvalue,
        ranks=_summary_ranks(table, higher_is_better),
        cd=nemenyi_cd(m, n, alpha),
        n_datasets=n,
        n_methods=m,
        alpha=alpha,
        iman_davenport=f_statistic,
        iman_davenport_pvalue=f_pvalue,
    )


def _summary_ranks(table: pd.DataFrame, higher_is_better: bool) -> pd.DataFrame:
    """Average ranks (mean, std) per method, best first."""
    ranks = _ranks(table, higher_is_better, [])
    return _summarize(ranks, [])[[MEAN, STD]].sort_values(MEAN, kind="stable")


def _friedman_statistic(ranks: np.ndarray) -> float:
    n, m = ranks.shape
    mean_ranks = ranks.mean(axis=0)
    chi2 = 12.0 * n / (m * (m + 1)) * (np.sum(mean_ranks**2) - m * (m + 1) ** 2 / 4.0)
    ties = 0.0
    for row in ranks:
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts**3 - counts))
    correction = 1.0 - ties / (n * m * (m * m - 1))
    if correction <= 0:  # every block fully tied: no evidence of any difference
        return 0.0
    if (ranks == ranks[0]).all():  # every dataset ranks alike: the maximum, exactly
        return float(n * (m - 1))
    return float(chi2 / correction)


def friedman_by_budget(selection: Selection, *, alpha: float = 0.05) -> pd.DataFrame:
    """Friedman statistic, p-value and Nemenyi CD for each budget.

    Parameters
    ----------
    selection : Selection
        The results ranked per budget, made by
        :func:`~mlfs_core.analysis.select` with ``by=[<budget column>]``.
    alpha : float, default=0.05
        Significance level of the critical difference.

    Returns
    -------
    DataFrame
        Columns ``<budget column>, statistic, pvalue, iman_davenport,
        iman_davenport_pvalue, cd, n_datasets, n_methods``; budgets
        with fewer than 2 complete datasets are skipped.
    """
    chosen = per_budget(selection, "friedman_by_budget")
    by = chosen.budget_column
    rows = []
    for budget, group in chosen.table.groupby(by, sort=True):
        try:
            res = _friedman(group, chosen.higher_is_better, alpha)
        except ValueError:
            continue
        rows.append({by: budget, **res.summary()})
    return pd.DataFrame(rows, columns=[by, *SUMMARY_COLUMNS])
