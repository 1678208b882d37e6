"""Tests of ML-kNN and Binary Relevance."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import BinaryRelevance, MLkNN, make_classifier

X_TRAIN = np.array([[0.0], [1.0], [3.0], [10.0], [12.0]])
Y_TRAIN = np.array([[1], [1], [0], [0], [0]])


def test_mlknn_hand_worked_example():
    """Check ML-kNN's priors, likelihoods and posteriors against a hand computation.

    With k = 2 the training neighbour counts (self excluded) are 1, 1, 2, 0, 0;
    positives {1, 1}, negatives {2, 0, 0}; prior (1 + 2) / (2 + 5) = 3/7;
    P(E|H1) = [1, 3, 1] / 5, P(E|H0) = [3, 1, 2] / 6.
    """
    clf = MLkNN(k=2, s=1.0).fit(X_TRAIN, Y_TRAIN)
    assert clf.prior_[0] == pytest.approx(3 / 7)
    assert clf.cond_pos_[0] == pytest.approx([1 / 5, 3 / 5, 1 / 5])
    assert clf.cond_neg_[0] == pytest.approx([3 / 6, 1 / 6, 2 / 6])
    X_test = np.array([[0.4], [2.2], [11.0]])  # neighbour counts 2, 1, 0
    proba = clf.predict_proba(X_test)[:, 0]
    assert proba == pytest.approx([9 / 29, 27 / 37, 3 / 13])
    assert clf.predict(X_test)[:, 0].tolist() == [0, 1, 0]


def test_mlknn_sample_is_not_its_own_neighbour():
    """Check that with k = 1 a training sample's neighbour is another sample."""
    X = np.array([[0.0], [0.1], [5.0], [5.1]])
    Y = np.array([[1], [0], [1], [0]])  # each nearest other point has the other label
    clf = MLkNN(k=1, s=1.0).fit(X, Y)
    # all positives see 0 positive neighbours: P(E_0|H1) = (1 + 2) / (2 + 2)
    assert clf.cond_pos_[0] == pytest.approx([3 / 4, 1 / 4])


def test_mlknn_several_labels_and_small_training_set(rng):
    """Check that ML-kNN handles many labels, constant labels and k above n - 1."""
    X = rng.random((6, 3))
    Y = np.column_stack([rng.integers(0, 2, 6), np.zeros(6, int), np.ones(6, int)])
    clf = MLkNN(k=10).fit(X, Y)
    assert clf.k_ == 5
    proba = clf.predict_proba(rng.random((4, 3)))
    assert proba.shape == (4, 3) and np.all((proba > 0) & (proba < 1))
    assert clf.predict(X)[:, 1].sum() == 0


def test_binary_relevance_constant_label_gets_constant_predictor(rng):
    """Check that BR predicts the only training class of a constant label."""
    X = rng.random((20, 4))
    Y = np.column_stack(
        [(X[:, 0] > 0.5).astype(int), np.zeros(20, int), np.ones(20, int)]
    )
    br = BinaryRelevance(LinearSVC(C=3, tol=1e-3)).fit(X, Y)
    pred, scores = br.predict(X), br.decision_function(X)
    assert (pred[:, 1] == 0).all() and (pred[:, 2] == 1).all()
    assert (scores[:, 1] == -1).all() and (scores[:, 2] == 1).all()
    assert (pred[:, 0] == Y[:, 0]).mean() > 0.8


def test_binary_relevance_uses_predict_proba_without_decision_function(rng):
    """Check that scores come from predict_proba when there is no decision function."""
    from sklearn.naive_bayes import BernoulliNB

    X = rng.integers(0, 2, (30, 4))
    Y = np.column_stack([X[:, 0], 1 - X[:, 1]])
    scores = BinaryRelevance(BernoulliNB()).fit(X, Y).decision_function(X)
    assert ((scores >= 0) & (scores <= 1)).all()


def test_make_classifier_names_and_errors():
    """Check that the registry builds the classifiers (LinearSVC with
    scikit-learn's defaults: a preset gives others) and rejects bad ones."""
    br = make_classifier("linear_svc", random_state=1)
    assert br.estimator.C == 1.0 and br.estimator.tol == 1e-4
    br = make_classifier("linear_svc", {"C": 3.0, "tol": 1e-3}, random_state=1)
    assert br.estimator.C == 3.0 and br.estimator.tol == 1e-3
    assert make_classifier("mlknn", {"k": 5}).k == 5
    lr = make_classifier("br", {"estimator": "sklearn.linear_model.LogisticRegression"})
    assert isinstance(lr.estimator, LogisticRegression)
    with pytest.raises(ConfigError, match="unknown classifier"):
        make_classifier("svm")
    with pytest.raises(ConfigError, match="bad parameters"):
        make_classifier("br", {"estimator": "sklearn.svm.LinearSVC", "K": 3})
    unknown = r"classifier 'mlknn': unknown parameter\(s\) \['K'\]; allowed: k, s,"
    with pytest.raises(ConfigError, match=unknown):
        make_classifier("mlknn", {"K": 3})
    with pytest.raises(ConfigError, match="'linear_svc': unknown .* allowed: C, tol, "):
        make_classifier("linear_svc", {"c": 3})
    with pytest.raises(ConfigError, match="scikit-learn class path"):
        make_classifier("br", {"estimator": "os.system"})


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("mlknn", {"k": 0}, "classifier 'mlknn': k must be an int >= 1, got 0"),
        ("mlknn", {"s": -1.0}, "classifier 'mlknn': s must be a number >= 0, got -1.0"),
        (
            "mlknn",
            {"scaling": "zscore"},
            "classifier 'mlknn': scaling must be one of none, minmax; got 'zscore'",
        ),
        ("linear_svc", {"C": 0}, "classifier 'linear_svc': C must be a number > 0"),
        ("linear_svc", {"tol": True}, "tol must be a number > 0, got True"),
    ],
)
def test_a_classifier_parameter_out_of_range_is_named(name, params, message):
    """Check a declared parameter's value is checked before the estimator is
    built: one ConfigError naming the classifier, the parameter, the range and
    the value."""
    with pytest.raises(ConfigError) as caught:
        make_classifier(name, params)
    assert message in str(caught.value)


def test_declared_defaults_are_the_factories_and_plain_names_pass_through():
    """Check the Options' defaults build the same estimators as before (C = 3,
    tol = 1e-3; k = 10, s = 1), an int for a float option becomes a float, and
    LinearSVC's other parameters pass through to it unchecked here."""
    from mlfs_core.evaluation.classifiers import LINEAR_SVC_OPTIONS, MLKNN_OPTIONS

    assert {o.name: o.default for o in LINEAR_SVC_OPTIONS} == {"C": 1.0, "tol": 1e-4}
    assert {o.name: o.default for o in MLKNN_OPTIONS} == {
        "k": 10,
        "s": 1.0,
        "scaling": "none",
    }
    br = make_classifier("linear_svc", {"C": 2, "dual": True, "max_iter": 50})
    assert br.estimator.C == 2.0 and type(br.estimator.C) is float
    assert br.estimator.dual is True and br.estimator.max_iter == 50
    knn = make_classifier("mlknn", {"k": np.int64(4)})
    assert (knn.k, knn.s, knn.scaling) == (4, 1.0, "none") and type(knn.k) is int
