"""Formulas as people read them: Σ, −, ≠, ≤, subscripts (not ``sum_{i<j}``).

The engine names its terms in the plain ASCII notation of METHODS.md
(``R(f) - sum_{i<j} I(f; l_i; l_j)``). What the Learn pages show (chart
legends, table headers, the formulas) goes through :func:`readable` once, so
every place writes the same ``R(f) − Σᵢ<ⱼ I(f; lᵢ; lⱼ)``. :func:`term_role`
names a greedy criterion's term by what it measures (relevance, label
interaction, redundancy), as METHODS.md section 4 describes the criteria.
"""

from __future__ import annotations

import re

_SUB = str.maketrans("ijsqkPp", "ᵢⱼₛqₖₚₚ")
"""Letters with a Unicode subscript form (``q`` has none and stays)."""

_RULES: tuple[tuple[str, str], ...] = (
    # sums and maxima with their range: Σ with subscript indices
    (r"sum_\{([ij])\s*<\s*([ij])\}", "Σ{\\1}<{\\2}"),
    (r"sum_\{([ij])\s*!=\s*([ij])\}", "Σ{\\1}≠{\\2}"),
    (r"max_\{([ij])\s*!=\s*([ij])\}", "max{\\1}≠{\\2}"),
    (r"sum_([ijs])\b", "Σ{\\1}"),
    (r"(max|mean)_([ij])\b", "\\1{\\2}"),
    # indexed names: l_i, f_P, Y_P, score_j
    (r"\b([lfY]|score)_([ijP])\b", "\\1{\\2}"),
    # operators
    (r"!=", "≠"),
    (r"<=", "≤"),
    (r">=", "≥"),
    (r"\^-1", "⁻¹"),
    (r"\^2", "²"),
    (r"(?<=\s)\*(?=\s)", "·"),
    (r"(^|(?<=[\s(\[]))-(?=[\s(\[A-Za-z0-9])", "−"),
)


def readable(text: str) -> str:
    """``text`` in readable Unicode math: Σ with subscripts, −, ≠, ≤, ⁻¹, ².

    Parameters
    ----------
    text : str
        A formula in METHODS.md's ASCII notation.

    Returns
    -------
    str
        The same formula with ``sum_i`` as ``Σᵢ``, ``sum_{i<j}`` as ``Σᵢ<ⱼ``,
        ``l_i`` as ``lᵢ``, ``!=`` as ``≠``, a minus sign for ``-`` and so on.
        Hyphens inside words (``label-set``) stay.

    Examples
    --------
    >>> readable("R(f) - sum_{i<j} I(f; l_i; l_j) - sum_s sum_i I(f; s; l_i)")
    'R(f) − Σᵢ<ⱼ I(f; lᵢ; lⱼ) − Σₛ Σᵢ I(f; s; lᵢ)'
    >>> readable("BNS = | F^-1(tpr) - F^-1(fpr) |")
    'BNS = | F⁻¹(tpr) − F⁻¹(fpr) |'
    """
    out = text
    for pattern, repl in _RULES:
        out = re.sub(pattern, repl, out)
    # {x} marks a subscript made by the rules above
    return re.sub(r"\{([A-Za-z])\}", lambda m: m.group(1).translate(_SUB), out)


_ROLES: tuple[tuple[str, str], ...] = (
    ("sum_s", "redundancy"),
    ("relevance R(f) / q", "relevance / q"),
    ("transformed relevance", "PPT relevance"),
    ("I(f_P; Y_P)", "PPT relevance"),
    ("relevance R(f)", "relevance"),
    ("I(f; L)", "label-set relevance"),
    ("label pairs", "label interaction"),
    ("sum_{i<j} I(f; l_i; l_j)", "label interaction"),
    ("max(0, I(f; l_i; l_j))", "label redundancy"),
    ("max_{i != j} I(f; l_i | l_j)", "best conditional relevance"),
    ("I(f; l_i | l_j)", "conditional relevance"),
)
"""Term formula (a part of it) -> what the term measures, first match wins."""


def term_role(term: str) -> str | None:
    """What a greedy criterion's term measures, from its formula.

    Parameters
    ----------
    term : str
        A term name of :attr:`mlfs_core.explain.GreedySteps.terms` (its formula
        in METHODS.md notation).

    Returns
    -------
    str or None
        ``"relevance"``, ``"label interaction"``, ``"redundancy"`` ... (None
        for a term this module does not know, e.g. a plug-in's).

    Examples
    --------
    >>> term_role("- sum_s sum_i I(f; s; l_i)")
    'redundancy'
    >>> term_role("relevance R(f) = sum_i I(f; l_i)")
    'relevance'
    """
    for part, role in _ROLES:
        if part in term:
            return role
    return None


def term_names(terms: list[str]) -> list[str]:
    """Column titles of greedy terms: each term's role, numbered if two share one.

    A term without a known role is called ``term 2`` (its position).

    Examples
    --------
    >>> term_names(["relevance R(f) = sum_i I(f; l_i)", "- sum_s I(f; s)"])
    ['relevance', 'redundancy']
    """
    roles = [term_role(t) or f"term {i}" for i, t in enumerate(terms, start=1)]
    return [
        f"{r} ({roles[:i].count(r) + 1})" if roles.count(r) > 1 else r
        for i, r in enumerate(roles)
    ]
