"""Protocol A fits: one representation, a scaling option, solver state recorded."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from mlfs_core.errors import ConfigError
from mlfs_core.evaluation import run_experiment
from mlfs_core.evaluation.config import ExperimentConfig, protocol_preset
from mlfs_core.evaluation.runner.execute.tasks import run_fit, scale_pair
from mlfs_core.report import convergence_line


def _data(seed=0, n=80, m=30, q=4):
    rng = np.random.default_rng(seed)
    X = rng.poisson(3.0, size=(n, m)).astype(float) * (rng.random((n, m)) < 0.3)
    Y = (X[:, :q] + rng.random((n, q)) > 1.5).astype(np.int8)
    return X[:60], Y[:60], X[60:], Y[60:]


def _fit(Xtr, Ytr, Xte, Yte, **kw):
    options = {
        "classifier": ("linear_svc", {"C": 3.0, "tol": 1e-3}),
        "seed": 0,
        "metrics": ("micro_f1", "hamming_loss"),
        "drop_constant": False,
    }
    options.update(kw)
    return run_fit(Xtr, Ytr, Xte, Yte, **options)


def test_dense_and_sparse_inputs_give_identical_values():
    """Check the classifier sees one representation: dense and CSR agree exactly."""
    Xtr, Ytr, Xte, Yte = _data()
    dense = _fit(Xtr, Ytr, Xte, Yte)
    sparse = _fit(sp.csr_matrix(Xtr), Ytr, sp.csc_matrix(Xte), Yte)
    assert dense["metrics"] == sparse["metrics"]


def test_non_converged_fits_are_counted():
    """Check max_iter=2 marks every label's fit as not converged; defaults none."""
    Xtr, Ytr, Xte, Yte = _data()
    capped = _fit(Xtr, Ytr, Xte, Yte, classifier=("linear_svc", {"max_iter": 2}))
    assert capped["n_fitted"] == 4 and capped["n_not_converged"] == 4
    assert capped["max_n_iter"] == 2
    free = _fit(Xtr, Ytr, Xte, Yte, scaling="l2-rows")
    assert free["n_not_converged"] == 0 and 0 < free["max_n_iter"] < 1000


def test_scalings_do_what_they_say():
    """Check l2-rows gives unit rows (zero rows stay zero) and maxabs unit columns."""
    X = np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0], [6.0, -2.0, 0.0]])
    l2, _ = scale_pair(X, X, "l2-rows")
    assert np.allclose(np.linalg.norm(l2.toarray(), axis=1), [1.0, 0.0, 1.0])
    train, test = scale_pair(X, 2 * X, "maxabs")
    assert np.allclose(abs(train.toarray()).max(axis=0), [1.0, 1.0, 0.0])
    assert np.allclose(test.toarray(), 2 * train.toarray())
    none, _ = scale_pair(X, X, "none")
    assert sp.isspmatrix_csr(none) and np.array_equal(none.toarray(), X)


def test_scaling_is_a_protocol_option_in_the_cache_key(tmp_path):
    """Check scaling is validated, changes the values and gets its own cache entries."""
    with pytest.raises(ConfigError, match="scaling"):
        protocol_preset("A", scaling="zscore")
    with pytest.raises(ConfigError, match="n_fold"):
        protocol_preset("A", n_fold=3)
    runs = {}
    for scaling in ("none", "l2-rows"):
        config = ExperimentConfig(
            datasets=("sample",),
            methods=("MaxCS",),
            protocol=protocol_preset("A", n_folds=2, budgets=(5,), scaling=scaling),
        )
        runs[scaling] = run_experiment(config, cache_dir=tmp_path)
    a, b = (runs[s].results["value"].to_numpy() for s in ("none", "l2-rows"))
    assert not np.array_equal(a, b)
    assert "stopped at max_iter" in convergence_line(runs["none"].timings)
    fits = runs["none"].timings.query("stage == 'fit'")
    assert (fits["n_fitted"] == 10).all() and fits["n_not_converged"].notna().all()
