"""An example plug-in file: one ranking method, one classifier, one metric.

Load it with ``mlfs --plugin example_plugin.py ...``, ``plugins =
["example_plugin.py"]`` in an experiment config, or
``mlfs_core.plugins.load_plugins(["example_plugin.py"])``.
"""

import numpy as np
from sklearn.linear_model import RidgeClassifier

from mlfs_core.evaluation.classifiers import BinaryRelevance, register_classifier
from mlfs_core.evaluation.metrics import register_metric
from mlfs_core.selectors import register


def SumPearson(X, Y, *, k, random_state):
    """Rank features by the sum over labels of the absolute Pearson correlation."""
    X = X.toarray()  # the engine passes a CSR matrix and a 0/1 int8 matrix
    Xc = X - X.mean(axis=0)
    Yc = Y - Y.mean(axis=0)
    norms = np.sqrt((Xc**2).sum(axis=0))[:, None] * np.sqrt((Yc**2).sum(axis=0))
    r = np.abs(Xc.T @ Yc)
    r = np.divide(r, norms, out=np.zeros_like(r), where=norms > 0)
    scores = r.sum(axis=1)  # 0 for a constant feature or label: always finite
    order = np.argsort(-scores, kind="stable")[:k]
    return order, scores


def ridge_br(*, random_state, alpha=1.0):
    """Binary Relevance over scikit-learn's RidgeClassifier."""
    return BinaryRelevance(RidgeClassifier(alpha=alpha))


def cardinality_error(Y_true, Y_pred, scores):
    """Absolute difference of the mean number of true and predicted labels."""
    return float(abs(Y_true.sum(axis=1).mean() - Y_pred.sum(axis=1).mean()))


register(SumPearson, version="1")
register_classifier("ridge_br", ridge_br, version="1")
register_metric(
    "cardinality_error",
    cardinality_error,
    higher_is_better=False,
    description="error in the mean number of labels per sample",
    version="1",
)
