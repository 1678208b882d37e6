"""Long results tables from a datasets x methods matrix, for the analysis tests."""

from __future__ import annotations

import numpy as np
import pandas as pd


def long_table(values, methods=None) -> pd.DataFrame:
    """The (dataset, method, value) rows of a datasets x methods matrix.

    Row ``i`` of ``values`` is dataset ``d{i}``; column ``j`` is method
    ``methods[j]`` (``m{j}`` by default).

    Examples
    --------
    >>> long_table([[0.5, 0.25]], ["X", "Y"]).to_dict("list")
    {'dataset': ['d0', 'd0'], 'method': ['X', 'Y'], 'value': [0.5, 0.25]}
    """
    values = np.asarray(values, dtype=float)
    n, m = values.shape
    names = [f"m{j}" for j in range(m)] if methods is None else list(methods)
    return pd.DataFrame(
        {
            "dataset": np.repeat([f"d{i}" for i in range(n)], m),
            "method": np.tile(names, n),
            "value": values.ravel(),
        }
    )
