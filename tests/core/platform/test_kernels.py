"""Results do not depend on the processor: other machines simulated in subprocesses.

"Another machine" is simulated on this one by what decides the arithmetic of a
CPU: the OpenBLAS kernel (``OPENBLAS_CORETYPE``) and numpy's SIMD paths
(``NPY_DISABLE_CPU_FEATURES``). A kernel this CPU cannot run is skipped with a
message naming it. Every check compares digests of exact bytes.

- Pinned (the default): every value is bit-identical under every simulation.
- Not pinned (``MLFS_BLAS_KERNEL=native``): only the values listed in
  ``battery.KERNEL_DEPENDENT`` may change, and some of them do, which is why
  the engine pins.
- The determinism and ``verify`` tests rerun whole under each simulation, and
  ``mlfs verify`` finds a committed Study-1 dataset identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mlfs_core import blas

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BATTERY = HERE / "battery.py"
sys.path.insert(0, str(HERE))
from battery import DIRECT, KERNEL_DEPENDENT  # noqa: E402

CLEAN = ("OPENBLAS_CORETYPE", "MLFS_BLAS_KERNEL", "NPY_DISABLE_CPU_FEATURES")


def _numpy_features(avx512_only: bool) -> str:
    """numpy's dispatched (non-baseline) SIMD targets this CPU has, space-joined."""
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # numpy < 2
        from numpy.core import _multiarray_umath as umath
    found = [
        f
        for f in umath.__cpu_dispatch__
        if umath.__cpu_features__.get(f) and f not in umath.__cpu_baseline__
    ]
    if avx512_only:
        found = [f for f in found if "512" in f or f == "X86_V4"]
    return " ".join(found)


# id -> (environment, OpenBLAS kernel the simulation needs, or None)
MACHINES = {
    "this-cpu": ({}, None),
    "haswell": ({"OPENBLAS_CORETYPE": "Haswell"}, "Haswell"),
    "skylakex": ({"OPENBLAS_CORETYPE": "SkylakeX"}, "SkylakeX"),
    "sandybridge": ({"OPENBLAS_CORETYPE": "SandyBridge"}, "SandyBridge"),
    "numpy-no-avx512": ({"NPY_DISABLE_CPU_FEATURES": "avx512"}, None),
    "numpy-baseline": ({"NPY_DISABLE_CPU_FEATURES": "all"}, None),
}


def _env(machine: str, extra: dict | None = None) -> dict:
    env_, kernel = MACHINES[machine]
    if kernel is not None and not blas.cpu_supports(kernel):
        pytest.skip(
            f"this CPU cannot run OpenBLAS kernel {kernel} "
            f"(needs {', '.join(sorted(blas.KERNEL_FLAGS[kernel]))})"
        )
    env = {k: v for k, v in os.environ.items() if k not in CLEAN}
    for key, value in env_.items():
        if key == "NPY_DISABLE_CPU_FEATURES":
            value = _numpy_features(avx512_only=value == "avx512")
            if not value:
                pytest.skip(
                    f"this CPU has no numpy SIMD targets to disable ({machine})"
                )
        env[key] = value
    env.update(extra or {})
    return env


def _python(env: dict, *args: str) -> subprocess.CompletedProcess:
    """Run this Python with ``args`` in the project root, in ``env``."""
    return subprocess.run(
        [sys.executable, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def _battery(env: dict, *args: str) -> dict:
    run = _python(env, str(BATTERY), *args)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def reference() -> dict:
    """The battery on this CPU, pinned (what every simulation must reproduce)."""
    return _battery(_env("this-cpu"))


@pytest.mark.parametrize("machine", [m for m in MACHINES if m != "this-cpu"])
def test_pinned_values_are_identical_on_every_simulated_machine(reference, machine):
    """Check every value's bytes equal this CPU's, the kernel pinned."""
    other = _battery(_env(machine))
    assert other["blas"] == blas.DEFAULT_KERNEL_ID == reference["blas"]
    differing = sorted(
        k for k, v in reference["values"].items() if other["values"][k] != v
    )
    assert differing == []


def test_numpy_loaded_first_still_computes_under_the_pin(reference):
    """Check a process whose BLAS loaded unpinned sends its fits to a pinned worker."""
    env = _env("skylakex" if blas.cpu_supports("SkylakeX") else "sandybridge")
    other = _battery(env, "--numpy-first")
    assert other["blas"] != blas.DEFAULT_KERNEL_ID  # this process is not pinned
    engine = sorted(set(reference["values"]) - DIRECT)
    assert "experiment/protocol_a" in engine
    assert [other["values"][k] for k in engine] == [
        reference["values"][k] for k in engine
    ]


def test_unpinned_only_the_listed_values_follow_the_kernel():
    """Check, with the pin off, what changes between kernels is what is declared."""
    native = {"MLFS_BLAS_KERNEL": "native"}
    runs = {}
    for machine in ("haswell", "skylakex", "sandybridge"):
        kernel = MACHINES[machine][1]
        if blas.cpu_supports(kernel):
            runs[machine] = _battery(_env(machine, native))
    if len(runs) < 2:
        pytest.skip(f"this CPU runs fewer than two of the kernels {sorted(MACHINES)}")
    first, *others = runs.values()
    changed: set[str] = set()
    for other in others:
        assert other["blas"] != first["blas"]
        changed |= {k for k, v in first["values"].items() if other["values"][k] != v}
    assert changed <= KERNEL_DEPENDENT, sorted(changed - KERNEL_DEPENDENT)
    assert "classifier/linear_svc_primal" in changed  # why the engine pins


@pytest.mark.parametrize("machine", ["skylakex", "haswell", "numpy-no-avx512"])
def test_determinism_and_verify_tests_pass_on_simulated_machines(machine):
    """Check the determinism and verify tests pass whole under another machine."""
    tests = ROOT / "tests" / "core" / "evaluation" / "test_determinism.py"
    args = ("-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests))
    run = _python(_env(machine), *args)
    assert run.returncode == 0, run.stdout[-4000:]
    assert " passed" in run.stdout and "failed" not in run.stdout


def test_mlfs_verify_finds_a_committed_study_dataset_identical(shared_datasets):
    """Check `mlfs verify` on a Study-1 dataset (compact table) prints identical."""
    folder = ROOT / "studies" / "paper000" / "data" / "medical"
    machine = "skylakex" if blas.cpu_supports("SkylakeX") else "this-cpu"
    run = _python(
        _env(machine), "-m", "mlfs_core", "verify", str(folder), "--sample", "4"
    )
    assert run.returncode == 0, run.stdout + run.stderr[-2000:]
    assert "identical" in run.stdout
    assert f"recomputed under {blas.DEFAULT_KERNEL_ID} (pinned)" in run.stdout
