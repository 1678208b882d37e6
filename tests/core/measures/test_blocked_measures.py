"""IG/OR/DF on label blocks and the one-copy presence(): values unchanged."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core.measures import table2x2
from mlfs_core.measures.counts import Counts, contingency_counts, presence

MEASURES = [
    table2x2.information_gain_from_counts,
    table2x2.odds_ratio_from_counts,
    table2x2.document_frequency_from_counts,
]


def _data(seed: int):
    rng = np.random.default_rng(seed)
    X = sp.random(40, 25, density=0.3, random_state=seed, format="csr")
    Y = (rng.random((40, 11)) < 0.3).astype(np.int8)
    return X, Y


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("measure", MEASURES, ids=lambda f: f.__name__)
def test_label_blocks_give_bit_identical_scores(seed, measure, monkeypatch):
    """Check blocks of 1-2 labels give exactly the all-labels-at-once values."""
    counts = contingency_counts(*_data(seed))
    whole = measure.__wrapped__(counts)
    monkeypatch.setattr(table2x2, "_BLOCK_CELLS", 40)  # 1 label per block
    assert np.array_equal(measure(counts), whole)
    cells = Counts.from_cells(*counts.cells())  # full-shape margins
    assert np.array_equal(measure(cells), whole)


@pytest.mark.parametrize("explicit_zeros", [False, True])
def test_presence_equals_copy_and_drop_zeros(explicit_zeros):
    """Check presence() equals the copy-binarize-eliminate reference, zeros dropped."""
    X, _ = _data(3)
    if explicit_zeros:
        X.data[::3] = 0.0
    B = presence(X)
    reference = sp.csr_matrix(X, copy=True)
    reference.data = (reference.data != 0).astype(np.float64)
    reference.eliminate_zeros()
    assert np.array_equal(B.indptr, reference.indptr)
    assert np.array_equal(B.indices, reference.indices)
    assert np.array_equal(B.data, reference.data) and B.data.dtype == np.float64
    assert not np.shares_memory(B.indices, X.indices)  # X stays untouched
