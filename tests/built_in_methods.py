"""The built-in methods the tests expect, by family, each stated once.

The score + aggregation family is the product of its measures and four
aggregations; the engine registers it measure by measure (CS and BNS first,
then the extra text measures IG, OR and DF).
"""

from __future__ import annotations

AGGREGATIONS = ("Max", "Mean", "RoR", "RaR")


def score_aggregation(*measures: str) -> list[str]:
    """Names of the score + aggregation methods of ``measures``, measure by measure.

    Examples
    --------
    >>> score_aggregation("CS")
    ['MaxCS', 'MeanCS', 'RoRCS', 'RaRCS']
    """
    return [a + m for m in measures for a in AGGREGATIONS]


SCORE_AGGREGATION = score_aggregation("CS", "BNS")
INFORMATION_THEORETIC = [
    *("PPT-MI", "IGMF", "PMU", "D2F", "MDMR", "LRFS", "LSMFS", "MLSMFS", "SCLS"),
    "ATR",
]
SPARSE_REGRESSION = ["RFS", "LLSF", "MIFS"]
SPECTRAL = ["MDDM-proj", "MDDM-spc", "MCLS"]
INSTANCE_BASED = ["RF-ML"]
GLOBAL_INFORMATION = ["GRRO", "FIMF"]
BASELINES = ["Random", "AF"]
EXTRA_MEASURES = ("IG", "OR", "DF")
# The registry's documented order: the families above, then the extra measures.
BUILT_IN_ORDER = [
    *SCORE_AGGREGATION,
    *INFORMATION_THEORETIC,
    *SPARSE_REGRESSION,
    *SPECTRAL,
    *INSTANCE_BASED,
    *GLOBAL_INFORMATION,
    *BASELINES,
    *score_aggregation(*EXTRA_MEASURES),
]
