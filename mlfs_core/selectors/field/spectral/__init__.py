"""Spectral methods: MDDM-proj, MDDM-spc, MCLS (family ``"spectral"``).

Methods. MDDM (Zhang & Zhou 2010) [1]_ finds the projection P of the features
that maximises the dependence (HSIC) between the projected features and the
labels, with a linear label kernel and X, Y centred: the top eigenvectors
of X̃ᵀỸỸᵀX̃, under PᵀP = I (``MDDM-proj``) or under
Pᵀ(X̃ᵀX̃ + εI)P = I (``MDDM-spc``, uncorrelated projection with the ridge
``epsilon``). The paper reduces dimension; as a feature ranking we score
feature i by Σ_j λ_j P_ij² over all eigenvectors with λ_j > 0 (the
project's choice: MLFS papers rank by the projection's weights). This sum
equals the squared norm of row i of X̃ᵀỸ (proj) and of
(X̃ᵀX̃ + εI)⁻¹X̃ᵀỸ (spc), which is how it is computed (:mod:`._mddm`): no
M x M matrix, sparse X never centred (X̃ᵀỸ = XᵀỸ as Ỹ is centred), and
MDDM-spc solved in the n-dimensional form when M > n.

MCLS (Huang, Jiang & Sun 2018) [2]_ is computed step by step as the authors'
``MCLS.m`` (:mod:`._mcls`): a graph that joins the instances' PKN graph
with that of a label manifold, Cai's Laplacian score on it, and a
constraint ratio from the binary kNN graph and its complement; larger is
better. Where the authors' code leaves a choice open we fixed it (the
project's choices): the k nearest neighbours exclude the instance itself
by index, a duplicate row at distance 0 counts (a squared distance at most
1e-12 (‖x_i‖² + ‖x_j‖²), the rounding of its expansion, is 0), and equal
distances go to the lowest index; the label manifold's quadratic programme
gets the ridge 1e-8·trace(M)/n so its minimiser is unique, and is solved by
a primal-dual active-set method [3]_, and a label whose active set cycles
by a monotone primal active-set method that cannot cycle; every label must
meet the KKT conditions to a stated tolerance (no approximate iterate is
returned); a neighbour system whose Gram matrix Z has
rank < k (or k > M) gets the ridge 1e-3·trace(Z), and uniform weights 1/k
when trace(Z) = 0; a feature whose constraint ratio is undefined
(f_iᵀL_C f_i = 0: constant, or no non-neighbour pairs) ranks last.
MCLS needs at least ``n_neighbors + 2`` samples and refuses fewer.

Every method applies the ``scaling`` option first (:mod:`.._scaling`).
Ranking: score descending, equal scores by the lowest index; a feature
with an undefined score ranks after all others, in index order, and stores
the lowest defined score minus 1. Memory is estimated before work and a
method refuses, naming its estimate, above 2 GiB
(:data:`._common.DENSE_BOUND_BYTES`): MDDM-spc needs
8(2d² + 3Mq) bytes, d = min(n, M); MCLS 16n², two dense n x n matrices,
the size of the graphs the authors' code holds densely (they are sparse
here; the benchmark measures the real peak), so n up to 11,585.

References
----------
.. [1] Y. Zhang and Z.-H. Zhou, "Multilabel dimensionality reduction via
   dependence maximization", ACM TKDD 4(3):14, 2010.
.. [2] R. Huang, W. Jiang and G. Sun, "Manifold-based constraint Laplacian
   score for multi-label feature selection", Pattern Recognition Letters
   112:346-352, 2018.
.. [3] M. Hintermüller, K. Ito and K. Kunisch, "The primal-dual active set
   strategy as a semismooth Newton method", SIAM J. Optim. 13(3), 2003.
"""

from __future__ import annotations

from ....options import Option
from ..._spec import MethodSpec
from ...citations import FIELD
from .._scaling import SCALING_OPTION
from ._mcls import rank_mcls
from ._mddm import rank_mddm_proj, rank_mddm_spc

__all__ = ["spectral_specs"]

_EPSILON_OPTION = Option(
    "epsilon",
    1e-3,
    low=0.0,
    closed="neither",
    help="MDDM-spc: ridge added to the features' covariance X̃ᵀX̃ in the "
    "uncorrelation constraint.",
)
_NEIGHBORS_OPTION = Option(
    "n_neighbors",
    5,
    low=1,
    high=1000,
    help="MCLS: nearest neighbours of each instance in its graphs (the "
    "instance itself excluded).",
)


def spectral_specs() -> list[MethodSpec]:
    """The specs of this module's methods, for the registry."""
    return [
        MethodSpec(
            name="MDDM-proj",
            family="spectral",
            rank=rank_mddm_proj,
            options=(SCALING_OPTION,),
            description="Ranks features by their weight in MDDM's dependence-"
            "maximising orthonormal projection (linear label kernel).",
            score_kind="score",
            citation=FIELD["MDDM-proj"],
        ),
        MethodSpec(
            name="MDDM-spc",
            family="spectral",
            rank=rank_mddm_spc,
            options=(_EPSILON_OPTION, SCALING_OPTION),
            description="Ranks features by their weight in MDDM's dependence-"
            "maximising uncorrelated projection (ridge epsilon).",
            score_kind="score",
            citation=FIELD["MDDM-spc"],
        ),
        MethodSpec(
            name="MCLS",
            family="spectral",
            rank=rank_mcls,
            options=(_NEIGHBORS_OPTION, SCALING_OPTION),
            description="Ranks features by the manifold-based constraint "
            "Laplacian score: locality on a label-manifold graph times a "
            "neighbour/non-neighbour constraint ratio.",
            score_kind="score",
            citation=FIELD["MCLS"],
        ),
    ]
