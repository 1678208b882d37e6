"""Paper 001 under the ATR authors' evaluation, and under each of its conventions alone.

Part of :mod:`studies.report` (see there). The definition-faithful evaluation is
``configs/study_paper001.toml``; the ATR authors' evaluation (``evaluation =
"reference-code"``) is ``configs/study_paper001-ref.toml``; one convention alone
(``evaluation = "mlknn"`` etc., see
:class:`~mlfs_papers.paper001.conventions.Conventions`) is
``configs/study_<CONVENTION_STUDIES[name]>.toml``. A study without a config or
without current-engine data shows as pending. The analysis is
:mod:`mlfs_papers.paper001.evaluations`.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlfs_core.columns import DATASET, METRIC
from mlfs_core.evaluation import METRICS
from mlfs_papers.paper001.conventions import REFERENCE_METRICS
from mlfs_papers.paper001.evaluations import (
    EVALUATION,
    convention_effects,
    evaluation_agreement,
    moves_most,
    reference_best,
)

from .data import (
    IT_METHODS,
    PAPER001_METRICS,
    REFERENCE_PAPER001_METRICS,
    VARIANTS,
    load_statements,
    load_study,
    paper001_tables,
    variant_means,
)
from .markdown import block, md_table
from .status import status_section

REFERENCE_STUDY = "paper001-ref"
# Conventions field -> the study that runs protocol B with that convention alone.
CONVENTION_STUDIES = {
    "split": "paper001-ref-split",
    "mlknn": "paper001-ref-mlknn",
    "ranking_on_predictions": "paper001-ref-ranking",
    "weighted_and_drop": "paper001-ref-weighted",
}
_DIRECTIONS = {**METRICS, **REFERENCE_METRICS}
HIGHER_IS_BETTER = {
    paper: _DIRECTIONS[ours].higher_is_better
    for paper, ours in PAPER001_METRICS.items()
}


def paper_means(means: pd.DataFrame, variant: str = "definition") -> pd.DataFrame:
    """Means with paper 001's metric names; F1 and Jaccard read as the weighted
    ones where the evaluation computed them (the reference code's).
    """
    weighted = "weighted_f1" in set(means[METRIC])
    metrics = REFERENCE_PAPER001_METRICS if weighted else PAPER001_METRICS
    return variant_means(means, variant, metrics)


def _study_means(study: str, root: Path) -> pd.DataFrame | None:
    if not (root / "configs" / f"study_{study}.toml").is_file():
        return None
    data = load_study(study, root=root)
    return paper001_tables(data["results"]) if "results" in data else None


def _row(evaluation: str, variant: str, means: pd.DataFrame, statements) -> dict:
    ours = paper_means(means, variant)
    total = evaluation_agreement(statements, ours, HIGHER_IS_BETTER).summary()
    best = reference_best(ours, IT_METHODS, HIGHER_IS_BETTER)
    return {
        "evaluation": evaluation,
        "PMU/MDMR": variant,
        "datasets": ours[DATASET].nunique(),
        "scored": total["n_scored"],
        "agree share": total["share_agree"],
        "floor share": total["floor_share"],
        "kappa": total["kappa"],
        "ATR first: agree": f"{total['first_agree']} of {total['first_scored']}",
        "ATR best (cells)": f"{best['n_best']} of {best['n_cells']}",
        "ATR avg rank": best["avg_rank"],
        "best avg rank": f"{best['best_method']} ({best['best_avg_rank']:.2f})",
    }


def _reference_status(root: Path) -> tuple[list[str], pd.DataFrame | None]:
    config = root / "configs" / f"study_{REFERENCE_STUDY}.toml"
    if not config.is_file():
        return [
            f"**Pending:** `configs/study_{REFERENCE_STUDY}.toml` (protocol B with "
            '`evaluation = "reference-code"`) does not exist yet; the '
            "reference-code rows appear once it has run.",
            "",
        ], None
    data = load_study(REFERENCE_STUDY, root=root)
    lines = status_section(REFERENCE_STUDY, data, root)
    if "results" not in data:
        lines += [
            "**Pending:** no dataset of the reference-code study is done with this "
            "engine yet.",
            "",
        ]
        return lines, None
    return lines, paper001_tables(data["results"])


def _evaluations(means: pd.DataFrame, root: Path):
    """The reference study's status lines and means (None without data), and
    each evaluation's means on the datasets both evaluations have."""
    status, reference = _reference_status(root)
    evaluations = {"definition": means}
    if reference is not None:
        common = set(means[DATASET]) & set(reference[DATASET])
        evaluations = {
            "definition": means[means[DATASET].isin(common)],
            "reference-code": reference[reference[DATASET].isin(common)],
        }
    return status, reference, evaluations


def evaluations_section(means: pd.DataFrame, root: Path) -> list[str]:
    """Statements, floor, kappa and 'ATR performs best' per evaluation; the
    convention that moves ATR most.
    """
    statements = load_statements(root)
    status, reference, evaluations = _evaluations(means, root)
    rows = [
        _row(name, variant, table, statements)
        for name, table in evaluations.items()
        if len(table)
        for variant in VARIANTS
    ]
    intro = (
        "Paper 001's statements and its claim 'ATR performs best' under our "
        "definition-faithful evaluation (`configs/study_paper001.toml`) and under "
        "the ATR authors' own (`configs/study_paper001-ref.toml`: Mulan's "
        "predefined splits, scikit-multilearn's ML-kNN, ranking loss and coverage "
        "on the 0/1 predictions, weighted F1 and Jaccard with labels constant in "
        "the training or test part dropped), on the datasets both have. *ATR best "
        "(cells)*: the (dataset, metric) cells, over the paper's six metrics, "
        "where ATR ranks first among the ten (a shared first place does not "
        "count); *floor*: the share a trivial 'ATR is best everywhere' scores; "
        "*kappa*: Cohen's kappa on 'does ATR beat this method here?'."
    )
    lines = [
        "### Paper 001's claims under both evaluations",
        "",
        intro,
        "",
        f"**Reference-code evaluation, `configs/study_{REFERENCE_STUDY}.toml`:**",
        "",
        *status,
    ]
    if rows:
        lines += [md_table(pd.DataFrame(rows), "{:.2f}"), ""]
    return lines + conventions_section(means, reference, statements, root)


def _found_conventions(root: Path) -> dict[str, pd.DataFrame]:
    """Convention name -> its study's means, for the studies with data."""
    return {
        name: table
        for name, study in CONVENTION_STUDIES.items()
        if (table := _study_means(study, root)) is not None
    }


def _effects(tables: dict[str, pd.DataFrame], statements) -> pd.DataFrame:
    long = pd.concat(
        [paper_means(t).assign(**{EVALUATION: name}) for name, t in tables.items()],
        ignore_index=True,
    )
    return convention_effects(long, statements, HIGHER_IS_BETTER, IT_METHODS)


def _lacking(tables: dict[str, pd.DataFrame]) -> dict[str, list[str]]:
    """Each dataset some of ``tables`` lack -> the names of the tables lacking it
    (sorted by dataset; empty when every table has the same datasets)."""
    every = set.union(*(set(t[DATASET]) for t in tables.values()))
    common = set.intersection(*(set(t[DATASET]) for t in tables.values()))
    return {
        d: [name for name, t in tables.items() if d not in set(t[DATASET])]
        for d in sorted(every - common)
    }


def conventions_section(
    means: pd.DataFrame,
    reference: pd.DataFrame | None,
    statements: pd.DataFrame,
    root: Path,
) -> list[str]:
    """Which of the four conventions, alone, moves ATR most (or pending)."""
    title = "#### Which convention moves ATR most (one at a time)"
    found = _found_conventions(root)
    if not found:
        studies = ", ".join(f"`{s}`" for s in CONVENTION_STUDIES.values())
        return block(
            title,
            "**Pending:** needs protocol B run with each of the four conventions "
            'alone (`evaluation = "split"`, `"mlknn"`, `"ranking_on_predictions"`, '
            '`"weighted_and_drop"`; see '
            "`mlfs_papers/paper001/conventions.py`), as the studies "
            f"{studies}; none has current-engine data yet. Each will give ATR's "
            "average rank under that convention against the definition's, and the "
            "statements' agreement.",
        )
    tables = {"definition": means, **found}
    if reference is not None:
        tables["reference-code"] = reference
    effects = _effects(tables, statements)
    most = moves_most(effects)
    shown = effects[
        [EVALUATION, "n_datasets", "avg_rank", "rank_change", "n_best", "n_cells"]
        + ["share_agree", "floor_share", "kappa"]
    ]
    missing = [n for n in CONVENTION_STUDIES if n not in found]
    lacking = _lacking(tables)
    sentence = (
        f"Alone, **{most}** moves ATR most: average rank "
        f"{effects.set_index(EVALUATION).loc[most, 'avg_rank']:.2f} against "
        f"{effects.set_index(EVALUATION).loc['definition', 'avg_rank']:.2f} under "
        "the definition (PMU/MDMR as defined; negative change = ATR moves up)."
        if most
        else "No single convention has data yet."
    )
    if missing:
        sentence += " Pending: " + ", ".join(missing) + "."
    if lacking:
        sentence += (
            " Only the datasets every evaluation has are compared; not yet "
            + (
                "; ".join(
                    f"{d} under {', '.join(names)}" for d, names in lacking.items()
                )
            )
            + "."
        )
    return block(title, md_table(shown, "{:.2f}"), sentence, "")


def evaluation_summary(means: pd.DataFrame, root: Path) -> list[str]:
    """The summary's line: statements and 'ATR best' under each evaluation."""
    statements = load_statements(root)
    _, reference, tables = _evaluations(means, root)
    parts = []
    for name, table in tables.items():
        row = _row(name, "definition", table, statements)
        parts.append(
            f"{name} evaluation ({row['datasets']} datasets): agree share "
            f"{row['agree share']:.2f} of {row['scored']} statements (trivial floor "
            f"{row['floor share']:.2f}), kappa {row['kappa']:.2f}, ATR first in "
            f"{row['ATR best (cells)']} (dataset, metric) cells"
        )
    lines = []
    moved = _most_moving(means, statements, root)
    if moved:
        lines = [moved, ""]
    if reference is None:
        parts.append("reference-code evaluation: pending")
    else:  # the authors' whole setting: their evaluation and their baselines
        row = _row(
            "reference-code", "reference-code", tables["reference-code"], statements
        )
        lines += [
            "The authors' whole setting (their evaluation and their PMU/MDMR code): "
            f"agree share {row['agree share']:.2f} of {row['scored']} (floor "
            f"{row['floor share']:.2f}), kappa {row['kappa']:.2f}, ATR average rank "
            f"{row['ATR avg rank']:.2f}, best average rank {row['best avg rank']}.",
            "",
        ]
    return [
        "Paper 001's statements (PMU/MDMR as defined): " + "; ".join(parts) + ".",
        "",
        *lines,
    ]


def _most_moving(means, statements, root: Path) -> str | None:
    """The summary's sentence on the convention that alone moves ATR most."""
    found = _found_conventions(root)
    if not found:
        return None
    effects = _effects({"definition": means, **found}, statements)
    most = moves_most(effects)
    if not most:
        return None
    ranks = effects.set_index(EVALUATION)["avg_rank"]
    others = ", ".join(f"{name} {ranks[name]:.2f}" for name in found if name != most)
    return (
        f"One convention of theirs at a time ({len(found)} of 4 run, on "
        f"{int(effects['n_datasets'].iloc[0])} datasets): **{most}** moves ATR "
        f"most, average rank {ranks[most]:.2f} against {ranks['definition']:.2f} "
        f"under ours (others: {others})."
    )
