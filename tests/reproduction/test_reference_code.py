"""The ATR authors' evaluation conventions, each pinned on a hand example."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import f1_score, jaccard_score

from mlfs_core.errors import ConfigError, DatasetError
from mlfs_core.evaluation.classifiers.mlknn import MLkNN
from mlfs_core.evaluation.classifiers.neighbors import neighbour_label_counts
from mlfs_papers.paper001.conventions import (
    REFERENCE_METRICS,
    ReferenceMLkNN,
    load_predefined_split,
    make_reference_mlknn,
    predefined_split_folder,
    reference_label_mask,
)

from .oracles import datasets_without_split, reference_evaluate

ARFF = "@relation r\n@attribute f numeric\n@attribute l {0,1}\n@data\n"
XML = '<labels xmlns="http://mulan.sourceforge.net/labels"><label name="l"/></labels>'


def _write_pair(folder, name, train_rows, test_rows):
    folder.mkdir(parents=True)
    for part, rows in (("train", train_rows), ("test", test_rows)):
        text = ARFF + "".join(f"{x},{y}\n" for x, y in rows)
        (folder / f"{name}-{part}.arff").write_text(text)
    (folder / f"{name}.xml").write_text(XML)


# ---------------------------------------------------------------- (a) split
def test_published_pair_first_then_own_pair_then_none(tmp_path):
    splits = tmp_path / "splits"
    _write_pair(splits / "emo", "emo", [(0, 1), (1, 0)], [(2, 1)])
    _write_pair(tmp_path / "data" / "scn", "scn", [(0, 1)], [(1, 0)])
    (tmp_path / "data" / "plant").mkdir()
    (tmp_path / "data" / "plant" / "plant.arff").write_text("")
    assert predefined_split_folder("emo", splits_dir=splits) == splits / "emo"
    # a path to the full dataset still finds the published pair by name
    full = tmp_path / "data" / "emo" / "emo.arff"
    assert predefined_split_folder(full, splits_dir=splits) == splits / "emo"
    own = tmp_path / "data" / "scn"
    assert predefined_split_folder(own, splits_dir=splits) == own
    assert (
        predefined_split_folder(tmp_path / "data" / "plant", splits_dir=splits) is None
    )
    names = [tmp_path / "data" / "plant", own, "emo"]
    assert datasets_without_split(names, splits_dir=splits) == ["plant"]


def test_split_errors_name_the_problem(tmp_path):
    with pytest.raises(ConfigError, match="nowhere"):
        predefined_split_folder("emo", splits_dir=tmp_path / "nowhere")
    with pytest.raises(DatasetError, match="plant: no predefined"):
        load_predefined_split("plant", splits_dir=tmp_path)


def test_loading_a_pair_marks_train_rows_first(tmp_path):
    _write_pair(tmp_path / "emo", "emo", [(0, 1), (1, 0), (5, 1)], [(2, 1)])
    ds = load_predefined_split("emo", splits_dir=tmp_path)
    assert ds.split.tolist() == [0, 0, 0, 1]
    assert ds.X.toarray()[:, 0].tolist() == [0, 1, 5, 2]


def test_shared_predefined_splits(shared_datasets):
    splits = shared_datasets.parent / "datasets-splits"
    paper001 = ["emotions", "birds", "yeast", "scene", "genbase", "enron", "medical"]
    paper001 += ["tmc2007-500", "bibtex", "GnegativePseAAC", "PlantPseAAC"]
    paths = [shared_datasets / n for n in paper001]
    assert datasets_without_split(paths, splits_dir=splits) == [
        "GnegativePseAAC",
        "PlantPseAAC",
    ]
    ds = load_predefined_split(shared_datasets / "emotions", splits_dir=splits)
    assert (np.bincount(ds.split).tolist(), ds.X.shape) == ([391, 202], (593, 72))


def test_genbase_split_keeps_the_full_files_features(shared_datasets):
    from mlfs_core import load_dataset

    with pytest.warns(UserWarning, match="identifier"):
        full = load_dataset(shared_datasets / "genbase")
    splits = shared_datasets.parent / "datasets-splits"
    ds = load_predefined_split("genbase", splits_dir=splits, features_like=full)
    assert ds.feature_names == full.feature_names
    assert np.bincount(ds.split).tolist() == [463, 199]


# ---------------------------------------------------------------- (b) ML-kNN
X4 = np.array([[0.0], [1.0], [2.0], [3.0]])
Y4 = np.array([[1], [1], [0], [0]])


def test_training_sample_is_its_own_neighbour():
    # k = 1: each sample's only neighbour is itself, so the counts are the
    # labels: positives all have count 1, negatives count 0.
    ref = ReferenceMLkNN(k=1).fit(X4, Y4)
    np.testing.assert_allclose(ref.cond_pos_, [[1 / 4, 3 / 4]])
    np.testing.assert_allclose(ref.cond_neg_, [[3 / 4, 1 / 4]])
    # Ours: 0 -> 1, 1 -> 0 (tie 0/2 by lower index), 2 -> 1 (tie 1/3), 3 -> 2.
    ours = MLkNN(k=1).fit(X4, Y4)
    np.testing.assert_allclose(ours.cond_pos_, [[1 / 4, 3 / 4]])
    np.testing.assert_allclose(ours.cond_neg_, [[2 / 4, 2 / 4]])


def test_training_counts_use_the_tie_rule_with_self_included():
    X = np.array([[0.0], [0.0], [0.0], [9.0]])  # three duplicates
    Y = np.array([[0], [1], [1], [0]])
    ref = ReferenceMLkNN(k=2).fit(X, Y)
    # Sample 2's two nearest at distance 0 are samples 0 and 1 (lower index
    # first), not itself: count 0 + 1 = 1; sample 3 takes itself and sample 0.
    counts = neighbour_label_counts(X, X, Y, 2)
    assert counts[:, 0].tolist() == [1, 1, 1, 0]
    assert ref._training_counts().tolist() == counts.tolist()


def test_predict_sets_a_label_at_a_posterior_of_exactly_one_half():
    X = np.array([[0.0], [1.0], [10.0], [11.0]])
    Y = np.array([[1], [0], [1], [0]])
    ref = ReferenceMLkNN(k=2).fit(X, Y)  # every training count is 1: P = 0.5
    test = np.array([[0.4], [10.6]])
    assert ref.predict_proba(test).ravel().tolist() == [0.5, 0.5]
    assert ref.predict(test).ravel().tolist() == [1, 1]
    assert MLkNN(k=2).fit(X, Y).predict(test).ravel().tolist() != [1, 1]


def test_factory_matches_the_registry_signature():
    clf = make_reference_mlknn(random_state=3, k=4)
    assert isinstance(clf, ReferenceMLkNN) and clf.k == 4


# ---------------------------------------------------------------- (c), (d) metrics
def test_ranking_loss_and_coverage_use_the_predictions():
    Y_train = np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0]])
    Y_test = np.array([[1, 0, 0], [0, 1, 1]])
    P = np.array([[0, 1, 0], [0, 1, 1]])
    out = reference_evaluate(Y_train, Y_test, P)
    # Sample 1: relevant label 0 scored 0 ties label 2 and is below label 1:
    # both pairs mis-ordered (loss 1), coverage 3; sample 2 is perfect
    # (loss 0, coverage 2).
    assert out["ranking_loss"] == pytest.approx(0.5)
    assert out["coverage_error"] == pytest.approx(2.5)


def test_empty_prediction_is_maximally_wrong_for_ranking_metrics():
    Y = np.array([[1, 0], [0, 1]])
    out = reference_evaluate(Y, Y, np.zeros_like(Y))
    assert (out["ranking_loss"], out["coverage_error"]) == (1.0, 2.0)


def test_labels_constant_in_train_or_test_are_dropped():
    # Label 1 constant in both parts, 2 in the training part only (all 1),
    # 3 in the test part only (all 0); label 0 varies in both and is kept.
    Y_train = [[1, 0, 1, 1], [0, 0, 1, 0]]
    Y_test = [[1, 1, 0, 0], [0, 1, 1, 0]]
    assert reference_label_mask(Y_train, Y_test).tolist() == [True, False, False, False]
    with pytest.raises(ConfigError, match="same number of labels"):
        reference_label_mask(Y_train, [[1, 0]])


def test_weighted_f1_and_jaccard_on_the_kept_labels():
    Y_train = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    Y_test = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 0], [1, 0, 0]])  # label 2 dropped
    P = np.array([[1, 0, 1], [0, 1, 1], [0, 0, 0], [1, 1, 1]])
    out = reference_evaluate(Y_train, Y_test, P)
    # Label 0: tp 2, fp 0, fn 1 -> F1 4/5, Jaccard 2/3, support 3;
    # label 1: tp 1, fp 1, fn 1 -> F1 1/2, Jaccard 1/3, support 2.
    assert out["weighted_f1"] == pytest.approx((3 * 4 / 5 + 2 * 1 / 2) / 5)
    assert out["weighted_jaccard"] == pytest.approx((3 * 2 / 3 + 2 * 1 / 3) / 5)
    kept = Y_test[:, :2], P[:, :2]
    assert out["weighted_f1"] == pytest.approx(f1_score(*kept, average="weighted"))
    assert out["weighted_jaccard"] == pytest.approx(
        jaccard_score(*kept, average="weighted")
    )
    # The dropped label's false positives (3 of them) count nowhere.
    assert out["hamming_loss"] == pytest.approx(3 / 8)
    assert out["subset_accuracy"] == pytest.approx(1 / 4)


def test_metric_table_and_errors():
    assert not any(spec.needs_scores for spec in REFERENCE_METRICS.values())
    Y = np.array([[1, 0], [0, 1]])
    with pytest.raises(ConfigError, match="average_precision"):
        reference_evaluate(Y, Y, Y, metrics=["average_precision"])
    with pytest.raises(ConfigError, match="every label is constant"):
        reference_evaluate(Y, np.ones_like(Y), Y)
    with pytest.raises(ConfigError, match="at least 2 labels"):
        reference_evaluate(
            np.array([[1, 0], [0, 0]]),
            np.array([[1, 0], [0, 1]]),
            Y,
            metrics=["ranking_loss"],
        )
