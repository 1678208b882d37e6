"""A task's identity: the descriptions the runner keys its cache with.

The keys are compared with descriptions written out here, field by field, so
a change of any key (which would orphan every cache and the committed study
data) fails the test.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from mlfs_core.cache import hash_key
from mlfs_core.evaluation import (
    ExperimentConfig,
    plan_experiment,
    protocol_preset,
)
from mlfs_core.evaluation.runner import identity, plan_tuned


def _config(preset="B", **protocol) -> ExperimentConfig:
    return ExperimentConfig(
        datasets=("sample",),
        methods=("MaxCS", "RaRBNS", "AF"),
        protocol=protocol_preset(
            preset, split="cv", n_folds=2, budgets=(2, 5), **protocol
        ),
        seed=7,
    )


def test_selection_keys_hash_their_written_out_description():
    """Check every selection key is hash_key of dataset, split, fold, method,
    params, seed and k, the seed crc32 of (seed, fold, repeat)."""
    config = _config(n_repeats=2)
    plan = plan_experiment(config)
    for s in plan.selections:
        seed = None
        if s.method.stochastic:
            seed = zlib.crc32(repr((config.seed, s.fold, s.repeat)).encode("utf-8"))
        described = {
            "kind": "selection",
            "dataset": s.dataset.content_hash,
            "split": {"split": "cv", "n_folds": 2, "seed": 7},
            "fold": s.fold,
            "method": s.method.name,
            "params": s.method.params,
            "seed": seed,
            "k": s.k,
        }
        assert s.seed == seed
        assert s.key == hash_key(described)
    assert {s.repeat for s in plan.selections if s.method.stochastic} == {0, 1}


def test_fit_keys_hash_their_written_out_description():
    """Check every fit key is hash_key of its selection's key, the budget and
    the protocol's classifier, seed, discretization, scaling, labels, metrics."""
    config = _config()
    p = config.protocol
    plan = plan_experiment(config)
    assert identity.fit_kernel(p.classifier.name, p.classifier.params) is None
    for i, fit in enumerate(plan.fits):
        described = {
            "kind": "fit",
            "selection": plan.selections[fit.selection].key,
            "budget": fit.k,
            "classifier": [p.classifier.name, p.classifier.params],
            "seed": 7,
            "discretize": [p.discretize, p.bins],
            "scaling": p.scaling,
            "labels": p.label_handling,
            "metrics": list(p.metrics),
        }
        assert plan.fit_key(i) == hash_key(described)


@pytest.mark.parametrize(
    ("split", "own", "expected"),
    [
        ("cv", False, {"split": "cv", "n_folds": 3, "seed": 4}),
        ("holdout", True, {"split": "holdout", "test_size": 0.25, "seed": 4}),
        (
            "repeated_holdout",
            False,
            {
                "split": "repeated_holdout",
                "n_holdouts": 6,
                "test_size": 0.25,
                "seed": 4,
            },
        ),
        ("own", True, {"split": "own"}),
        ("own", False, {"split": "holdout", "test_size": 0.25, "seed": 4}),
    ],
)
def test_split_key_per_kind_of_split(split, own, expected):
    """Check the split's description for each kind of split (own without a
    split of the dataset's own is a seeded hold-out)."""
    protocol = protocol_preset(
        "A", split=split, n_folds=3, n_holdouts=6, test_size=0.25
    )
    assert identity.split_key(protocol, 4, own=own) == expected


def test_dataset_hash_without_content_hash_covers_values_and_shape():
    """Check a dataset object without content_hash() is hashed by its CSR
    arrays, labels and shape: the same data give the same hash, a value or a
    shape change another one."""
    import scipy.sparse as sp

    class Plain:
        def __init__(self, X, Y):
            self.X, self.Y = X, Y

    X = sp.csr_matrix(np.array([[0.0, 1.0], [2.0, 0.0]]))
    Y = np.array([[1, 0], [0, 1]])
    same = identity.dataset_hash(Plain(X.copy(), Y.copy()))
    assert identity.dataset_hash(Plain(X, Y)) == same
    other = X.copy()
    other[0, 1] = 3.0
    assert identity.dataset_hash(Plain(other, Y)) != same
    wider = sp.hstack([X, sp.csr_matrix((2, 1))]).tocsr()
    assert identity.dataset_hash(Plain(wider, Y)) != same


@pytest.fixture
def typed_method():
    """A method without a source file (typed in a console): no code identity."""
    from mlfs_core.selectors import register, unregister

    namespace: dict = {}
    source = "def TypedHere(X, Y, *, k, random_state):\n    return list(range(k))\n"
    exec(compile(source, "<console>", "exec"), namespace)
    register(namespace["TypedHere"], version="1")
    yield "TypedHere"
    unregister("TypedHere")


def test_reuse_unidentified_is_a_parameter_of_the_plan(typed_method, monkeypatch):
    """Check reuse_unidentified reaches every selection and fit key through
    plan_experiment and plan_tuned, and MLFS_REUSE_UNIDENTIFIED alone changes
    nothing in the engine."""
    monkeypatch.setenv(identity.REUSE_ENV, "1")
    config = ExperimentConfig(
        datasets=("sample",),
        methods=(typed_method,),
        protocol=protocol_preset("B", n_folds=2, budgets=(2,)),
    )
    with pytest.warns(UserWarning, match="TypedHere.*cannot be identified"):
        fresh = plan_experiment(config)
    reused = plan_experiment(config, reuse_unidentified=True)
    tuned = plan_tuned(config, reuse_unidentified=True)
    assert not fresh.reuse_unidentified and reused.reuse_unidentified
    for plan in (reused, tuned):
        assert [s.key for s in plan.selections] != [s.key for s in fresh.selections]
        assert plan.fit_key(0) != fresh.fit_key(0)
    assert [s.key for s in tuned.selections] == [s.key for s in reused.selections]
    assert reused.with_fits([0]).fit_key(0) == reused.fit_key(0)
    unmarked = {"kind": "selection", "method": typed_method}
    unmarked_code = identity.code_identity(unmarked, reuse_unidentified=True)
    assert "unidentified" not in unmarked_code["method"]
    s = reused.selections[0]
    described = {
        "kind": "selection",
        "dataset": s.dataset.content_hash,
        "split": s.dataset.split_key,
        "fold": s.fold,
        "method": typed_method,
        "params": s.method.params,
        "seed": s.seed,
        "k": s.k,
    }
    assert s.key == hash_key(described, unmarked_code)
