"""Why ``mlfs verify`` found a difference: changed plug-in code, an edited table.

A run folder records the code identity of the plug-ins it ran
(``environment.json``'s ``plugins``,
:func:`~mlfs_core.evaluation.runner.identity.code_records`).
:func:`code_changes` compares that record with the code found now, and
:func:`diagnose` sorts the differing values of a
:class:`~.verify.VerifyResult`: a value of a method, variant, metric or
classifier whose code changed is explained by that change; any other
differing or missing value means the stored table does not hold what its
code computes, that is, the table was edited (or the values do not
reproduce here). The verdict is one of ``"code"``, ``"table"``, ``"both"``
or None (nothing differs and no code changed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ....columns import METHOD, METRIC
from ..identity import code_records
from .verify import KEYS, LINE

_SHOWN_CELLS = 5
"""How many edited cells :func:`diagnose` names (the rest are counted)."""


@dataclass(frozen=True)
class CodeChange:
    """One plug-in whose code identity differs from the recorded one.

    Attributes
    ----------
    kind, name : str
        ``method``, ``variant``, ``binning``, ``classifier`` or ``metric``,
        and its name.
    file : str
        The plug-in file or module (as found now, else as recorded).
    old, new : str or None
        The recorded and the current digest (None: not recorded, not found
        now, or code without an identity).
    """

    kind: str
    name: str
    file: str
    old: str | None
    new: str | None

    def text(self) -> str:
        """``the code of plug-in method 'X' changed (file F, old digest D, ...)``."""

        def short(d):
            return "none" if d is None else d[:16]

        return (
            f"the code of plug-in {self.kind} {self.name!r} changed (file "
            f"{self.file or 'unknown'}, old digest {short(self.old)}, new digest "
            f"{short(self.new)})"
        )


def code_changes(recorded: list | None, config) -> list[CodeChange]:
    """The plug-ins of ``config`` whose code differs from ``recorded``.

    Parameters
    ----------
    recorded : list of dict or None
        What the run recorded
        (:func:`~mlfs_core.evaluation.runner.identity.code_records`); None
        when it recorded nothing (a folder written before the record existed): no
        change can be told then, and none is returned.
    config : ExperimentConfig
        The config, its plug-ins loaded (the code as it is now).

    Returns
    -------
    list of CodeChange
        In kind and name order; a plug-in recorded but not used now, or used
        now but not recorded, counts as changed.
    """
    if recorded is None:
        return []
    old = {(r.get("kind"), r.get("name")): r for r in recorded if isinstance(r, dict)}
    new = {(r["kind"], r["name"]): r for r in code_records(config)}
    out = []
    for key in sorted(set(old) | set(new), key=lambda k: (str(k[0]), str(k[1]))):
        a, b = old.get(key, {}), new.get(key, {})
        if a.get("digest") != b.get("digest") or not a or not b:
            file = b.get("file") or a.get("file") or ""
            out.append(
                CodeChange(
                    str(key[0]), str(key[1]), file, a.get("digest"), b.get("digest")
                )
            )
    return out


@dataclass(frozen=True)
class Diagnosis:
    """What :func:`diagnose` found.

    Attributes
    ----------
    verdict : {"code", "table", "both"} or None
    changes : list of CodeChange
    edited : DataFrame
        The differing values no code change explains (the comparison
        table's rows).
    lines : list of str
        The report, one line each.
    """

    verdict: str | None
    changes: list = field(default_factory=list)
    edited: object = None
    lines: list = field(default_factory=list)


def diagnose(result, changes: list[CodeChange], config, results_file: str) -> Diagnosis:
    """Sort ``result``'s differing values into code changes and table edits.

    Parameters
    ----------
    result : VerifyResult
    changes : list of CodeChange
        :func:`code_changes` of the recorded identities.
    config : ExperimentConfig
    results_file : str
        The stored table's file, for the message.

    Returns
    -------
    Diagnosis
        ``lines`` holds each code change's :meth:`CodeChange.text`, then,
        when values differ that no change explains, ``the table was edited
        (FILE, N cells: line L (dataset ..., metric ...: stored S,
        recomputed R), ...)``.
    """
    table = result.table
    differing = table[table["abs_diff"] != 0]
    explained = _explained(differing, changes, config)
    edited = differing[~explained]
    lines = [c.text() for c in changes]
    if len(edited):
        cells = [_cell(row) for _, row in edited.head(_SHOWN_CELLS).iterrows()]
        more = len(edited) - _SHOWN_CELLS
        listed = "; ".join(cells) + (f"; and {more} more" if more > 0 else "")
        lines.append(
            f"the table was edited ({results_file}, {len(edited)} "
            f"{'cells differ' if len(edited) != 1 else 'cell differs'} from what "
            f"the code computes: {listed})"
        )
    verdict = {
        (True, True): "both",
        (True, False): "code",
        (False, True): "table",
    }.get((bool(changes), bool(len(edited))))
    return Diagnosis(verdict, changes, edited, lines)


def _explained(differing, changes: list[CodeChange], config) -> np.ndarray:
    """Per differing row: whether a code change explains it."""
    kinds = {c.kind for c in changes}
    if "classifier" in kinds:
        return np.ones(len(differing), dtype=bool)
    names = {c.name for c in changes if c.kind == "method"}
    variants = {c.name for c in changes if c.kind == "variant"}
    binnings = {c.name for c in changes if c.kind == "binning"}
    labels = set()
    for m in config.methods:
        name, params = (m, {}) if isinstance(m, str) else (m.name, m.params or {})
        label = m if isinstance(m, str) else m.display
        if (
            name in names
            or f"{name}/{params.get('variant')}" in variants
            or not binnings.isdisjoint(_values(params.get("discretize")))
        ):
            labels.add(label)
    metrics = {c.name for c in changes if c.kind == "metric"}
    return (
        differing[METHOD].isin(labels).to_numpy()
        | differing[METRIC].isin(metrics).to_numpy()
    )


def _values(value) -> set:
    """An option's values: the grid's, or the one value (text only)."""
    values = value if isinstance(value, (list, tuple)) else [value]
    return {v for v in values if isinstance(v, str)}


def _cell(row) -> str:
    """One edited cell: its line and keys, the stored and recomputed values."""
    line = row[LINE]
    where = "no stored row" if pd.isna(line) else f"line {int(line)}"
    keys = ", ".join(f"{k} {row[k]}" for k in KEYS if k in row.index)
    return f"{where} ({keys}: stored {row['stored']}, recomputed {row['recomputed']})"
