"""An example installable plug-in: a method of its own family, as a MethodSpec.

Installed, the entry point ``example`` of the group ``mlfs_explorer.plugins``
(see ``pyproject.toml``) makes every mlfs process, the app included, load it.
"""

import numpy as np

from mlfs_core.options import Option
from mlfs_core.selectors import MethodSpec, Ranking, register

__version__ = "1.0"


def _rank_by_spread(X, Y, *, k, random_state, power=1.0):
    """Features by the variance of their values (labels ignored), to a power."""
    X = X.toarray()
    scores = X.var(axis=0) ** power
    order = np.argsort(-scores, kind="stable")[:k]
    return Ranking(order=order, scores=scores)


register(
    MethodSpec(
        name="Spread",
        family="example",
        family_label="Example plug-in",
        rank=_rank_by_spread,
        options=(Option("power", 1.0, low=0.5, high=4.0, help="power of variance"),),
        description="Ranks features by the variance of their values.",
        version=__version__,
    )
)
