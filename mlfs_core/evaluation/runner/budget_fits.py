"""Protocol B's fits of one ranking at every budget, in one task.

Protocol B trains ML-kNN on the top 1, 2, ..., 50 columns of each ranking.
Fitting each budget separately (:func:`~._tasks.run_fit`) repeats most of the
work, so :func:`run_mlknn_budgets` does it once per ranking:

- only the ranking's top columns are discretized, fitted on the training
  part (per-column edges, so the codes equal those of the whole matrix), in
  ``uint8`` when they fit;
- neighbour counts for every budget come from one pass over the columns
  (:func:`~._prefix_knn.prefix_neighbour_counts`: exact integer distances,
  the determinism rule's neighbours, a sparse kNN-graph product for the
  counts);
- ML-kNN's tables and posteriors reuse :mod:`.mlknn`'s functions, and the
  metrics :func:`~.metrics.lean_metrics`.

Every value equals what :func:`~._tasks.run_fit` gives for the same budget
(tested exactly); only the timings differ. Budgets wider than
:data:`PREFIX_MAX_WIDTH` columns (AF on a wide dataset) get their neighbours
from one exact search on their columns, where the matrix product is cheaper
than one pass per column. Under an evaluation with conventions
(:mod:`~mlfs_core.evaluation.conventions`) the same path applies them: the
classifier they name (its :attr:`~.MLkNN.include_self` and
:meth:`~.MLkNN.decide`), their metric variants and their label rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from time import perf_counter

import numpy as np

from ..._validation import check_Y
from ...measures.discretize import Discretizer
from ..classifiers import make_classifier
from ..classifiers.mlknn import MLkNN, mlknn_posteriors, mlknn_tables
from ..classifiers.neighbors import neighbour_label_counts
from ..classifiers.prefix_knn import prefix_neighbour_counts
from ..conventions import resolve
from ..metrics import VARIANT_METRICS, lean_metrics, lean_variant_metrics
from .tasks import FitValues

PREFIX_MAX_WIDTH = 256


def batchable(classifier: tuple[str, dict], discretize: str, scaling: str) -> bool:
    """Whether :func:`run_mlknn_budgets` reproduces ``run_fit`` for this protocol.

    True for ML-kNN without feature scaling on discretized input (protocol
    B): integer codes make every distance exact, whatever the column order.
    """
    name, params = classifier
    if discretize == "none" or scaling != "none":
        return False
    model = make_classifier(name, params)
    return isinstance(model, MLkNN) and model.scaling == "none"


def run_mlknn_budgets(
    X_train,
    Y_train,
    X_test,
    Y_test,
    budgets: Sequence[int],
    *,
    classifier: tuple[str, dict],
    seed: int,
    metrics: tuple[str, ...],
    drop_constant: bool,
    discretize: str,
    bins: int,
    evaluation: str = "definition",
) -> list[dict]:
    """ML-kNN fits on the first ``b`` columns for every ``b`` in ``budgets``.

    Parameters
    ----------
    X_train, X_test : array or sparse matrix
        The raw values of the ranking's top ``max(budgets)`` columns, in
        ranking order.
    Y_train, Y_test : ndarray of 0/1
    budgets : sequence of int
    classifier : (name, params)
        An ``"mlknn"`` classifier (see :func:`batchable`).
    seed, metrics, drop_constant
        As for :func:`~._tasks.run_fit` (ML-kNN does not use the seed).
    discretize, bins
        The protocol's discretization (fitted on the training part).
    evaluation : str
        A canonical evaluation (:func:`~mlfs_core.evaluation.conventions.canonical`):
        its conventions may name another ML-kNN classifier (whose
        ``include_self`` and ``decide`` apply), metric variants and a label
        rule (applied by :class:`_Scorer`).

    Returns
    -------
    list of dict
        One :func:`~._tasks.run_fit` result per budget, in the given order.
    """
    del seed
    start = perf_counter()
    codes_train, codes_test = _codes(X_train, X_test, discretize, bins)
    conventions = resolve(evaluation)
    name = next((c.classifier for c in conventions if c.classifier), classifier[0])
    model = make_classifier(name, classifier[1])
    Y = check_Y(Y_train, codes_train.shape[0]).astype(np.int64)
    k = int(max(0, min(model.k, Y.shape[0] - 1)))
    loo = not model.include_self
    train_counts, train_s = _counts(codes_train, codes_train, Y, k, budgets, loo)
    test_counts, test_s = _counts(codes_test, codes_train, Y, k, budgets, False)
    score = _Scorer(Y_train, Y_test, metrics, drop_constant, evaluation)
    out = {}
    for b in budgets:
        tic = perf_counter()
        prior, pos, neg = mlknn_tables(train_counts[b], Y, k, model.s)
        fit_s = train_s[b] + perf_counter() - tic
        tic = perf_counter()
        posterior = mlknn_posteriors(prior, pos, neg, test_counts[b])
        Y_pred = model.decide(prior, pos, neg, test_counts[b], posterior)
        predict_s = test_s[b] + perf_counter() - tic
        tic = perf_counter()
        out[b] = FitValues(
            metrics=score(Y_pred, posterior),
            fit_seconds=fit_s,
            predict_seconds=predict_s,
            metric_seconds=perf_counter() - tic,
            n_fitted=int(Y.shape[1]),
            n_not_converged=0,
        )
    first = out[budgets[0]]
    shared = perf_counter() - start - sum(_busy(v) for v in out.values())
    # discretization and bookkeeping count as the first budget's fit time
    out[budgets[0]] = replace(first, fit_seconds=first.fit_seconds + max(shared, 0.0))
    return [out[b].to_dict() for b in budgets]


class _Scorer:
    """The metrics of one prediction under an evaluation's conventions.

    With no convention: ours (:func:`~.metrics.lean_metrics`, labels
    constant in the training part dropped when ``drop_constant``). Else: the
    labels the conventions' rule keeps (``"train_or_test"``: not constant in
    the training part nor in the test part), then each metric under its
    variant where a convention substitutes one (variants on 0/1 predictions
    need two labels, else NaN), ours for the rest.
    """

    def __init__(self, Y_train, Y_test, metrics, drop_constant, evaluation):
        self.Y_train, self.Y_test, self.metrics = Y_train, Y_test, metrics
        conventions = resolve(evaluation)
        self.plain, self.mask = not conventions, None
        self.variants = {m: m for m in metrics if m in VARIANT_METRICS}
        for c in conventions:
            self.variants.update(
                {m: v for m, v in c.metric_variants.items() if m in metrics}
            )
        if any(c.label_rule == "train_or_test" for c in conventions):
            self.mask = _varies(Y_train) & _varies(Y_test)
        elif drop_constant:
            positives = np.asarray(Y_train).sum(axis=0)
            self.mask = (positives > 0) & (positives < Y_train.shape[0])

    def __call__(self, Y_pred, posterior) -> dict[str, float]:
        if self.plain:
            return lean_metrics(
                self.Y_test,
                Y_pred,
                posterior,
                metrics=self.metrics,
                label_mask=self.mask,
            )
        return self._mixed(Y_pred, posterior)

    def _mixed(self, Y_pred, posterior) -> dict[str, float]:
        Y, P = np.asarray(self.Y_test), np.asarray(Y_pred)
        S = np.asarray(posterior, dtype=float)
        if self.mask is not None:
            Y, P, S = Y[:, self.mask], P[:, self.mask], S[:, self.mask]
        if Y.shape[1] == 0:
            return dict.fromkeys(self.metrics, float("nan"))
        theirs = self.variants
        ours = [m for m in self.metrics if m not in theirs]
        out = lean_metrics(Y, P, S, metrics=ours) if ours else {}
        if theirs and Y.shape[1] < 2:
            # the variants on 0/1 predictions need two labels
            for m, v in theirs.items():
                single = v.endswith("_on_predictions")
                out[m] = (
                    float("nan") if single else VARIANT_METRICS[v].function(Y, P, P)
                )
        elif theirs:
            values = lean_variant_metrics(Y, P, sorted(set(theirs.values())))
            out.update({m: values[v] for m, v in theirs.items()})
        return {m: out[m] for m in self.metrics}


def _varies(Y) -> np.ndarray:
    Y = np.asarray(Y)
    if Y.shape[0] == 0:
        return np.zeros(Y.shape[1], dtype=bool)
    return Y.min(axis=0) != Y.max(axis=0)


def _busy(result: FitValues) -> float:
    return result.fit_seconds + result.predict_seconds + result.metric_seconds


def _codes(X_train, X_test, discretize: str, bins: int):
    disc = Discretizer(bins=bins, strategy=discretize).fit(X_train)
    train, test = disc.transform(X_train), disc.transform(X_test)
    small = np.uint8 if max(train.max(initial=0), test.max(initial=0)) < 256 else None
    if small is not None and min(train.min(initial=0), test.min(initial=0)) >= 0:
        return train.astype(small), test.astype(small)
    return train, test


def _counts(Xq, Xt, Y, k: int, budgets, exclude_self: bool):
    """Neighbour counts per budget: nested prefixes, or one search when wide."""
    if k == 0:
        zeros = np.zeros((Xq.shape[0], Y.shape[1]), dtype=np.int64)
        return dict.fromkeys(budgets, zeros), dict.fromkeys(budgets, 0.0)
    narrow = [b for b in budgets if b <= PREFIX_MAX_WIDTH]
    counts, seconds = {}, {}
    if narrow:
        counts, seconds = prefix_neighbour_counts(
            Xq, Xt, Y, k, narrow, exclude_self=exclude_self
        )
    for b in budgets:
        if b not in counts:  # the matrix product beats one pass per column
            tic = perf_counter()
            A, B = Xq[:, :b].astype(np.float64), Xt[:, :b].astype(np.float64)
            counts[b] = neighbour_label_counts(A, B, Y, k, exclude_self=exclude_self)
            seconds[b] = perf_counter() - tic
    return counts, seconds
