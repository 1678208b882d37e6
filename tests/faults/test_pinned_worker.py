"""Issue 44 item 4: the pinned-kernel worker never outlives the work.

A script that imports numpy before :mod:`mlfs_core` under another OpenBLAS
kernel runs its kernel-dependent fits in the pinned loky worker. Run with
``capture_output=True`` and a timeout, it must finish (no process holds its
pipes), compute the value the pinned kernel gives, and leave no process
behind. A worker that dies is reported with a message naming the kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from mlfs_core import blas
from mlfs_core.errors import MLFSError
from mlfs_core.evaluation.runner.execute import pool

SCRIPT = """
import numpy  # before mlfs_core: this process keeps the kernel it started with
import mlfs_core
from mlfs_core import blas
from mlfs_core.evaluation import ExperimentConfig, run_experiment
from mlfs_core.evaluation.config import protocol_preset

config = ExperimentConfig(
    datasets=("sample",),
    methods=("MaxCS",),
    protocol=protocol_preset("A", n_folds=2, budgets=(10,), metrics=("micro_f1",)),
)
result = run_experiment(config)
print(blas.kernel_matches(), repr(float(result.results["value"].iloc[0])))
"""

# micro-F1 of the first fit under the pinned Haswell kernel (any kernel gives it
# on the sample: the check is that the run computes and ends, not the bits)
EXPECTED = "0.9618074233458849"


@pytest.mark.skipif(blas.pinned_kernel() is None, reason="no kernel pinned here")
@pytest.mark.parametrize("coretype", ["SkylakeX", "Prescott", "NoSuchCore"])
def test_a_mismatched_kernel_script_ends_and_leaves_no_process(
    tmp_path, helpers, mark, coretype
):
    """Check capture_output + timeout returns, the value, and no child process left."""
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, OPENBLAS_CORETYPE=coretype, MLFS_FAULT_MARK=mark)
    env.pop("MLFS_BLAS_KERNEL", None)
    done = subprocess.run(
        [sys.executable, str(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    matches, value = done.stdout.split()
    assert value == EXPECTED
    if coretype == "SkylakeX":
        assert matches == "False"  # the pinned worker did the fits
    assert helpers.wait_gone(mark, 10.0) == []


def test_a_worker_that_dies_is_a_clear_error(monkeypatch):
    """Check that a dead pinned worker gives an MLFSError naming the kernel."""
    monkeypatch.setattr(blas, "pinned_environment", lambda: {blas.CORETYPE: "Haswell"})
    with pytest.raises(MLFSError, match="pinned BLAS kernel Haswell died"):
        list(pool._in_pinned_worker([0], lambda i: (os._exit, (3,), {})))
    assert pool._PINNED_WORKER == []  # shut down, not left for the next call


def test_the_pinned_worker_is_shut_down_when_the_work_ends():
    """Check that the worker process is gone once the results are in."""
    pairs = list(pool._in_pinned_worker([0, 1], lambda i: (os.getpid, (), {})))
    assert [i for i, _ in pairs] == [0, 1]  # (task index, result), in order
    values = [value for _, value in pairs]
    assert len(set(values)) == 1 and values[0] != os.getpid()
    assert pool._PINNED_WORKER == []
    with pytest.raises(OSError):  # the worker process is gone (or a zombie reaped)
        for _ in range(100):
            os.kill(values[0], 0)
            time.sleep(0.1)
