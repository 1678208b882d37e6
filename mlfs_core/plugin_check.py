"""``mlfs check-plugin``: run what a plug-in registers on a tiny dataset.

:func:`check_plugin` loads one plug-in (a ``.py`` file or a module name) and
runs each method, classifier and metric it registered on a small generated
corpus (:func:`mlfs_core.data.synthetic.make_planted_corpus`, 60 documents,
40 words, 3 labels), reporting for each: its signature, the shape of its
output, whether the output is finite, whether two runs with the same seed
agree bit for bit, and how long one run takes. Problems are reported, not
raised, so every item gets its row.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass

import numpy as np

__all__ = ["CheckRow", "check_plugin"]

_N_DOCUMENTS, _N_WORDS, _N_LABELS, K = 60, 40, 3, 5


@dataclass(frozen=True)
class CheckRow:
    """The check of one registered item.

    Attributes
    ----------
    kind : {"method", "classifier", "metric", "preset"}
    name : str
    signature : str
        The callable's signature (the function a method or metric was made
        from, a classifier's factory).
    shape : str
        The shape of what it returned (``order (5,) scores (40,)``, ...).
    finite : bool
        Every returned number is finite.
    deterministic : bool
        A second run with the same seed returned the same values, bit for bit.
    seconds : float
        Wall time of one run.
    problem : str
        "" when everything passed, else what went wrong (the error's message).
    """

    kind: str
    name: str
    signature: str = ""
    shape: str = ""
    finite: bool = False
    deterministic: bool = False
    seconds: float = float("nan")
    problem: str = ""

    @property
    def ok(self) -> bool:
        """Whether the item passed every check."""
        return not self.problem and self.finite and self.deterministic


def _signature(fn) -> str:
    target = getattr(fn, "function", None) or fn
    try:
        return f"{getattr(target, '__name__', type(target).__name__)}" + str(
            inspect.signature(target)
        )
    except (TypeError, ValueError):
        return repr(target)


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def _same(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def _data():
    from .data.synthetic import make_planted_corpus

    dataset, _ = make_planted_corpus(
        _N_DOCUMENTS, _N_WORDS, _N_LABELS, 2, random_state=0
    )
    return dataset


def _check_method(name: str, dataset) -> CheckRow:
    from .selectors import compute_ranking, get_method

    spec = get_method(name)
    sig = _signature(spec.rank)
    try:
        first, seconds = _timed(
            lambda: compute_ranking(dataset.X, dataset.Y, name, k=K, random_state=0)
        )
        second = compute_ranking(dataset.X, dataset.Y, name, k=K, random_state=0)
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return CheckRow("method", name, sig, problem=" ".join(str(exc).split()))
    shape = f"order {first.order.shape} scores {first.scores.shape}"
    finite = bool(np.isfinite(first.scores).all())
    same = _same(first.order, second.order) and _same(first.scores, second.scores)
    problem = "" if same else "two runs with the same seed differ"
    return CheckRow("method", name, sig, shape, finite, same, seconds, problem)


def _check_classifier(name: str, dataset) -> CheckRow:
    from .evaluation.classifiers import CLASSIFIERS, make_classifier

    sig = _signature(CLASSIFIERS[name])
    X = dataset.X.tocsr().astype(float)
    Y = np.asarray(dataset.Y)
    half = X.shape[0] // 2

    def run():
        model = make_classifier(name, {}, random_state=0)
        model.fit(X[:half], Y[:half])
        return np.asarray(model.predict(X[half:])), np.asarray(
            model.decision_function(X[half:]), dtype=float
        )

    try:
        (pred, scores), seconds = _timed(run)
        pred2, scores2 = run()
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return CheckRow("classifier", name, sig, problem=" ".join(str(exc).split()))
    want = (X.shape[0] - half, Y.shape[1])
    shape = f"predict {pred.shape} decision_function {scores.shape}"
    problem = ""
    if pred.shape != want or scores.shape != want:
        problem = f"outputs must have shape {want}"
    finite = bool(np.isfinite(scores).all())
    same = _same(pred, pred2) and _same(scores, scores2)
    if not same and not problem:
        problem = "two fits with the same seed differ"
    return CheckRow("classifier", name, sig, shape, finite, same, seconds, problem)


def _check_metric(name: str, dataset) -> CheckRow:
    from .evaluation.metrics import compute_metrics, get_metric

    sig = _signature(get_metric(name).function)
    rng = np.random.default_rng(0)
    Y = np.asarray(dataset.Y)
    pred = (rng.random(Y.shape) < 0.3).astype(Y.dtype)
    scores = rng.random(Y.shape)
    try:
        out, seconds = _timed(lambda: compute_metrics(Y, pred, scores, metrics=[name]))
        again = compute_metrics(Y, pred, scores, metrics=[name])
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return CheckRow("metric", name, sig, problem=" ".join(str(exc).split()))
    value = out[name]
    try:
        number = float(value)
    except (TypeError, ValueError):
        return CheckRow(
            "metric", name, sig, type(value).__name__, problem="must return a number"
        )
    same = _same(number, float(again[name]))
    finite = bool(np.isfinite(number))
    problem = "" if same else "two calls on the same input differ"
    return CheckRow("metric", name, sig, "scalar", finite, same, seconds, problem)


def _check_preset(name: str) -> CheckRow:
    """A protocol preset builds its protocol, twice the same (its shape: the
    split, the classifier and the number of budgets)."""
    from .evaluation.config import protocol_preset

    start = time.perf_counter()
    try:
        first, again = protocol_preset(name), protocol_preset(name)
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return CheckRow("preset", name, problem=" ".join(str(exc).split()))
    shape = f"{first.split}, {first.classifier.name}, {len(first.budgets)} budgets"
    seconds = time.perf_counter() - start
    return CheckRow("preset", name, "", shape, True, first == again, seconds)


def check_plugin(spec: str, *, base=None) -> list[CheckRow]:
    """Load the plug-in ``spec`` and check everything it registers.

    Parameters
    ----------
    spec : str
        A ``.py`` file or an importable module name (as for
        :func:`mlfs_core.plugins.load_plugins`).
    base : path, optional
        Folder a relative file path is resolved against (default the working
        directory).

    Returns
    -------
    list of CheckRow
        Methods, then classifiers, then metrics, then protocol presets, in
        registration order.

    Raises
    ------
    ConfigError
        If the plug-in cannot be loaded, or registers nothing.
    """
    from .errors import ConfigError
    from .plugins import load_plugins

    info = load_plugins([spec], base=base, entry_points=False, environment=False)[-1]
    if not (info.methods or info.classifiers or info.metrics or info.presets):
        raise ConfigError(
            f"plugin {spec!r} registers no method, classifier, metric or preset "
            "(nothing to check; was it loaded before in this process?)"
        )
    dataset = _data()
    rows = [_check_method(n, dataset) for n, _ in info.methods]
    rows += [_check_classifier(n, dataset) for n in info.classifiers]
    rows += [_check_metric(n, dataset) for n in info.metrics]
    rows += [_check_preset(n) for n in info.presets]
    return rows
