"""The criteria of the ten greedy filters as data: a static term and a redundancy rule.

Every criterion has the form ``J(f | S) = combine(static(f), sum_s red(f, s), |S|)``
where ``static`` does not depend on S and ``red(f, s)`` is one of three
incremental terms of the newly selected feature ``s`` (see
:data:`REDUNDANCY`). The greedy engine in :mod:`mlfs_core.selectors.greedy`
keeps the running sum of ``red`` over S; the definitions are those of
METHODS.md section 4 (R(f) = sum_i I(f; l_i)). A variant of a criterion
(:func:`mlfs_core.selectors.greedy.register_variant`) is one more
:class:`Criterion` built from the same parts: the terms (:data:`RELEVANCE`,
the label-pair terms of :meth:`Context.pair`), a key of :data:`REDUNDANCY` and
one of :data:`COMBINATIONS`.

Cost of a top-k run (notation of :mod:`mlfs_core.selectors.it`): the
relevance pass O(nnz LC + M b q); the static term (PPT-MI, IGMF, ATR:
O(nnz + N q) more; PMU, LRFS: :mod:`.pairs_sparse`; LSMFS, MLSMFS:
:mod:`.pair_folds`); then k - 1 redundancy updates of :mod:`.terms`, each
O(nnz_s + M b + |O| b b_s) for I(f; s), O the features sharing a non-mode
sample with s, and O(nnz_s LC + E_O + G_O + K_m + G + (X + U_O) q) more
with the label triples (PMU, D2F, MDMR; :mod:`.triples`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .data import DiscreteProblem
from .pair_folds import positive_interaction_sum
from .pair_max import max_conditional_sparse
from .pairs import conditional_sum, interaction_sum
from .ppt import igmf_gain, label_powerset, ppt_information
from .terms import Statics, StepTerms, compute_statics, step_terms

PAIR_TERMS: dict[str, Callable[[DiscreteProblem, Statics], np.ndarray]] = {
    "interaction_sum": interaction_sum,
    "cmi_sum": conditional_sum,
    "positive_interaction_sum": positive_interaction_sum,
    "cmi_max": max_conditional_sparse,
}
"""The label-pair terms :meth:`Context.pair` computes, by name: sum_{i<j}
I(f; l_i; l_j), sum_{i != j} I(f; l_i | l_j), sum_{i != j} max(0, I(f; l_i;
l_j)) and max_{i != j} I(f; l_i | l_j), each of shape (n_features,)."""


@dataclass
class Context:
    """Lazily computed static quantities of one ranking run (never shared)."""

    problem: DiscreteProblem
    labels: np.ndarray  # dense 0/1 labels, for the label powerset
    tau: int
    _cache: dict = field(default_factory=dict, repr=False)

    @cached_property
    def statics(self) -> Statics:
        """H(f), H(l_i), sum_i H(f, l_i) and R(f)."""
        return compute_statics(self.problem)

    @cached_property
    def classes(self) -> np.ndarray:
        """Label-powerset class of every sample."""
        return label_powerset(self.labels)

    def pair(self, reducer: str) -> np.ndarray:
        """The label-pair term ``reducer`` of :data:`PAIR_TERMS`, computed once."""
        if reducer not in self._cache:
            self._cache[reducer] = PAIR_TERMS[reducer](self.problem, self.statics)
        return self._cache[reducer]


def _mi(ctx: Context, t: StepTerms) -> np.ndarray:
    """I(f; s) = H(f) + H(s) - H(f, s)."""
    return ctx.statics.h_f + t.h_s - t.h_fs


def _interaction_sum(ctx: Context, t: StepTerms) -> np.ndarray:
    """sum_i I(f; s; l_i) = q I(f; s) - sum_i I(f; s | l_i)."""
    st = ctx.statics
    cmi = st.h_fl_sum + t.h_sl_sum - t.h_fsl_sum - st.h_l.sum()
    return ctx.problem.n_labels * _mi(ctx, t) - cmi


def _mdmr(ctx: Context, t: StepTerms) -> np.ndarray:
    """I(f; s) - sum_i I(s; l_i | f)."""
    st, q = ctx.statics, ctx.problem.n_labels
    cmi = q * t.h_fs + st.h_fl_sum - t.h_fsl_sum - q * st.h_f
    return _mi(ctx, t) - cmi


@dataclass(frozen=True)
class _Redundancy:
    """An incremental term ``red(f, s)``, its formula, whether it needs triples."""

    value: Callable[[Context, StepTerms], np.ndarray]
    with_labels: bool
    text: str


REDUNDANCY: dict[str, _Redundancy] = {
    "mi": _Redundancy(_mi, with_labels=False, text="I(f; s)"),
    "interaction": _Redundancy(
        _interaction_sum, with_labels=True, text="sum_i I(f; s; l_i)"
    ),
    "mdmr": _Redundancy(
        _mdmr, with_labels=True, text="[I(f; s) - sum_i I(s; l_i | f)]"
    ),
}


def redundancy_of(name: str, ctx: Context, s: int) -> np.ndarray:
    """``red(f, s)`` for every candidate ``f`` once ``s`` joined S."""
    red = REDUNDANCY[name]
    return red.value(ctx, step_terms(ctx.problem, s, with_labels=red.with_labels))


def subtract(
    static: np.ndarray, red: np.ndarray, size: int, ctx: Context
) -> np.ndarray:
    """J = static - sum_s red(f, s)."""
    return static - red


def subtract_mean(
    static: np.ndarray, red: np.ndarray, size: int, ctx: Context
) -> np.ndarray:
    """J = static - (1/|S|) sum_s red(f, s)."""
    # S empty: the redundancy is 0, never 0 / 0.
    return static - red / size if size else static.copy()


def _scls(static: np.ndarray, red: np.ndarray, size: int, ctx: Context) -> np.ndarray:
    h_f = ctx.statics.h_f
    safe = np.where(h_f > 0, h_f, 1.0)
    return np.where(h_f > 0, static * (1.0 - red / safe), 0.0)


def _subtract_part(text, ctx, red_sum, size):
    return f"- sum_s {text}", -red_sum


def _subtract_mean_part(text, ctx, red_sum, size):
    value = red_sum / size if size else np.zeros_like(red_sum)
    return f"- (1/|S|) sum_s {text}", -value


def _scls_part(text, ctx, red_sum, size):
    h_f, rel = ctx.statics.h_f, ctx.statics.relevance
    safe = np.where(h_f > 0, h_f, 1.0)
    # J = R (1 - red / H); a constant feature has J = 0, so the term is -R.
    return "- R(f) sum_s I(f; s) / H(f)", np.where(h_f > 0, -rel * red_sum / safe, -rel)


_REDUNDANCY_PARTS = {
    subtract: _subtract_part,
    subtract_mean: _subtract_mean_part,
    _scls: _scls_part,
}
COMBINATIONS = tuple(_REDUNDANCY_PARTS)
"""The ways a criterion combines its static term with the redundancy sum:
:func:`subtract`, :func:`subtract_mean` and SCLS's entropy scaling."""

