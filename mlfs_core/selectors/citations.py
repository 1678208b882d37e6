"""The source publication of each built-in method, as its spec's ``citation``.

Authors, year and a short form of the title; the full references are on the
documentation's methods page. The filter and greedy modules take their
methods' citations from here (:attr:`~mlfs_core.MethodSpec.citation`).
"""

from __future__ import annotations

SCORE_AGGREGATION = (
    "Spolaôr and Tsoumakas (2013), Evaluating feature selection methods for "
    "multi-label text classification"
)
"""CS and BNS per label after Binary Relevance, aggregated by Max, Mean,
Round-Robin and Rand-Robin, and the baselines Random and AF beside them."""
TEXT_MEASURES = (
    "Forman (2003), An extensive empirical study of feature selection metrics "
    "for text classification"
)
"""Information gain, odds ratio and document frequency (aggregated as above)."""
GREEDY = {
    "PPT-MI": "Doquire and Verleysen (2011), Feature selection for multi-label "
    "classification problems",
    "IGMF": "Li et al. (2014), Multi-label feature selection via information gain",
    "PMU": "Lee and Kim (2013), Feature selection for multi-label classification "
    "using multivariate mutual information",
    "D2F": "Lee and Kim (2015), Fast multi-label feature selection based on "
    "information-theoretic feature ranking",
    "MDMR": "Lin et al. (2015), Multi-label feature selection based on "
    "max-dependency and min-redundancy",
    "LRFS": "Zhang et al. (2019), Distinguishing two types of labels for "
    "multi-label feature selection",
    "LSMFS": "Zhang et al. (2021), Multi-label feature selection considering "
    "label supplementation",
    "MLSMFS": "Zhang et al. (2021), Multi-label feature selection considering "
    "label supplementation",
    "SCLS": "Lee and Kim (2017), SCLS: multi-label feature selection based on "
    "scalable criterion for large label set",
    "ATR": "Multi-label feature selection using adaptive and transformed relevance",
}
"""The information-theoretic greedy filters, by method name."""
FIELD = {
    "RFS": "Nie et al. (2010), Efficient and robust feature selection via joint "
    "l2,1-norms minimization",
    "LLSF": "Huang et al. (2015), Learning label-specific features for "
    "multi-label classification",
    "MIFS": "Jian et al. (2016), Multi-label informed feature selection",
    "MDDM-proj": "Zhang and Zhou (2010), Multilabel dimensionality reduction via "
    "dependence maximization",
    "MDDM-spc": "Zhang and Zhou (2010), Multilabel dimensionality reduction via "
    "dependence maximization",
    "MCLS": "Huang, Jiang and Sun (2018), Manifold-based constraint Laplacian "
    "score for multi-label feature selection",
    "RF-ML": "Spolaôr, Cherman, Monard and Lee (2013), ReliefF for multi-label "
    "feature selection",
    "GRRO": "Zhang et al. (2020), Multi-label feature selection via global "
    "relevance and redundancy optimization",
    "FIMF": "Lee and Kim (2015), Fast multi-label feature selection based on "
    "information-theoretic feature ranking",
}
"""The field's baselines (:mod:`mlfs_core.selectors.field`), by method name."""
