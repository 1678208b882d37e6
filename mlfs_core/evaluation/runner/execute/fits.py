"""The classifier fits of an experiment: every (selection, budget) fit, once.

:func:`run_fits` runs (or fetches from the cache) every fit of a plan, with
two savings that leave every value unchanged:

1. **Reuse.** A fit whose columns were already fitted on the same fold (AF
   and a 100 % budget, two methods selecting the same top k) is not run
   again: it gets a copy of that fit's values, marked ``reused`` (timings 0).
   "Same columns" means the same ordered column list for classifiers whose
   result may depend on the column order in the last bits (LinearSVC sums in
   column order), and the same column *set* for ML-kNN on integer codes
   (exact distances, order-free). Each fit still gets its own cache entry
   under its own key.
2. **Budgets together.** Protocol B trains ML-kNN on the top 1, 2, ..., 50
   columns of each ranking (:func:`_batchable`); fitting each budget
   separately (:func:`~.tasks.run_fit`) repeats most of the work, so
   :func:`run_mlknn_budgets` does it once per ranking, in one task:

   - only the ranking's top columns are discretized, fitted on the training
     part (per-column edges, so the codes equal those of the whole matrix),
     in ``uint8`` when they fit;
   - neighbour counts for every budget come from one pass over the columns
     (:func:`~mlfs_core.evaluation.classifiers.prefix_knn.prefix_neighbour_counts`:
     exact integer distances, the determinism rule's neighbours, a sparse
     kNN-graph product for the counts);
   - ML-kNN's tables and posteriors reuse
     :mod:`~mlfs_core.evaluation.classifiers.mlknn`'s functions, and the
     metrics :func:`~mlfs_core.evaluation.metrics.lean_metrics`.

   Every value equals what :func:`~.tasks.run_fit` gives for the same budget
   (tested exactly); only the timings differ. Budgets wider than
   :data:`PREFIX_MAX_WIDTH` columns (AF on a wide dataset) get their
   neighbours from one exact search on their columns, where the matrix
   product is cheaper than one pass per column. Under an evaluation with
   conventions (:mod:`~mlfs_core.evaluation.conventions`) the same path
   applies them: the classifier they name (its ``include_self`` and
   ``decide``), their metric variants and their label rule.

Elsewhere each fit is a task of :func:`~.tasks.run_fit`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import replace
from time import perf_counter

import numpy as np

from ...._entries import check_fit
from ...._validation import check_Y
from ....columns import REUSED
from ....measures.discretize import Discretizer
from ...classifiers import kernel_dependent, make_classifier
from ...classifiers.mlknn import MLkNN, mlknn_posteriors, mlknn_tables
from ...classifiers.neighbors import neighbour_label_counts
from ...classifiers.prefix_knn import prefix_neighbour_counts
from ...conventions import resolve
from ...metrics import VARIANT_METRICS, lean_metrics, lean_variant_metrics
from ..identity import task_seed
from .pool import parallel
from .tasks import FitValues, run_fit

GROUP_BUDGETS = True
"""Run protocol B's budgets of a ranking together (False: one task per fit;
the benchmark switches it off to show the gain; values are the same)."""


def run_fits(plan, orders, cache, n_jobs, tracker, *, reuse: bool = True) -> list[dict]:
    """Run (or fetch) every fit of ``plan``, each cached under ``plan.fit_key(i)``.

    ``orders`` holds each selection's ranking (``{"order": [...], ...}``,
    None where no fit needs it). With ``reuse`` (default), a fit whose
    columns equal an earlier fit's on the same fold gets a copy of its values
    (see the module docstring).
    """
    selections, fits, config = plan.selections, plan.fits, plan.config
    p = config.protocol
    classifier = (p.classifier.name, p.classifier.params)
    order_free = _batchable(classifier, p.discretize, p.scaling)
    # a registered convention's fits (evaluation other than "definition")
    # exist only on the batched path (one budget per task when GROUP_BUDGETS
    # is off)
    grouped = order_free and (GROUP_BUDGETS or p.evaluation != "definition")
    keys = [plan.fit_key(i) for i in range(len(fits))]
    check = check_fit(p.metrics)
    out: list = [cache.get(key, check) for key in keys]
    for i, v in enumerate(out):
        if v is not None:
            tracker.step(f"{_label(selections, fits, i)} (cached)")
    source = _sources(selections, fits, orders, out, order_free, reuse)
    needed = sorted({source[i] for i, v in enumerate(out) if v is None})
    needed = [i for i in needed if out[i] is None]
    runner = _GroupedFits if grouped else _SingleFits
    with closing(runner(selections, fits, orders, config).run(needed, n_jobs)) as got:
        for i, value in got:
            cache.set(keys[i], value)
            out[i] = value
            tracker.step(_label(selections, fits, i))
    for i, v in enumerate(out):
        if v is not None:
            continue
        if keys[i] == keys[source[i]]:
            # The same task twice (e.g. one method under two labels): one
            # cache entry, both get its values as they would from the cache.
            out[i] = out[source[i]]
        else:
            out[i] = _reused(out[source[i]])
            cache.set(keys[i], out[i])
        tracker.step(f"{_label(selections, fits, i)} (reused)")
    return out


def _label(selections, fits, i: int) -> str:
    s, k = selections[fits[i][0]], fits[i][1]
    return f"fit {s.dataset.name} {s.method.label} k={k} fold {s.fold}"


def _sources(selections, fits, orders, out, order_free: bool, reuse: bool):
    """Per fit, the fit whose values it takes: itself, or an identical earlier one.

    A cached member of a group of identical fits is preferred as the source.
    """
    if not reuse:
        return list(range(len(fits)))
    groups: dict = {}
    for i, (j, k, _) in enumerate(fits):
        s = selections[j]
        cols = tuple(orders[j]["order"][:k])
        cols = tuple(sorted(cols)) if order_free else cols
        groups.setdefault((s.dataset.name, s.fold, cols), []).append(i)
    source = list(range(len(fits)))
    for members in groups.values():
        cached = [i for i in members if out[i] is not None]
        first = cached[0] if cached else members[0]
        for i in members:
            source[i] = i if out[i] is not None else first
    return source


def _reused(value: dict) -> dict:
    copy = dict(value)
    copy["metrics"] = dict(value["metrics"])
    copy.update(fit_seconds=0.0, predict_seconds=0.0, metric_seconds=0.0)
    copy[REUSED] = True
    return copy


def _fit_kwargs(p, seed: int) -> dict:
    """Keyword arguments every fit task gets from the protocol."""
    return {
        "classifier": (p.classifier.name, p.classifier.params),
        "seed": task_seed(seed),
        "metrics": tuple(p.metrics),
        "drop_constant": p.label_handling == "drop_constant",
    }


class _FoldRows:
    """Train/test rows of the current (dataset, fold); fits come ordered by both."""

    def __init__(self):
        self.key, self.value = None, None

    def get(self, d, fold: int):
        if self.key != (d.name, fold):
            train, test = d.splits[fold]
            X, Y = d.dataset.X, np.asarray(d.dataset.Y)
            self.key = (d.name, fold)
            self.value = (X[train], Y[train], X[test], Y[test])
        return self.value


class _SingleFits:
    """One :func:`run_fit` task per fit (discretized input if the protocol says so)."""

    def __init__(self, selections, fits, orders, config):
        self.selections, self.fits, self.orders = selections, fits, orders
        self.protocol, self.seed = config.protocol, config.seed
        self.rows = _FoldRows()
        self.codes_key, self.codes = None, None

    def run(self, needed, n_jobs: int) -> Iterator[tuple[int, dict]]:
        c = self.protocol.classifier
        dependent = kernel_dependent(c.name, c.params)
        calls = parallel(needed, self._call, n_jobs, kernel_dependent=dependent)
        try:
            yield from calls
        finally:
            calls.close()

    def _call(self, i: int):
        j, k, _ = self.fits[i]
        s = self.selections[j]
        X_train, Y_train, X_test, Y_test = self._fold(s)
        cols = np.asarray(self.orders[j]["order"][:k], dtype=np.int64)
        kwargs = _fit_kwargs(self.protocol, self.seed)
        kwargs["scaling"] = self.protocol.scaling
        kwargs["place"] = (
            f"dataset {s.dataset.name!r}, fold {s.fold}, repeat {s.repeat}, budget {k}"
        )
        return run_fit, (X_train[:, cols], Y_train, X_test[:, cols], Y_test), kwargs

    def _fold(self, s):
        X_train, Y_train, X_test, Y_test = self.rows.get(s.dataset, s.fold)
        if self.protocol.discretize == "none":
            return X_train, Y_train, X_test, Y_test
        if self.codes_key != self.rows.key:
            p = self.protocol
            disc = Discretizer(bins=p.bins, strategy=p.discretize)
            self.codes_key = self.rows.key
            self.codes = (
                disc.fit(X_train).transform(X_train).astype(np.float64),
                disc.transform(X_test).astype(np.float64),
            )
        return self.codes[0], Y_train, self.codes[1], Y_test


class _GroupedFits:
    """One :func:`run_mlknn_budgets` task per selection, for its needed budgets."""

    def __init__(self, selections, fits, orders, config):
        self.selections, self.fits, self.orders = selections, fits, orders
        self.protocol, self.seed = config.protocol, config.seed
        self.rows = _FoldRows()

    def run(self, needed, n_jobs: int) -> Iterator[tuple[int, dict]]:
        groups: dict[int, list[int]] = {}
        for i in needed:
            groups.setdefault(self.fits[i][0], []).append(i)
        members = list(groups.values())
        calls = range(len(members))
        results = parallel(calls, lambda g: self._call(members[g]), n_jobs)
        try:
            for g, values in results:
                yield from zip(members[g], values)
        finally:
            results.close()

    def _call(self, group: list[int]):
        j = self.fits[group[0]][0]
        s = self.selections[j]
        budgets = [self.fits[i][1] for i in group]
        X_train, Y_train, X_test, Y_test = self.rows.get(s.dataset, s.fold)
        cols = np.asarray(self.orders[j]["order"][: max(budgets)], dtype=np.int64)
        kwargs = _fit_kwargs(self.protocol, self.seed)
        p = self.protocol
        kwargs.update(discretize=p.discretize, bins=p.bins, evaluation=p.evaluation)
        args = (X_train[:, cols], Y_train, X_test[:, cols], Y_test, budgets)
        return run_mlknn_budgets, args, kwargs


PREFIX_MAX_WIDTH = 256


def _batchable(classifier: tuple[str, dict], discretize: str, scaling: str) -> bool:
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
        An ``"mlknn"`` classifier (see :func:`_batchable`).
    seed, metrics, drop_constant
        As for :func:`~.tasks.run_fit` (ML-kNN does not use the seed).
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
        One :func:`~.tasks.run_fit` result per budget, in the given order.
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

    With no convention: ours (:func:`~mlfs_core.evaluation.metrics.lean_metrics`, labels
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