Term = tuple[str, Callable[[Context], np.ndarray]]


def sum_terms(values: list[np.ndarray]) -> np.ndarray:
    """The static term from the values of a criterion's terms, added in order."""
    total = values[0]
    for value in values[1:]:
        total = total + value
    return total


@dataclass(frozen=True)
class Criterion:
    """One greedy criterion: its S-free terms, redundancy key and how they combine.

    Attributes
    ----------
    terms : tuple of (str, callable)
        The S-free terms in formula order, each named by its formula and
        computed for every feature from the :class:`Context`; their sum is
        the static term :meth:`static`.
    redundancy : str or None
        Key of :data:`REDUNDANCY` (None: no redundancy, one step ranks all).
    combine : callable
        ``combine(static, sum_s red(f, s), |S|, ctx)`` -> J(f | S); one of
        :data:`COMBINATIONS` (default :func:`subtract`).
    """

    terms: tuple[Term, ...]
    redundancy: str | None
    combine: Callable[[np.ndarray, np.ndarray, int, Context], np.ndarray] = subtract

    def static(self, ctx: Context) -> np.ndarray:
        """The S-free part: the sum of :attr:`terms`, in order."""
        return sum_terms([term(ctx) for _, term in self.terms])

    def redundancy_part(
        self, ctx: Context, red_sum: np.ndarray, size: int
    ) -> tuple[str, np.ndarray]:
        """The S-dependent term as (formula, value): static + it = the criterion."""
        text = REDUNDANCY[self.redundancy].text
        return _REDUNDANCY_PARTS[self.combine](text, ctx, red_sum, size)


def _relevance(ctx: Context) -> np.ndarray:
    return ctx.statics.relevance


def _ppt(ctx: Context) -> np.ndarray:
    return ppt_information(ctx.problem, ctx.classes, ctx.tau)


def _igmf(ctx: Context) -> np.ndarray:
    return igmf_gain(ctx.problem, ctx.classes)


def _pair(name: str) -> Callable[[Context], np.ndarray]:
    def term(ctx: Context) -> np.ndarray:
        return ctx.pair(name)

    return term


def _minus_pair(name: str) -> Callable[[Context], np.ndarray]:
    def term(ctx: Context) -> np.ndarray:
        return -ctx.pair(name)

    return term


RELEVANCE: Term = ("relevance R(f) = sum_i I(f; l_i)", _relevance)
"""The term R(f) = sum_i I(f; l_i), first of most criteria."""

CRITERIA: dict[str, Criterion] = {
    "ATR": Criterion(
        (
            ("relevance R(f) / q", lambda c: _relevance(c) / c.problem.n_labels),
            ("transformed relevance I(f_P; Y_P)", _ppt),
        ),
        "mi",
        subtract_mean,
    ),
    "PPT-MI": Criterion((("I(f_P; Y_P)", _ppt),), None),
    "IGMF": Criterion((("2 I(f; L) / (H(f) + H(L))", _igmf),), None),
    "PMU": Criterion(
        (RELEVANCE, ("- sum_{i<j} I(f; l_i; l_j)", _minus_pair("interaction_sum"))),
        "interaction",
    ),
    "D2F": Criterion((RELEVANCE,), "interaction"),
    "MDMR": Criterion((RELEVANCE,), "mdmr", subtract_mean),
    "LRFS": Criterion(
        (("sum_{i != j} I(f; l_i | l_j)", _pair("cmi_sum")),), "mi", subtract_mean
    ),
    "LSMFS": Criterion(
        (
            RELEVANCE,
            (
                "+ sum_{i != j} max(0, I(f; l_i; l_j))",
                _pair("positive_interaction_sum"),
            ),
        ),
        "mi",
    ),
    "MLSMFS": Criterion(
        (RELEVANCE, ("+ max_{i != j} I(f; l_i | l_j)", _pair("cmi_max"))), "mi"
    ),
    "SCLS": Criterion((RELEVANCE,), "mi", _scls),
}
"""Method -> its criterion as defined: terms, redundancy and combination
(METHODS.md section 4)."""
