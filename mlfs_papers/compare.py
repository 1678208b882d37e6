"""Published tables against a reproduction: differences, agreement and verdicts.

Pure functions on tidy DataFrames. A *rank table* is
long-form with the columns ``budget_pct, method, mean`` (plus optional group
columns such as ``measure``), one row per (group, budget, method): Tables 4 and
5 of paper 000 as published (``studies/paper000/published.csv`` with
``statistic == "mean"``) or as :func:`mlfs_core.analysis.rank_table` computes
them.

- :func:`side_by_side`: published and our mean rank per cell, and their difference.
- :func:`per_budget_agreement`: Spearman's correlation between the two rankings at
  each budget, the best method(s) of each side and whether they agree.
- :func:`agreement_summary`: mean absolute difference, mean Spearman and the
  best-method counts, for our table and for the *constant-rank* reproduction
  (:func:`constant_ranks`, every method at rank (m + 1) / 2), the floor a
  reproduction must beat.
- :func:`dataset_statistics_side_by_side`: Table 3 beside our dataset statistics,
  flagging rows that differ at the printed precision.
- :func:`verdict`, :func:`best_outcome`, :func:`better_outcome`: the written
  verdict rule for a claim checked budget by budget.

Best-method agreement per budget (ties reported as ties): ``"agree"`` when both
sides have the same set of best methods (a shared tie counts), ``"tie"`` when
the sets differ but overlap (one side ties the other's best with another
method), ``"disagree"`` when they are disjoint. Means within 1e-9 of the
lowest are tied (our means are exact fractions; the published ones are printed
with two decimals, so equal printed values are ties).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlfs_core.columns import BUDGET_PCT, DATASET, MEAN, METHOD
from mlfs_core.errors import ConfigError

PUBLISHED = "published"
OURS = "ours"
DIFF = "diff"
SPEARMAN = "spearman"
OUTCOME = "outcome"
RANKS = "ranks"
CONSTANT = "constant"
OUTCOMES = ("agree", "tie", "disagree")
STATISTICS = ("N", "M", "q", "LC", "LD", "DC")
_TIE_ATOL = 1e-9


def _check_columns(table: pd.DataFrame, columns: Iterable[str], name: str) -> None:
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ConfigError(f"{name} lacks the column(s) {missing}")


def side_by_side(
    published: pd.DataFrame,
    ours: pd.DataFrame,
    *,
    by: str = BUDGET_PCT,
    groups: Sequence[str] = (),
) -> pd.DataFrame:
    """Published and our mean rank per (group, budget, method).

    Parameters
    ----------
    published, ours : DataFrame
        Rank tables with the columns ``groups..., by, method, mean``.
    by : str, default="budget_pct"
        Budget column.
    groups : sequence of str
        Columns that split the table into separately ranked blocks (e.g.
        ``["measure"]`` for Table 4).

    Returns
    -------
    DataFrame
        Columns ``groups..., by, method, published, ours, diff`` (``ours -
        published``), only the cells present on both sides, sorted.

    Raises
    ------
    ConfigError
        A column is missing, or the two sides share no cell.
    """
    keys = [*groups, by, METHOD]
    for table, name in ((published, "published table"), (ours, "our table")):
        _check_columns(table, [*keys, MEAN], name)
    left = published[keys + [MEAN]].rename(columns={MEAN: PUBLISHED})
    right = ours[keys + [MEAN]].rename(columns={MEAN: OURS})
    left[by] = left[by].astype(float)
    right[by] = right[by].astype(float)
    out = left.merge(right, on=keys, how="inner")
    if out.empty:
        raise ConfigError("the published and our rank tables share no cell")
    out[PUBLISHED] = out[PUBLISHED].astype(float)
    out[OURS] = out[OURS].astype(float)
    out[DIFF] = out[OURS] - out[PUBLISHED]
    return out.sort_values(keys, kind="stable").reset_index(drop=True)


def constant_ranks(
    table: pd.DataFrame, *, by: str = BUDGET_PCT, groups: Sequence[str] = ()
) -> pd.DataFrame:
    """The constant-rank reproduction: every method at rank (m + 1) / 2.

    ``m`` is the number of methods of each (group, budget) block of ``table``;
    the result has the same cells, with ``mean`` replaced.

    Examples
    --------
    >>> t = pd.DataFrame({"budget_pct": [10, 10, 10], "method": list("ABC"),
    ...                   "mean": [1.0, 2.5, 2.5]})
    >>> constant_ranks(t)["mean"].tolist()
    [2.0, 2.0, 2.0]
    """
    out = table.copy()
    size = out.groupby([*groups, by])[METHOD].transform("size")
    out[MEAN] = (size.to_numpy(dtype=float) + 1.0) / 2.0
    return out


def best_methods(means: pd.Series) -> tuple[str, ...]:
    """Methods (index) whose mean rank is the lowest, ties included, sorted."""
    low = means.min()
    return tuple(sorted(means.index[np.isclose(means, low, rtol=0, atol=_TIE_ATOL)]))


def best_agreement(published_best: Sequence[str], ours_best: Sequence[str]) -> str:
    """``"agree"``, ``"tie"`` or ``"disagree"`` for two sets of best methods.

    Examples
    --------
    >>> best_agreement(["MaxCS"], ["MaxCS"]), best_agreement(["MaxCS"], ["MaxCS", "AF"])
    ('agree', 'tie')
    """
    p, o = set(published_best), set(ours_best)
    if p == o:
        return "agree"
    return "tie" if p & o else "disagree"


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return float("nan")  # undefined for a constant ranking
    from scipy.stats import spearmanr  # scipy.stats costs ~1 s to import

    return float(spearmanr(a, b).statistic)


def per_budget_agreement(
    cells: pd.DataFrame, *, by: str = BUDGET_PCT, groups: Sequence[str] = ()
) -> pd.DataFrame:
    """Per (group, budget): Spearman's rho, mean |diff|, best methods and outcome.

    Parameters
    ----------
    cells : DataFrame
        The cells both sides have, as :func:`side_by_side` returns them.
    by, groups
        The budget column and the group columns, as for :func:`side_by_side`.

    Returns
    -------
    DataFrame
        Columns ``groups..., by, n_methods, spearman, mean_abs_diff,
        published_best, ours_best, outcome``; ``spearman`` is NaN where a side
        ranks every method the same (the constant reproduction); the best
        columns hold ``/``-joined method names.
    """
    rows = []
    for key, block in cells.groupby([*groups, by], sort=True):
        p_best = best_methods(block.set_index(METHOD)[PUBLISHED])
        o_best = best_methods(block.set_index(METHOD)[OURS])
        rows.append(
            {
                **dict(zip([*groups, by], key)),
                "n_methods": len(block),
                SPEARMAN: _spearman(
                    block[PUBLISHED].to_numpy(), block[OURS].to_numpy()
                ),
                "mean_abs_diff": float(block[DIFF].abs().mean()),
                "published_best": "/".join(p_best),
                "ours_best": "/".join(o_best),
                OUTCOME: best_agreement(p_best, o_best),
            }
        )
    return pd.DataFrame(rows)


def agreement_summary(
    cells: pd.DataFrame, *, by: str = BUDGET_PCT, groups: Sequence[str] = ()
) -> pd.DataFrame:
    """Our table and the constant-rank floor, each summarised against the paper.

    The floor ranks the same cells: every method of a (group, budget) block
    at (m + 1) / 2 (:func:`constant_ranks`).

    Parameters
    ----------
    cells, by, groups
        As for :func:`per_budget_agreement`.

    Returns
    -------
    DataFrame
        One row per (group, ranks), ``ranks`` in ``("ours", "constant")``:
        ``n_budgets, mean_abs_diff`` (over all cells), ``spearman_mean``
        (mean over budgets where defined; NaN for the constant),
        ``best_agree, best_tie, best_disagree`` (budget counts).

    Examples
    --------
    >>> p = pd.DataFrame({"budget_pct": [10, 10], "method": ["A", "B"],
    ...                   "mean": [1.0, 2.0]})
    >>> s = agreement_summary(side_by_side(p, p.assign(mean=[1.25, 1.75])))
    >>> s[["ranks", "mean_abs_diff", "best_agree"]].values.tolist()
    [['ours', 0.25, 1], ['constant', 0.5, 0]]
    """
    floor = constant_ranks(cells.rename(columns={OURS: MEAN}), by=by, groups=groups)
    floor = cells.assign(**{OURS: floor[MEAN]})
    floor[DIFF] = floor[OURS] - floor[PUBLISHED]
    rows = []
    for name, compared in ((OURS, cells), (CONSTANT, floor)):
        per = per_budget_agreement(compared, by=by, groups=groups)
        per["abs"] = per["mean_abs_diff"] * per["n_methods"]
        for key, block in (
            per.groupby(list(groups), sort=True) if groups else [((), per)]
        ):
            counts = block[OUTCOME].value_counts()
            key = key if isinstance(key, tuple) else (key,)
            rows.append(
                {
                    **dict(zip(groups, key)),
                    RANKS: name,
                    "n_budgets": len(block),
                    "mean_abs_diff": float(
                        block["abs"].sum() / block["n_methods"].sum()
                    ),
                    "spearman_mean": float(block[SPEARMAN].mean())
                    if block[SPEARMAN].notna().any()
                    else float("nan"),
                    **{f"best_{o}": int(counts.get(o, 0)) for o in OUTCOMES},
                }
            )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- Table 3
def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def dataset_statistics_side_by_side(
    published: pd.DataFrame, ours: pd.DataFrame
) -> pd.DataFrame:
    """Table 3 of paper 000 beside our statistics of the same datasets.

    Parameters
    ----------
    published : DataFrame
        Table 3 cells: ``row, dataset, statistic, value`` with ``value`` as
        printed (a string, so its number of decimals is known), ``dataset``
        our dataset name or empty when there is no copy.
    ours : DataFrame
        One row per dataset: ``dataset, N, M, q, LC, LD, DC``.

    Returns
    -------
    DataFrame
        ``row, dataset, statistic, published, ours, differs``: ``ours`` rounded
        to the printed decimals of the cell; ``differs`` is True where they are
        not equal, NaN (missing) where we have no such dataset. Published rows
        without a dataset are kept with ``ours`` NaN.

    Examples
    --------
    >>> p = pd.DataFrame({"row": ["enron", "enron"], "dataset": ["enron"] * 2,
    ...                   "statistic": ["LC", "LD"], "value": ["5.31", "0.06"]})
    >>> o = pd.DataFrame({"dataset": ["enron"], "LC": [3.378], "LD": [0.0637]})
    >>> dataset_statistics_side_by_side(p, o)["differs"].tolist()
    [True, False]
    """
    _check_columns(published, ["row", DATASET, "statistic", "value"], "Table 3")
    _check_columns(ours, [DATASET], "our dataset statistics")
    long = ours.melt(id_vars=[DATASET], var_name="statistic", value_name=OURS)
    long = long[long["statistic"].isin(STATISTICS)]
    out = published[["row", DATASET, "statistic", "value"]].merge(
        long, on=[DATASET, "statistic"], how="left"
    )
    digits = out["value"].astype(str).map(_decimals)
    ours_rounded = [
        round(float(v), d) if pd.notna(v) else np.nan for v, d in zip(out[OURS], digits)
    ]
    out[OURS] = ours_rounded
    out[PUBLISHED] = out["value"].astype(float)
    differs = ~np.isclose(out[PUBLISHED], out[OURS], rtol=0, atol=1e-9)
    out["differs"] = pd.Series(differs, dtype="boolean").where(out[OURS].notna())
    return out[["row", DATASET, "statistic", PUBLISHED, OURS, "differs"]]


# ---------------------------------------------------------------- verdicts
@dataclass(frozen=True)
class Verdict:
    """A claim's verdict over the budgets the paper states it for.

    Attributes
    ----------
    verdict : str
        ``"agree"`` (holds at every stated budget), ``"partly"`` (holds at
        more than half of them), ``"tie"`` (never contradicted, but tied at
        some budget and so not holding at every one, nor at more than half),
        ``"disagree"`` (otherwise).
    holds, ties, fails : int
        Budget counts.
    """

    verdict: str
    holds: int
    ties: int
    fails: int

    @property
    def n_stated(self) -> int:
        """Number of budgets the claim was checked at."""
        return self.holds + self.ties + self.fails

    def text(self) -> str:
        """``"partly: holds at 5 of 9 stated budgets, tied at 1"``."""
        tail = f", tied at {self.ties}" if self.ties else ""
        counts = f"holds at {self.holds} of {self.n_stated} stated budgets"
        return f"{self.verdict}: {counts}{tail}"


def _outcome(value: object) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "holds" if value else "fails"
    if value in ("holds", "tie", "fails"):
        return str(value)
    raise ConfigError(
        f"a claim's outcome must be True/False or 'holds'/'tie'/'fails', got {value!r}"
    )


def verdict(outcomes: Iterable[object]) -> Verdict:
    """Verdict of a claim from its outcome at each stated budget.

    Rule: ``agree`` if it holds at every stated budget;
    ``partly`` if it holds at more than half of them; ``disagree`` otherwise.
    Ties are reported as ties: a tied budget does not count as holding, and a
    claim that fails nowhere but is tied somewhere (and so is neither agree nor
    partly) gets ``tie``.

    Parameters
    ----------
    outcomes : iterable
        One per stated budget: True/False or ``"holds"``, ``"tie"``, ``"fails"``.

    Raises
    ------
    ConfigError
        No outcome, or an outcome of another kind.

    Examples
    --------
    >>> verdict([True] * 9).verdict, verdict([True] * 5 + [False] * 4).verdict
    ('agree', 'partly')
    >>> verdict([False] * 9).verdict, verdict(["tie", "holds"]).verdict
    ('disagree', 'tie')
    """
    kinds = [_outcome(v) for v in outcomes]
    if not kinds:
        raise ConfigError("a claim needs at least one stated budget to be checked")
    holds, ties, fails = (kinds.count(k) for k in ("holds", "tie", "fails"))
    if holds == len(kinds):
        name = "agree"
    elif holds > len(kinds) / 2:
        name = "partly"
    elif fails == 0:
        name = "tie"
    else:
        name = "disagree"
    return Verdict(name, holds, ties, fails)


def best_outcome(means: Mapping[str, float] | pd.Series, claimed: str) -> str:
    """``"holds"`` if ``claimed`` alone has the lowest mean rank, ``"tie"`` if
    it shares the lowest, ``"fails"`` otherwise.

    Examples
    --------
    >>> best_outcome({"MaxCS": 2.0, "MeanCS": 2.0, "RoRCS": 3.0}, "MeanCS")
    'tie'
    """
    means = pd.Series(means, dtype=float)
    if claimed not in means.index:
        raise ConfigError(
            f"method {claimed!r} is not in the ranking {list(means.index)}"
        )
    best = best_methods(means)
    if claimed not in best:
        return "fails"
    return "holds" if len(best) == 1 else "tie"


def better_outcome(a: float, b: float) -> str:
    """``"holds"`` if rank ``a`` is lower (better) than ``b``, ``"tie"`` if equal.

    Examples
    --------
    >>> better_outcome(1.5, 2.0), better_outcome(2.0, 2.0), better_outcome(3.0, 2.0)
    ('holds', 'tie', 'fails')
    """
    if np.isclose(a, b, rtol=0, atol=_TIE_ATOL):
        return "tie"
    return "holds" if a < b else "fails"
