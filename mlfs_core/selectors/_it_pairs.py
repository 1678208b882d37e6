"""Static label-pair terms: sums or maxima over label pairs (l_i, l_j) of
information quantities of the triple (f, l_i, l_j), for every feature f at once.

Every pair term is a function of the joint entropy ``H(f, l_i, l_j)`` and of
cheap one- and two-variable entropies, so one kernel computes
``H(f, l_i, l_j)`` for all features and all ``j > i`` and a small *reducer*
folds it into a per-feature value.

Counts: for a label ``i``, the samples with ``l_i = 1`` (a few hundred even on
delicious) give, by one sparse product, the counts of (feature code >= 1,
l_j = 1) among them; every other cell of the 2 x 2 x b table follows from
totals by subtraction. The T-sums are then evaluated on blocks of
(features x codes x labels j) of bounded size, so memory stays O(block) even
for delicious' 483,000 label pairs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._it_data import DiscreteProblem, fill_mode, small_counts
from ._it_terms import Statics

# Elements per evaluation block: small enough to stay in cache.
_BLOCK_ELEMENTS = 1 << 16


@dataclass(frozen=True)
class PairBlock:
    """Entropies of one block: features ``f`` x labels ``j > i`` for one ``i``.

    Scalars and 1-D arrays broadcast against ``h3`` of shape (n_f, n_j).
    """

    h3: np.ndarray  # H(f, l_i, l_j), (n_f, n_j)
    h_f: np.ndarray  # H(f), (n_f, 1)
    h_fi: np.ndarray  # H(f, l_i), (n_f, 1)
    h_fj: np.ndarray  # H(f, l_j), (n_f, n_j)
    h_i: float  # H(l_i)
    h_j: np.ndarray  # H(l_j), (n_j,)
    h_ij: np.ndarray  # H(l_i, l_j), (n_j,)

    def interaction(self) -> np.ndarray:
        """I(f; l_i; l_j) = I(f; l_i) + I(f; l_j) - I(f; l_i, l_j)."""
        return (
            self.h_f + self.h_i + self.h_j - self.h_fi - self.h_fj - self.h_ij + self.h3
        )

    def cmi_given_j(self) -> np.ndarray:
        """I(f; l_i | l_j) = H(f, l_j) + H(l_i, l_j) - H(f, l_i, l_j) - H(l_j)."""
        return self.h_fj + self.h_ij - self.h3 - self.h_j

    def cmi_given_i(self) -> np.ndarray:
        """I(f; l_j | l_i) = H(f, l_i) + H(l_i, l_j) - H(f, l_i, l_j) - H(l_i)."""
        return self.h_fi + self.h_ij - self.h3 - self.h_i


@dataclass(frozen=True)
class Reducer:
    """How one pair term folds blocks: ``block(b) -> (n_f,)`` and sum or max."""

    block: Callable[[PairBlock], np.ndarray]
    combine: str  # "sum" or "max"


# Each reducer covers the unordered pairs i < j; ordered-pair sums are twice that.
REDUCERS: dict[str, Reducer] = {
    "interaction_sum": Reducer(lambda b: b.interaction().sum(axis=1), "sum"),
    "positive_interaction_sum": Reducer(
        lambda b: 2.0 * np.maximum(b.interaction(), 0.0).sum(axis=1), "sum"
    ),
    "cmi_sum": Reducer(
        lambda b: (b.cmi_given_j() + b.cmi_given_i()).sum(axis=1), "sum"
    ),
    "cmi_max": Reducer(
        lambda b: np.maximum(b.cmi_given_j(), b.cmi_given_i()).max(axis=1), "max"
    ),
}


def _label_pair_entropy(problem: DiscreteProblem) -> np.ndarray:
    """H(l_i, l_j) for all label pairs, shape (n_labels, n_labels)."""
    both = (problem.labels.T @ problem.labels).toarray()
    both = np.rint(both).astype(np.int64)
    ni = problem.label_counts[:, None]
    nj = problem.label_counts[None, :]
    cells = [both, ni - both, nj - both, problem.n_samples - ni - nj + both]
    return problem.entropy(sum(problem.tsum(c) for c in cells)), both


def _triple_tsum(
    problem: DiscreteProblem,
    features: slice,
    i: int,
    labels_j: slice,
    both_small: np.ndarray,
    both_total: np.ndarray,
) -> np.ndarray:
    """T-sum of the (f, l_i, l_j) table for a block, shape (n_f, n_j)."""
    s = fill_mode(both_small[features, :, labels_j], both_total[labels_j])
    a = problem.feature_label[features, :, i][:, :, None]
    c = problem.feature_label[features, :, labels_j]
    n_v = problem.bin_counts[features][:, :, None]
    k = problem.tsum(s)
    k += problem.tsum(a - s)
    k += problem.tsum(c - s)
    k += problem.tsum(n_v - a - c + s)
    return k.sum(axis=1)


def label_pair_term(
    problem: DiscreteProblem, statics: Statics, reducer: str
) -> np.ndarray:
    """Fold a label-pair quantity over all pairs i < j for every feature.

    Parameters
    ----------
    problem : DiscreteProblem
    statics : Statics
        Its one- and two-variable entropies.
    reducer : str
        A key of :data:`REDUCERS`.

    Returns
    -------
    ndarray of shape (n_features,)
        0 for every feature when there are fewer than two labels.
    """
    red = REDUCERS[reducer]
    m, q = problem.n_features, problem.n_labels
    out = np.zeros(m)
    if q < 2:
        return out
    h_f, h_l, h_fl = statics.h_f[:, None], statics.h_l, statics.h_fl
    h_ll, both = _label_pair_entropy(problem)
    label_rows = problem.labels.tocsc()
    for i in range(q - 1):
        rows = label_rows.indices[label_rows.indptr[i] : label_rows.indptr[i + 1]]
        both_small = small_counts(problem, rows, problem.labels)
        js = slice(i + 1, q)
        step = max(1, _BLOCK_ELEMENTS // (problem.n_codes * (q - i - 1)))
        for start in range(0, m, step):
            fs = slice(start, min(start + step, m))
            k3 = _triple_tsum(problem, fs, i, js, both_small, both[i])
            block = PairBlock(
                h3=problem.entropy(k3), h_f=h_f[fs], h_fi=h_fl[fs, i : i + 1],
                h_fj=h_fl[fs, js], h_i=h_l[i], h_j=h_l[js], h_ij=h_ll[i, js],
            )  # fmt: skip
            value = red.block(block)
            out[fs] = (
                out[fs] + value if red.combine == "sum" else np.maximum(out[fs], value)
            )
    return out
