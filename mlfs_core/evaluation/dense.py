"""The dense-data warning: presence-based scores meeting dense numeric data.

CS, BNS and the other 2x2-table scores count a feature as *present* in a
sample when it is non-zero (``binarize = "presence"``, METHODS.md section 2).
On dense numeric data (emotions, yeast) nearly every feature is non-zero in
nearly every sample, so the tables are almost all "present": the scores say
little, many tie, and ties fall back to index order (MaxCS and MeanCS then
select the same features in nearly the same order). The cure is
``binarize = "median"`` (present = above the feature's median).

This module decides when to say so, and says it the same way everywhere:
``mlfs experiment``, ``mlfs rank``, ``mlfs scores`` and the app's Experiment
page. The warning names the methods it concerns and only those: a method
without a ``binarize`` option (ATR, PMU, Random, ...) or one already given
``binarize = "median"`` never triggers it.

Examples
--------
>>> import numpy as np
>>> X = np.arange(1.0, 41.0).reshape(10, 4)  # every value non-zero
>>> message = dense_warning(X, presence_methods(["MaxCS", "ATR"]), dataset="toy")
>>> message.split(":")[0], "MaxCS" in message, "ATR" in message
('toy', True, False)
>>> dense_warning(X, presence_methods(["ATR"])) is None
True
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

from ..data.describe import DENSE_PRESENCE, DENSE_SHARE, dense_share
from ..errors import ConfigError

__all__ = [
    "DenseDataWarning",
    "dense_warning",
    "presence_methods",
    "warn_dense_data",
]

PRESENCE = "presence"
"""The ``binarize`` rule that counts any non-zero value as present."""
_ADVICE = (
    'set binarize = "median" (present = above the feature\'s median): '
    'params = { binarize = "median" } in a config, the app\'s "CS/BNS: a '
    'feature is present when" choice, --binarize median for mlfs rank and '
    "mlfs scores"
)


class DenseDataWarning(UserWarning):
    """Presence-based scores (CS, BNS, ...) are used on dense numeric data."""


def presence_methods(methods: Iterable) -> list[str]:
    """The methods of ``methods`` that count a non-zero feature as present.

    Parameters
    ----------
    methods : iterable
        Method names, :class:`~mlfs_core.evaluation.MethodConfig` s or the
        runner's prepared methods (anything with ``name`` and ``params``,
        and ``display`` or ``label``).

    Returns
    -------
    list of str
        The labels (as in the results' ``method`` column) of the registered
        methods that have a ``binarize`` option left at ``"presence"``, in
        the given order; unknown names are skipped.

    Examples
    --------
    >>> from mlfs_core.evaluation import MethodConfig
    >>> presence_methods(["MaxCS", "ATR", MethodConfig("MeanBNS", {"binarize": "median"})])
    ['MaxCS']
    """  # noqa: E501
    from ..selectors._registry import get_method

    out = []
    for m in methods:
        name = m if isinstance(m, str) else m.name
        params = {} if isinstance(m, str) else dict(m.params or {})
        label = name if isinstance(m, str) else _label(m)
        try:
            spec = get_method(name)
        except ConfigError:
            continue
        option = next((o for o in spec.options if o.name == "binarize"), None)
        if option is not None and params.get("binarize", option.default) == PRESENCE:
            out.append(label)
    return out


def _label(m) -> str:
    display = getattr(m, "display", None)
    return display or getattr(m, "label", None) or m.name


def dense_warning(X, names: Iterable[str], *, dataset: str | None = None) -> str | None:
    """The warning for the presence-based ``names`` on ``X``, or None.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
        The feature values.
    names : iterable of str
        What counts presence on ``X`` (e.g. :func:`presence_methods`, or a
        measure's name); empty gives None.
    dataset : str, optional
        Put before the message.

    Returns
    -------
    str or None
        None unless ``names`` is non-empty and at least ``DENSE_SHARE`` of
        the features are non-zero in at least ``DENSE_PRESENCE`` of the
        samples (the rule of :func:`mlfs_core.data.describe.data_warnings`).
        The message says what happens and what to do.
    """
    names = list(dict.fromkeys(names))
    n_samples = X.shape[0]
    if not names or n_samples < 2:
        return None
    share = dense_share(X)
    if share < DENSE_SHARE:
        return None
    head = f"{dataset}: " if dataset else ""
    return (
        f"{head}Dense data: {share:.0%} of the features are non-zero in at least "
        f"{DENSE_PRESENCE:.0%} of the samples. For {', '.join(names)} a feature is "
        "present when non-zero, so almost every feature is present everywhere: "
        "the scores say little, many tie and ties fall back to feature index "
        f"order (methods of one score then select alike). To fix it, {_ADVICE}."
    )


def warn_dense_data(plan) -> list[str]:
    """Issue a :class:`DenseDataWarning` per dense dataset of an experiment plan.

    Parameters
    ----------
    plan : mlfs_core.evaluation.Plan
        What :func:`~mlfs_core.evaluation.plan_experiment` returns (its
        datasets are loaded already, so nothing is read twice).

    Returns
    -------
    list of str
        The messages warned, one per dataset that is dense under at least one
        of the plan's presence-based methods.
    """
    datasets, methods = {}, {}
    for s in plan.selections:
        datasets.setdefault(s.dataset.name, s.dataset.dataset)
        methods.setdefault(s.method.label, s.method)
    names = presence_methods(methods.values())
    messages = []
    for name, ds in datasets.items():
        message = dense_warning(ds.X, names, dataset=name)
        if message is not None:
            warnings.warn(DenseDataWarning(message), stacklevel=2)
            messages.append(message)
    return messages
