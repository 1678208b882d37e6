"""The ten criteria of paper 001 as data: a static term and a redundancy rule.

Every criterion has the form ``J(f | S) = combine(static(f), sum_s red(f, s), |S|)``
where ``static`` does not depend on S and ``red(f, s)`` is one of three
incremental terms of the newly selected feature ``s`` (see
:data:`REDUNDANCY`). The greedy engine in :mod:`mlfs_core.selectors.greedy`
keeps the running sum of ``red`` over S; the definitions are those of
METHODS.md section 4 (R(f) = sum_i I(f; l_i)).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._it_data import DiscreteProblem
from ._it_pairs import label_pair_term
from ._it_ppt import igmf_gain, label_powerset, ppt_information
from ._it_terms import Statics, StepTerms, compute_statics, step_terms


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
        """A label-pair term (see :mod:`._it_pairs`), computed once."""
        if reducer not in self._cache:
            self._cache[reducer] = label_pair_term(self.problem, self.statics, reducer)
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
class Redundancy:
    """An incremental term ``red(f, s)`` and whether it needs label triples."""

    value: Callable[[Context, StepTerms], np.ndarray]
    with_labels: bool


REDUNDANCY: dict[str, Redundancy] = {
    "mi": Redundancy(_mi, with_labels=False),
    "interaction": Redundancy(_interaction_sum, with_labels=True),
    "mdmr": Redundancy(_mdmr, with_labels=True),
}


def redundancy_of(name: str, ctx: Context, s: int) -> np.ndarray:
    """``red(f, s)`` for every candidate ``f`` once ``s`` joined S."""
    red = REDUNDANCY[name]
    return red.value(ctx, step_terms(ctx.problem, s, with_labels=red.with_labels))


def _subtract(
    static: np.ndarray, red: np.ndarray, size: int, ctx: Context
) -> np.ndarray:
    return static - red


def _subtract_mean(
    static: np.ndarray, red: np.ndarray, size: int, ctx: Context
) -> np.ndarray:
    # S empty: the redundancy is 0, never 0 / 0.
    return static - red / size if size else static.copy()


def _scls(static: np.ndarray, red: np.ndarray, size: int, ctx: Context) -> np.ndarray:
    h_f = ctx.statics.h_f
    safe = np.where(h_f > 0, h_f, 1.0)
    return np.where(h_f > 0, static * (1.0 - red / safe), 0.0)


@dataclass(frozen=True)
class Criterion:
    """One greedy criterion: S-free term, redundancy key and how they combine."""

    static: Callable[[Context], np.ndarray]
    redundancy: str | None
    combine: Callable[[np.ndarray, np.ndarray, int, Context], np.ndarray] = _subtract


def _relevance(ctx: Context) -> np.ndarray:
    return ctx.statics.relevance


def _ppt(ctx: Context) -> np.ndarray:
    return ppt_information(ctx.problem, ctx.classes, ctx.tau)


def _atr(ctx: Context) -> np.ndarray:
    return ctx.statics.relevance / ctx.problem.n_labels + _ppt(ctx)


def _pmu(ctx: Context) -> np.ndarray:
    return ctx.statics.relevance - ctx.pair("interaction_sum")


def _pmu_reference(ctx: Context) -> np.ndarray:
    # Ordered pairs with i = j: 2 sum_{i<j} I(f;l_i;l_j) + sum_i I(f;l_i;l_i),
    # and I(f; l_i; l_i) = I(f; l_i), so the diagonal adds R(f).
    pairs = 2.0 * ctx.pair("interaction_sum") + ctx.statics.relevance
    return ctx.statics.relevance - pairs


CRITERIA: dict[str, Criterion] = {
    "ATR": Criterion(_atr, "mi", _subtract_mean),
    "PPT-MI": Criterion(_ppt, None),
    "IGMF": Criterion(lambda ctx: igmf_gain(ctx.problem, ctx.classes), None),
    "PMU": Criterion(_pmu, "interaction"),
    "PMU/reference-code": Criterion(_pmu_reference, "interaction"),
    "D2F": Criterion(_relevance, "interaction"),
    "MDMR": Criterion(_relevance, "mdmr", _subtract_mean),
    "MDMR/reference-code": Criterion(_relevance, "interaction"),
    "LRFS": Criterion(lambda ctx: ctx.pair("cmi_sum"), "mi", _subtract_mean),
    "LSMFS": Criterion(
        lambda ctx: ctx.statics.relevance + ctx.pair("positive_interaction_sum"), "mi"
    ),
    "MLSMFS": Criterion(lambda ctx: ctx.statics.relevance + ctx.pair("cmi_max"), "mi"),
    "SCLS": Criterion(_relevance, "mi", _scls),
}
