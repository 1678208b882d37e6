"""AppTest: the Learn pages open on instructive defaults (issue 54, item 8).

On medical the Score page opened on a feature and a label that never occur
together (an empty "present and positive" cell); it now opens on the pair of
:func:`mlfs_core.explain.opening_pair`.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from mlfs_core import label_scores
from mlfs_core.data import load_dataset

from ..conftest import link_shared, new_app, open_page


def _oracle_pair(X, Y) -> tuple[int, int]:
    """The rule written plainly: the first label some feature co-occurs with,
    then its highest-CS co-occurring feature (lowest index among ties)."""
    X = sp.csc_matrix(X)
    Y = np.asarray(Y)
    S = label_scores(X, Y, "chi2")
    for label in range(Y.shape[1]):
        best = None
        for j in range(X.shape[1]):
            rows = X[:, j].nonzero()[0]
            if Y[rows, label].sum() > 0 and (
                best is None or S[label, j] > S[label, best]
            ):
                best = j
        if best is not None:
            return best, label
    raise AssertionError("no co-occurring pair")


def test_score_page_opens_on_a_pair_that_co_occurs_on_medical(
    shared_datasets, tmp_path, monkeypatch
):
    """Check that on medical the first 2x2 table has present-and-positive samples,
    for the pair the written rule names."""
    link_shared(shared_datasets, tmp_path / "real", monkeypatch, "medical")
    at = new_app()
    at.selectbox(key="dataset").select("medical").run()
    at = open_page(at, "learn_score")
    assert not at.error
    ds = load_dataset(shared_datasets / "medical")
    feature, label = _oracle_pair(ds.X, ds.Y)
    assert at.selectbox(key="score_feature").value == feature
    assert at.selectbox(key="score_label").value == label
    table = at.table[0].value
    assert table.loc["feature present", "label positive"] > 0
    heading = (
        f"1. The 2x2 table of {ds.feature_names[feature]} and {ds.label_names[label]}"
    )
    assert any(h.value == heading for h in at.subheader)


def test_rank_features_opens_with_the_median_rule_on_dense_emotions(
    shared_datasets, tmp_path, monkeypatch
):
    """Check the first Rank features view on emotions (dense): MaxCS with
    binarize = "median", its table the engine's ranking under that rule, not
    the presence rule's near-total tie; no dense-data warning then. On sparse
    medical the option opens on its default, "presence"."""
    import mlfs_core

    link_shared(shared_datasets, tmp_path / "real", monkeypatch, "emotions", "medical")
    at = new_app()
    at.selectbox(key="dataset").select("emotions").run()
    at = open_page(at, "rank")
    assert at.selectbox(key="rank_a_binarize").value == "median"
    assert not [w for w in at.warning if "Dense data" in w.value]
    ds = load_dataset(shared_datasets / "emotions")
    table = at.dataframe[0].value
    order = mlfs_core.rank_features(
        ds.X, ds.Y, "MaxCS", k=len(table), binarize="median"
    )
    assert list(table["feature"]) == [ds.feature_names[j] for j in order]
    scores = table["score"].to_numpy()
    assert np.count_nonzero(scores == 0) < len(scores) // 2  # not the presence ties
    medical = new_app()
    medical.selectbox(key="dataset").select("medical").run()
    medical = open_page(medical, "rank")
    assert medical.selectbox(key="rank_a_binarize").value == "presence"
