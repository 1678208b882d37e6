"""PMU and MDMR as the ATR authors' baseline code computes them.

Selected with ``variant="reference-code"``.

Paper 001's published numbers for its baselines come from its authors' code,
which departs from the methods' definitions in two of them. This module
registers those two departures as criterion variants of the engine
(:func:`mlfs_core.selectors.variants.register_variant`), the public extension
point a user's plug-in gets; the package's entry point (group
``mlfs_explorer.plugins``) imports it, so ``PMU(variant="reference-code")``
works wherever this package is installed. Written from the description of
that code's behaviour, not copied from it.

- **PMU**: the code sums the label-pair term over all *ordered* pairs of
  labels, i = j included, where the definition (Lee and Kim 2013) sums
  I(f; l_i; l_j) over the pairs i < j. Each unordered pair then counts twice,
  and since I(f; l_i; l_i) = I(f; l_i) the diagonal adds R(f):
  J = R(f) - [2 sum_{i<j} I(f; l_i; l_j) + R(f)] - sum_s sum_i I(f; s; l_i).
- **MDMR**: the code computes D2F's criterion (Lee and Kim 2015),
  R(f) - sum_s sum_i I(f; s; l_i), not MDMR's mean over S of
  I(f; s) - sum_i I(s; l_i | f) (Lin et al. 2015).

That code also ranks IGMF's features in reverse index order; this is a defect
and is not reproduced.
"""

from __future__ import annotations

import numpy as np

from mlfs_core.selectors import register_variant
from mlfs_core.selectors.it import RELEVANCE, Context, Criterion

NAME = "reference-code"
"""The ``variant`` value of both (part of the studies' configs and cache keys)."""


def _ordered_label_pairs(ctx: Context) -> np.ndarray:
    # Ordered pairs with i = j: 2 sum_{i<j} I(f;l_i;l_j) + sum_i I(f;l_i;l_i),
    # and I(f; l_i; l_i) = I(f; l_i), so the diagonal adds R(f).
    return -(2.0 * ctx.pair("interaction_sum") + ctx.statics.relevance)


PMU_REFERENCE = Criterion(
    (RELEVANCE, ("- label pairs, ordered, i = j included", _ordered_label_pairs)),
    "interaction",
)
"""PMU with the label-pair term over all ordered pairs, i = j included."""
MDMR_REFERENCE = Criterion((RELEVANCE,), "interaction")
"""MDMR as D2F: R(f) - sum_s sum_i I(f; s; l_i)."""

register_variant(
    "PMU",
    NAME,
    PMU_REFERENCE,
    description="Label-pair term over all ordered pairs, i = j included, as the "
    "ATR authors' code computes it.",
)
register_variant(
    "MDMR",
    NAME,
    MDMR_REFERENCE,
    description="D2F's criterion, as the ATR authors' code computes MDMR.",
)
