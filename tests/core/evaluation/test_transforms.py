"""The evaluators papers use: classifier chains, label powerset, CART per label."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.multioutput import ClassifierChain as SkChain
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from mlfs_core import check_rng
from mlfs_core._random import derive_seed
from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import make_classifier
from mlfs_core.evaluation.classifiers import kernel_dependent
from mlfs_core.evaluation.classifiers.transforms import chain_order

NAMES = ("cc", "lp", "cart")


def _data(seed=0, n=60, m=6, q=4):
    rng = np.random.default_rng(seed)
    X = rng.random((n, m))
    logits = X @ rng.normal(size=(m, q)) - 1.0
    Y = (logits + 0.3 * rng.normal(size=(n, q)) > 0).astype(int)
    Y[:, 0] = (X[:, 0] > 0.5).astype(int)  # every label varies
    Y[0, :] = 1
    Y[1, :] = 0
    return X, Y


@pytest.mark.parametrize("name", NAMES)
def test_scores_have_the_shape_of_the_labels_and_are_finite(name):
    """Check predict is 0/1 and decision_function finite, both (n, q), on
    dense and sparse X alike (the same values)."""
    X, Y = _data()
    model = make_classifier(name, {}, random_state=1).fit(X[:40], Y[:40])
    pred, scores = model.predict(X[40:]), model.decision_function(X[40:])
    assert pred.shape == scores.shape == (20, 4)
    assert set(np.unique(pred)) <= {0, 1} and np.isfinite(scores).all()
    sparse = make_classifier(name, {}, random_state=1).fit(
        sp.csr_matrix(X[:40]), Y[:40]
    )
    np.testing.assert_array_equal(sparse.predict(sp.csr_matrix(X[40:])), pred)
    np.testing.assert_allclose(
        sparse.decision_function(sp.csr_matrix(X[40:])), scores, rtol=1e-6, atol=1e-8
    )
    assert kernel_dependent(name) is True


@pytest.mark.parametrize("name", NAMES)
def test_the_same_seed_gives_the_same_bits(name):
    """Check two fits with one seed agree bit for bit."""
    X, Y = _data(seed=3)
    a = make_classifier(name, {}, random_state=5).fit(X, Y).decision_function(X)
    b = make_classifier(name, {}, random_state=5).fit(X, Y).decision_function(X)
    assert a.tobytes() == b.tobytes()


def test_the_same_seed_gives_the_same_bits_in_a_worker_process():
    """Check a chain fitted in a loky worker gives the parent's bits."""
    from joblib import Parallel, delayed

    X, Y = _data(seed=4)

    def scores(seed):
        model = make_classifier("cc", {"base": "linear_svc"}, random_state=seed)
        return model.fit(X, Y).decision_function(X)

    here = scores(9)
    (there,) = Parallel(n_jobs=2, backend="loky")(delayed(scores)(s) for s in [9])
    assert here.tobytes() == there.tobytes()


def test_the_chain_order_is_the_seeds_permutation_and_changes_with_it():
    """Check the documented rule: order = check_rng(seed).permutation(q)."""
    X, Y = _data(q=5)
    model = make_classifier("cc", {}, random_state=11).fit(X, Y)
    expected = np.random.default_rng(11).permutation(5)
    np.testing.assert_array_equal(model.order_, expected)
    assert any(
        not np.array_equal(chain_order(5, s), chain_order(5, 11)) for s in range(5)
    )


@pytest.mark.parametrize("base", ["logistic_regression", "linear_svc"])
def test_the_chain_agrees_with_scikit_learns(base):
    """Check predictions and scores equal sklearn's ClassifierChain with the same
    order and the same seeded base classifier."""
    X, Y = _data(seed=2)
    ours = make_classifier("cc", {"base": base, "C": 0.5}, random_state=7).fit(X, Y)
    seed = derive_seed(check_rng(7))
    if base == "logistic_regression":
        estimator = LogisticRegression(C=0.5, max_iter=1000, random_state=seed)
    else:
        estimator = LinearSVC(C=0.5, random_state=seed)
    theirs = SkChain(estimator, order=list(ours.order_)).fit(X, Y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(
        ours.decision_function(X), theirs.decision_function(X), rtol=1e-10
    )


def test_cart_is_a_seeded_tree_per_label():
    """Check cart equals one DecisionTreeClassifier per label with the seed,
    its scores the trees' positive-class probabilities."""
    X, Y = _data(seed=6)
    ours = make_classifier("cart", {"max_depth": 3}, random_state=2).fit(X, Y)
    for j in range(Y.shape[1]):
        tree = DecisionTreeClassifier(max_depth=3, random_state=2).fit(X, Y[:, j])
        np.testing.assert_array_equal(ours.predict(X)[:, j], tree.predict(X))
        np.testing.assert_array_equal(
            ours.decision_function(X)[:, j], tree.predict_proba(X)[:, 1]
        )


def test_the_label_powerset_is_a_multiclass_model_of_the_label_sets():
    """Check lp against a plain computation: classes are the distinct label
    sets, the prediction the most probable set, a label's score the summed
    probability of the sets holding it."""
    X, Y = _data(seed=8)
    ours = make_classifier("lp", {"base": "cart"}, random_state=4).fit(X, Y)
    sets = sorted({tuple(row) for row in Y.tolist()})
    classes = np.array([sets.index(tuple(row)) for row in Y.tolist()])
    seed = derive_seed(check_rng(4))
    tree = DecisionTreeClassifier(random_state=seed).fit(X, classes)
    proba = tree.predict_proba(X)
    expected_scores = np.zeros_like(Y, dtype=float)
    expected_pred = np.zeros_like(Y)
    for i in range(len(X)):
        expected_pred[i] = sets[int(np.argmax(proba[i]))]
        for c, labels in enumerate(sets):
            expected_scores[i] += proba[i, c] * np.array(labels)
    np.testing.assert_array_equal(ours.predict(X), expected_pred)
    np.testing.assert_allclose(ours.decision_function(X), expected_scores)


@pytest.mark.parametrize("name", NAMES)
def test_a_label_never_present_gets_a_constant_and_finite_scores(name):
    """Check a label absent from training is never predicted, and every score
    stays finite (also with a single training label set, and one sample)."""
    X, Y = _data(seed=9)
    Y[:, 2] = 0
    model = make_classifier(name, {}, random_state=0).fit(X, Y)
    assert model.predict(X)[:, 2].sum() == 0
    assert np.isfinite(model.decision_function(X)).all()
    same = np.tile([1, 0, 0, 1], (10, 1))
    model = make_classifier(name, {}, random_state=0).fit(X[:10], same)
    np.testing.assert_array_equal(
        model.predict(X[10:13]), np.tile([1, 0, 0, 1], (3, 1))
    )
    assert np.isfinite(model.decision_function(X[10:13])).all()


def test_bad_parameters_are_named():
    """Check an unknown base and an out-of-range depth are clear errors."""
    with pytest.raises(ConfigError, match="base must be one of"):
        make_classifier("lp", {"base": "linear_svc"})
    with pytest.raises(ConfigError, match="max_depth"):
        make_classifier("cart", {"max_depth": -1})
