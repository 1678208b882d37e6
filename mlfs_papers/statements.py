"""A paper's rank statements scored against a results table.

Paper 001 gives its results as sentences ("ATR ranks first on X for metric Y",
"ATR is inferior to Z on W"), typed into ``studies/paper001/statements.csv``
one row per (statement, dataset, method). The relations:

- ``rank``: ``method`` is at ``position`` (1 or 2) among the methods the paper
  ran on ``dataset`` for ``metric``;
- ``beats``: ``method`` is better than ``other`` on ``dataset`` for ``metric``;
- ``beats_count``: ``method`` is better than ``other`` on exactly ``count`` of
  the ``of`` datasets where both ran (datasets not named);
- ``dnf``: ``method`` did not finish on ``dataset`` (for every metric); such a
  method is left out of that dataset's ranking, as in the paper.

:func:`score_statements` gives each statement our outcome against a table of
per-dataset means (``dataset, method, metric, mean``, e.g.
:func:`mlfs_core.analysis.dataset_means`): ``"agree"``, ``"tie"`` (our values
tie where the statement orders, or our tied ranks span the stated position),
``"disagree"``, or ``"unscored"`` (``dnf``, a method or dataset missing from
our table, a count over datasets we do not all have). :func:`trivial_means`
builds the floor: the answer "``winner`` is best everywhere, the others tie".
:func:`reference_kappa` is Cohen's kappa between the paper and us on the
pairwise statements, read as "does the reference method win this cell?".
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from mlfs_core.columns import DATASET, MEAN, METHOD, METRIC
from mlfs_core.errors import ConfigError

RELATIONS = ("rank", "beats", "beats_count", "dnf")
SCORED = ("agree", "tie", "disagree")
OURS = "ours"
_ATOL = 1e-12


def _cell_statements(statements: pd.DataFrame) -> pd.DataFrame:
    unknown = set(statements["relation"]) - set(RELATIONS)
    if unknown:
        raise ConfigError(f"unknown statement relation(s) {sorted(unknown)}")
    return statements[statements["relation"].isin(["rank", "beats"])]


def find_contradictions(statements: pd.DataFrame) -> pd.Series:
    """Flag the statements the same paper contradicts in the same (metric, dataset).

    Contradictions: ``a beats b`` and ``b beats a``; ``X ranks 1`` and ``Y beats
    X`` or ``Y ranks 1`` (Y != X); ``X ranks 1`` and ``X ranks 2``; ``X ranks 2``
    and two or more other methods stated better than X.

    Returns
    -------
    Series of bool
        Aligned with ``statements``; True for every statement of a
        contradicting set.
    """
    flags = pd.Series(False, index=statements.index)
    cells = _cell_statements(statements)
    for _, cell in cells.groupby([METRIC, DATASET], sort=False):
        flags[_cell_contradictions(cell)] = True
    return flags


def _better_than(cell: pd.DataFrame, x: str) -> pd.DataFrame:
    """Statements placing some other method above ``x``."""
    beat = (cell["relation"] == "beats") & (cell["other"] == x)
    first = (
        (cell["relation"] == "rank")
        & (pd.to_numeric(cell["position"], errors="coerce") == 1.0)
    ) & (cell[METHOD] != x)
    return cell[beat | first]


def _cell_contradictions(cell: pd.DataFrame) -> list:
    bad: list = []
    position = pd.to_numeric(cell["position"], errors="coerce")
    for idx, row in cell.iterrows():
        if row["relation"] == "beats":
            back = cell[
                (cell["relation"] == "beats")
                & (cell[METHOD] == row["other"])
                & (cell["other"] == row[METHOD])
            ]
            bad += [idx, *back.index] if len(back) else []
            continue
        above = _better_than(cell, row[METHOD])
        other_pos = cell[
            (cell["relation"] == "rank")
            & (cell[METHOD] == row[METHOD])
            & (position != position[idx])
        ]
        allowed = position[idx] - 1
        if above[METHOD].nunique() > allowed or len(other_pos):
            bad += [idx, *above.index, *other_pos.index]
    return sorted(set(bad))


def _rank_span(
    values: pd.Series, method: str, higher_is_better: bool
) -> tuple[int, int]:
    v = values[method]
    close = np.isclose(values, v, rtol=0, atol=_ATOL)
    better = (values > v) if higher_is_better else (values < v)
    n_better = int((better & ~close).sum())
    return n_better + 1, n_better + int(close.sum())


def _order(a: float, b: float, higher_is_better: bool) -> str:
    if np.isclose(a, b, rtol=0, atol=_ATOL):
        return "tie"
    return "agree" if (a > b) == higher_is_better else "disagree"


def score_statements(
    statements: pd.DataFrame,
    means: pd.DataFrame,
    higher_is_better: Mapping[str, bool],
) -> pd.DataFrame:
    """Our outcome for every statement.

    Parameters
    ----------
    statements : DataFrame
        ``metric, dataset, method, relation, other, position, count, of`` (as
        in ``statements.csv``).
    means : DataFrame
        ``dataset, method, metric, mean``, one row per cell, metric names as
        in ``statements``.
    higher_is_better : mapping
        Metric name -> direction.

    Returns
    -------
    DataFrame
        ``statements`` with the column ``ours`` (``"agree"``, ``"tie"``,
        ``"disagree"``, ``"unscored"``).
    """
    for col in (DATASET, METHOD, METRIC, MEAN):
        if col not in means.columns:
            raise ConfigError(f"the means table lacks the column {col!r}")
    dnf = statements[statements["relation"] == "dnf"]
    dnf_pairs = set(zip(dnf[DATASET], dnf[METHOD]))
    keep = [(d, m) not in dnf_pairs for d, m in zip(means[DATASET], means[METHOD])]
    table = means[keep]
    cells = {
        key: block.set_index(METHOD)[MEAN].astype(float)
        for key, block in table.groupby([METRIC, DATASET], sort=False)
    }
    out = statements.copy()
    out[OURS] = [
        _score_one(row, cells, higher_is_better)
        for row in statements.to_dict("records")
    ]
    return out


def _score_one(row: dict, cells: dict, higher_is_better: Mapping[str, bool]) -> str:
    relation = row["relation"]
    if relation == "dnf":
        return "unscored"
    metric = row[METRIC]
    if metric not in higher_is_better:
        raise ConfigError(f"no direction given for the metric {metric!r}")
    hib = bool(higher_is_better[metric])
    if relation == "beats_count":
        return _score_count(row, cells, hib)
    values = cells.get((metric, row[DATASET]))
    method = row[METHOD]
    if values is None or method not in values.index:
        return "unscored"
    if relation == "beats":
        if row["other"] not in values.index:
            return "unscored"
        return _order(values[method], values[row["other"]], hib)
    lo, hi = _rank_span(values, method, hib)
    position = int(float(row["position"]))
    if lo == hi == position:
        return "agree"
    return "tie" if lo <= position <= hi else "disagree"


def _score_count(row: dict, cells: dict, hib: bool) -> str:
    a, b = row[METHOD], row["other"]
    outcomes = [
        _order(values[a], values[b], hib)
        for (metric, _), values in cells.items()
        if metric == row[METRIC] and a in values.index and b in values.index
    ]
    if len(outcomes) != int(float(row["of"])):
        return "unscored"  # we do not have every dataset the count is over
    wins, ties = outcomes.count("agree"), outcomes.count("tie")
    count = int(float(row["count"]))
    if wins == count and ties == 0:
        return "agree"
    return "tie" if wins <= count <= wins + ties else "disagree"


def trivial_means(
    means: pd.DataFrame, higher_is_better: Mapping[str, bool], *, winner: str = "ATR"
) -> pd.DataFrame:
    """The trivial answer: ``winner`` best on every cell, every other method tied.

    Same cells as ``means`` (only ``mean`` changes: 1 for the winner and 0 for
    the rest, or the reverse for a metric where lower is better).
    """
    out = means.copy()
    is_winner = out[METHOD] == winner
    hib = out[METRIC].map(lambda m: bool(higher_is_better[m]))
    out[MEAN] = np.where(is_winner == hib, 1.0, 0.0)
    return out


def statement_agreement(scored: pd.DataFrame, *, by: str = "relation") -> pd.DataFrame:
    """Counts of our outcomes per ``by`` group (and ``"all"``) with the agree share.

    Returns
    -------
    DataFrame
        ``<by>, n_scored, agree, tie, disagree, unscored, share_agree``
        (``agree / n_scored``, ties counted as not agreeing).
    """
    if OURS not in scored.columns:
        raise ConfigError("score the statements first (score_statements)")
    groups = [*scored.groupby(by, sort=True), ("all", scored)]
    rows = []
    for key, block in groups:
        counts = block[OURS].value_counts()
        n = int(sum(counts.get(o, 0) for o in SCORED))
        rows.append(
            {
                by: key,
                "n_scored": n,
                **{o: int(counts.get(o, 0)) for o in (*SCORED, "unscored")},
                "share_agree": counts.get("agree", 0) / n if n else float("nan"),
            }
        )
    return pd.DataFrame(rows)


def cohen_kappa(a, b) -> float:
    """Cohen's kappa of two raters' labels on the same items.

    ``(p_o - p_e) / (1 - p_e)`` with ``p_o`` the observed agreement and ``p_e``
    the agreement expected from the two raters' label frequencies; NaN when
    ``p_e == 1`` (both raters give one and the same label to every item).

    Examples
    --------
    >>> cohen_kappa([1, 1, 0, 0], [1, 0, 0, 0])
    0.5
    """
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.ndim != 1 or a.size == 0:
        raise ConfigError("Cohen's kappa needs two equal-length, non-empty label lists")
    labels = np.union1d(a, b)
    pa = np.array([(a == v).mean() for v in labels])
    pb = np.array([(b == v).mean() for v in labels])
    p_o = float((a == b).mean())
    p_e = float(pa @ pb)
    if np.isclose(p_e, 1.0):
        return float("nan")
    return (p_o - p_e) / (1.0 - p_e)


def reference_kappa(scored: pd.DataFrame, *, reference: str = "ATR") -> dict:
    """Kappa between the paper and us on "does ``reference`` win this cell?".

    Uses the scored ``beats`` statements that involve ``reference``; the paper's
    label is whether the statement has ``reference`` winning, ours is the same
    label if we agree and the other if we disagree. Cells where we tie or that
    are unscored are left out (counted in ``n_tied`` / ``n_unscored``).

    Returns
    -------
    dict
        ``kappa, n, n_tied, n_unscored, paper_share_reference_wins``.
    """
    beats = scored[
        (scored["relation"] == "beats")
        & ((scored[METHOD] == reference) | (scored["other"] == reference))
    ]
    used = beats[beats[OURS].isin(["agree", "disagree"])]
    paper = (used[METHOD] == reference).to_numpy()
    ours = np.where(used[OURS] == "agree", paper, ~paper)
    return {
        "kappa": cohen_kappa(paper, ours) if len(used) else float("nan"),
        "n": int(len(used)),
        "n_tied": int((beats[OURS] == "tie").sum()),
        "n_unscored": int((beats[OURS] == "unscored").sum()),
        "paper_share_reference_wins": float(paper.mean())
        if len(used)
        else float("nan"),
    }
