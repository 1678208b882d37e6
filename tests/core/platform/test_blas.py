"""The BLAS kernel rule: pinning, recording, cache keys and the foreign-kernel guard."""

from __future__ import annotations

import pytest

from mlfs_core import blas
from mlfs_core.errors import MLFSError
from mlfs_core.evaluation import classifiers
from mlfs_core.evaluation.classifiers import kernel_dependent, register_classifier
from mlfs_core.evaluation.config import ExperimentConfig, protocol_preset
from mlfs_core.evaluation.runner import identity
from mlfs_core.evaluation.runner.execute import tasks as _tasks


def test_pin_writes_the_default_kernel_and_obeys_the_override(monkeypatch):
    """Check pin() sets OPENBLAS_CORETYPE, MLFS_BLAS_KERNEL overrides, native skips."""
    monkeypatch.setattr(blas, "cpu_flags", lambda: frozenset({"avx2", "fma", "avx"}))
    env = {"OPENBLAS_CORETYPE": "SkylakeX"}
    assert blas.pin(env) == "Haswell" and env["OPENBLAS_CORETYPE"] == "Haswell"
    env = {"MLFS_BLAS_KERNEL": "SandyBridge"}
    assert blas.pin(env) == "SandyBridge" and env["OPENBLAS_CORETYPE"] == "SandyBridge"
    env = {"MLFS_BLAS_KERNEL": "native", "OPENBLAS_CORETYPE": "Zen"}
    assert blas.pin(env) is None and env["OPENBLAS_CORETYPE"] == "Zen"


def test_a_cpu_without_the_kernel_is_not_pinned(monkeypatch):
    """Check a CPU lacking AVX2 (or not x86-64) keeps OpenBLAS's own choice."""
    monkeypatch.setattr(blas, "cpu_flags", lambda: frozenset({"sse2", "pni"}))
    env: dict[str, str] = {}
    assert blas.pin(env) is None and "OPENBLAS_CORETYPE" not in env
    assert blas.cpu_supports("Prescott") and not blas.cpu_supports("Haswell")


def test_this_process_is_pinned_and_records_it():
    """Check the test process runs the pinned kernel and record() says so."""
    record = blas.record()
    if blas.pinned_kernel() is None:
        assert record["matches_pin"] and record["pinned"] is None
    else:
        assert record["kernel"] == blas.expected_kernel_id() and record["matches_pin"]
    assert all({"library", "version", "kernel"} <= set(r) for r in record["libraries"])
    assert record["libraries"], "numpy's BLAS is listed"


def test_classifiers_declare_whether_the_kernel_changes_their_values(monkeypatch):
    """Check the declared rule: LIBLINEAR primal and logistic yes; dual, ML-kNN no."""
    assert kernel_dependent("linear_svc", {"C": 3.0})
    assert not kernel_dependent("linear_svc", {"dual": True})
    assert kernel_dependent("logistic_regression")
    assert not kernel_dependent("mlknn", {"k": 10})
    assert kernel_dependent("someone_elses_classifier")  # assumed, to be safe
    monkeypatch.setattr(classifiers, "CLASSIFIERS", dict(classifiers.CLASSIFIERS))
    monkeypatch.setattr(
        classifiers, "_KERNEL_DEPENDENT", dict(classifiers._KERNEL_DEPENDENT)
    )
    register_classifier("_exact_test_clf", lambda **kw: None, kernel_dependent=False)
    assert not kernel_dependent("_exact_test_clf")


def _fit_key(config, monkeypatch, kernel: str) -> str:
    monkeypatch.setattr(blas, "expected_kernel_id", lambda: kernel)

    class _Sel:
        key = "selection-key"

    return identity.fit_key(_Sel(), 5, config)


def test_the_kernel_enters_the_cache_key_only_when_it_can_change_the_value(
    monkeypatch,
):
    """Check fit keys: unchanged under the default pin, new under another kernel."""
    a = ExperimentConfig(
        datasets=("sample",), methods=("MaxCS",), protocol=protocol_preset("A")
    )
    b = ExperimentConfig(
        datasets=("sample",), methods=("MaxCS",), protocol=protocol_preset("B")
    )
    default = _fit_key(a, monkeypatch, blas.DEFAULT_KERNEL_ID)
    other = _fit_key(a, monkeypatch, "openblas/SkylakeX")
    assert default != other
    assert _fit_key(a, monkeypatch, blas.DEFAULT_KERNEL_ID) == default
    assert _fit_key(b, monkeypatch, blas.DEFAULT_KERNEL_ID) == _fit_key(
        b, monkeypatch, "openblas/SkylakeX"
    )


def test_a_foreign_kernel_refuses_kernel_dependent_fits(monkeypatch):
    """Check a worker on another kernel gets one clear error naming both kernels."""
    monkeypatch.setattr(blas, "kernel_matches", lambda: False)
    monkeypatch.setattr(blas, "kernel_id", lambda: "openblas/SkylakeX")
    monkeypatch.setattr(blas, "expected_kernel_id", lambda: "openblas/Haswell")
    with pytest.raises(MLFSError, match="openblas/SkylakeX instead of the pinned"):
        _tasks.check_kernel("linear_svc")
