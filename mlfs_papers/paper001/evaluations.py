"""Paper 001's statements and "ATR performs best" under several evaluations.

An *evaluation* is one way of scoring protocol B: ``"definition"`` (our
definition-faithful metrics), ``"reference-code"`` (the ATR authors' four
conventions, :mod:`mlfs_papers.paper001.conventions`) or one convention alone
(:meth:`mlfs_papers.paper001.conventions.Conventions.label`, e.g.
``"mlknn"``). Inputs are per-dataset means with paper 001's metric names
(``hamming_loss, ranking_loss, coverage_error, f1, jaccard, accuracy``).

- :func:`evaluation_agreement`: the statements scored against one evaluation's
  means, the trivial floor ("ATR best everywhere, the rest tie"), Cohen's kappa
  on the pairwise cells and the "ATR ranks first" statements.
- :func:`reference_best`: "ATR performs best" checked: in how many (dataset,
  metric) cells ATR ranks first among the methods, and its average rank.
- :func:`convention_effects`: both of the above for every evaluation of a
  long table, on the datasets all of them have, with the change of ATR's
  average rank against the baseline; :func:`moves_most` names the single
  convention that moves ATR most.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mlfs_core.columns import DATASET, METHOD, RANK
from mlfs_core.errors import ConfigError

from ..means import within_dataset_ranks
from ..statements import (
    OURS,
    reference_kappa,
    score_statements,
    statement_agreement,
    trivial_means,
)

EVALUATION = "evaluation"
BASELINE = "definition"
FULL = "reference-code"


@dataclass(frozen=True)
class EvaluationAgreement:
    """One evaluation's means against the paper's statements.

    Attributes
    ----------
    scored : DataFrame
        The statements with our outcome (``ours``).
    by_relation, floor_by_relation : DataFrame
        :func:`~mlfs_papers.statements.statement_agreement` of ours
        and of the trivial floor (last row ``"all"``).
    kappa : dict
        :func:`~mlfs_papers.statements.reference_kappa`.
    first_scored, first_agree : int
        "``reference`` ranks first" statements scored, and agreeing.
    """

    scored: pd.DataFrame
    by_relation: pd.DataFrame
    floor_by_relation: pd.DataFrame
    kappa: dict
    first_scored: int
    first_agree: int

    def summary(self) -> dict:
        """``n_scored, agree, tie, disagree, share_agree, floor_share, kappa,
        n_pairs, first_scored, first_agree``."""
        total, floor = self.by_relation.iloc[-1], self.floor_by_relation.iloc[-1]
        return {
            "n_scored": int(total["n_scored"]),
            "agree": int(total["agree"]),
            "tie": int(total["tie"]),
            "disagree": int(total["disagree"]),
            "share_agree": float(total["share_agree"]),
            "floor_share": float(floor["share_agree"]),
            "kappa": float(self.kappa["kappa"]),
            "n_pairs": int(self.kappa["n"]),
            "first_scored": self.first_scored,
            "first_agree": self.first_agree,
        }


def evaluation_agreement(
    statements: pd.DataFrame,
    means: pd.DataFrame,
    higher_is_better: Mapping[str, bool],
    *,
    reference: str = "ATR",
) -> EvaluationAgreement:
    """The statements scored against ``means``, with the floor and kappa.

    Parameters
    ----------
    statements : DataFrame
        As in ``studies/paper001/statements.csv``.
    means : DataFrame
        ``dataset, method, metric, mean`` with the statements' metric names.
    higher_is_better : mapping
        Metric name -> direction.
    reference : str, default="ATR"
        The method the floor puts first and the kappa asks about.
    """
    scored = score_statements(statements, means, higher_is_better)
    trivial = trivial_means(means, higher_is_better, winner=reference)
    floor = score_statements(statements, trivial, higher_is_better)
    first = scored[
        (scored["relation"] == "rank")
        & (scored[METHOD] == reference)
        & (scored["position"].astype(str) == "1")
    ]
    return EvaluationAgreement(
        scored,
        statement_agreement(scored),
        statement_agreement(floor),
        reference_kappa(scored, reference=reference),
        int(first[OURS].isin(["agree", "tie", "disagree"]).sum()),
        int((first[OURS] == "agree").sum()),
    )


def reference_best(
    means: pd.DataFrame,
    methods: Sequence[str],
    higher_is_better: Mapping[str, bool],
    *,
    reference: str = "ATR",
) -> dict:
    """ "``reference`` performs best", checked over every (dataset, metric) cell.

    Returns
    -------
    dict
        ``n_cells`` (cells where ``reference`` has a mean), ``n_best`` (of
        those, where it ranks first alone or in a tie at rank 1.0; a shared
        first place averages to more than 1 and is not counted), ``avg_rank``
        (its mean rank over the cells), ``best_method`` and ``best_avg_rank``
        (the method with the lowest mean rank).

    Examples
    --------
    >>> t = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "metric": ["f1"] * 4,
    ...                   "method": ["ATR", "X"] * 2, "mean": [0.9, 0.5, 0.1, 0.5]})
    >>> r = reference_best(t, ["ATR", "X"], {"f1": True})
    >>> r["n_best"], r["n_cells"], r["avg_rank"]
    (1, 2, 1.5)
    """
    if reference not in methods:
        raise ConfigError(f"{reference!r} is not among the methods {list(methods)}")
    ranked = within_dataset_ranks(means, methods, higher_is_better=higher_is_better)
    mine = ranked[ranked[METHOD] == reference]
    avg = ranked.groupby(METHOD)[RANK].mean().sort_values(kind="stable")
    return {
        "n_cells": int(len(mine)),
        "n_best": int((mine[RANK] <= 1.0).sum()),
        "avg_rank": float(mine[RANK].mean()) if len(mine) else float("nan"),
        "best_method": str(avg.index[0]) if len(avg) else "",
        "best_avg_rank": float(avg.iloc[0]) if len(avg) else float("nan"),
    }


def convention_effects(
    means: pd.DataFrame,
    statements: pd.DataFrame,
    higher_is_better: Mapping[str, bool],
    methods: Sequence[str],
    *,
    reference: str = "ATR",
    baseline: str = BASELINE,
) -> pd.DataFrame:
    """Every evaluation of ``means``: agreement with the paper and ATR's rank.

    Parameters
    ----------
    means : DataFrame
        ``evaluation, dataset, method, metric, mean`` (paper 001's metric
        names); only the datasets every evaluation has are used.
    statements, higher_is_better
        As for :func:`evaluation_agreement`.
    methods : sequence of str
        The methods ranked against each other (the paper's ten).
    baseline : str, default="definition"
        The evaluation the change of ATR's average rank is measured from.

    Returns
    -------
    DataFrame
        One row per evaluation (in order of appearance): ``evaluation,
        n_datasets``, the :meth:`EvaluationAgreement.summary` columns, the
        :func:`reference_best` columns and ``rank_change`` (ATR's average rank
        minus the baseline's; negative = ATR moves up; NaN without baseline).

    Raises
    ------
    ConfigError
        No column ``evaluation``, or no dataset common to every evaluation.
    """
    if EVALUATION not in means.columns:
        raise ConfigError("the means table lacks the column 'evaluation'")
    names = list(dict.fromkeys(means[EVALUATION]))
    common = set.intersection(
        *(set(means.loc[means[EVALUATION] == e, DATASET]) for e in names)
    )
    if not common:
        raise ConfigError(f"the evaluations {names} have no dataset in common")
    rows = []
    for name in names:
        sub = means[(means[EVALUATION] == name) & means[DATASET].isin(common)]
        agreement = evaluation_agreement(
            statements, sub, higher_is_better, reference=reference
        )
        best = reference_best(sub, methods, higher_is_better, reference=reference)
        rows.append(
            {
                EVALUATION: name,
                "n_datasets": len(common),
                **agreement.summary(),
                **best,
            }
        )
    out = pd.DataFrame(rows)
    base = out.loc[out[EVALUATION] == baseline, "avg_rank"]
    out["rank_change"] = out["avg_rank"] - (base.iloc[0] if len(base) else np.nan)
    return out


def moves_most(
    effects: pd.DataFrame, *, baseline: str = BASELINE, full: str = FULL
) -> str | None:
    """The single convention whose evaluation moves ATR's average rank most.

    Among the rows of :func:`convention_effects` other than ``baseline`` and
    ``full`` (all conventions at once); None if there is none or no change is
    defined. Ties are broken by the order of the rows.

    Examples
    --------
    >>> e = pd.DataFrame({"evaluation": ["definition", "mlknn", "split"],
    ...                   "rank_change": [0.0, -0.5, 1.25]})
    >>> moves_most(e)
    'split'
    """
    single = effects[~effects[EVALUATION].isin([baseline, full])]
    change = single["rank_change"].abs()
    if change.notna().sum() == 0:
        return None
    return str(single.loc[change.idxmax(), EVALUATION])
