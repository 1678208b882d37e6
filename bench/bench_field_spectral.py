"""Benchmark of the spectral family (docs: benchmarks-field-spectral).

Prints, for bibtex and rcv1subset1 (47,236 sparse features x 6000 rows),
the median wall and CPU time and the peak memory of ranking the top 50 features
with each spectral method (``MDDM-proj``, ``MDDM-spc``, ``MCLS``) through
:func:`mlfs_core.compute_ranking`, as ratios to the floor: one sparse
product XᵀY measured in the same run (the time ratio in CPU seconds of
this process, all its threads). It ends with the code version (git commit),
the BLAS kernel (:func:`mlfs_core.blas.record`) and the load average.

Peak memory is given twice: the peak traced by tracemalloc (Python and
numpy allocations) and the rise of the process's peak resident set
(``VmHWM``, reset through ``/proc/self/clear_refs`` before each case), which
also counts SuperLU's factors (MCLS's label manifold). A method that refuses
(its memory estimate above the bound) is listed with its message.

Run: ``python bench/bench_field_spectral.py [--repeats 3]
[--datasets bibtex,rcv1subset1] [--methods MDDM-proj,MDDM-spc,MCLS]``
(MCLS runs once per dataset: it takes minutes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import mlfs_core  # noqa: E402, F401  (first: it pins OpenBLAS's kernel)
from mlfs_core import compute_ranking  # noqa: E402
from mlfs_core.blas import record  # noqa: E402
from mlfs_core.errors import ConfigError  # noqa: E402

SPECTRAL = ["MDDM-proj", "MDDM-spc", "MCLS"]
SLOW = {"MCLS"}  # measured once


def _status(field: str) -> float | None:
    """A ``VmHWM``/``VmRSS`` line of /proc/self/status, in MiB (None off Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def _reset_peak() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def measure(fn, repeats: int) -> tuple[float, float, float | None, float]:
    """(median seconds, tracemalloc peak MiB, peak resident rise MiB,
    median CPU seconds).

    The resident peak is read over the timed runs themselves; tracemalloc
    (which slows numpy's allocations) runs once more, only when
    ``repeats > 1`` (the slow methods run once: "n/a")."""
    reset = _reset_peak()
    before = _status("VmRSS") if reset else None
    times, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    after = _status("VmHWM") if reset else None
    rss = None if before is None or after is None else after - before
    traced = float("nan")
    if repeats > 1:
        tracemalloc.start()
        fn()
        traced = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
    return statistics.median(times), traced, rss, statistics.median(cpu)


def bench_dataset(name: str, X, Y, methods, repeats: int) -> None:
    Yf = Y.astype(np.float64)
    XT = X.T.tocsr()
    floor = measure(lambda: XT @ Yf, max(repeats, 5))
    print(
        f"\n### {name}: {X.shape[0]} x {X.shape[1]}, q = {Y.shape[1]}, "
        f"density {X.nnz / (X.shape[0] * X.shape[1]):.4f}\n"
    )
    print(
        "| case | median wall s | median CPU s | CPU x floor | traced peak MiB "
        "| x floor | RSS rise MiB |"
    )
    print("|---|---|---|---|---|---|---|")
    _row("floor (X^T Y)", floor, floor)
    for method in methods:
        runs = 1 if method in SLOW else repeats
        try:
            result = measure(lambda m=method: compute_ranking(X, Y, m, k=50), runs)
        except ConfigError as exc:
            print(f"| {method} | refused: {exc} | | | | | |")
            continue
        _row(method, result, floor)
    sys.stdout.flush()


def _row(label, result, floor) -> None:
    seconds, traced, rss, cpu = result
    rss_text = "n/a" if rss is None else f"{rss:.1f}"
    traced_text = "n/a" if np.isnan(traced) else f"{traced:.1f}"
    traced_ratio = "n/a" if np.isnan(traced) else f"{traced / max(floor[1], 1e-9):.0f}"
    print(
        f"| {label} | {seconds:.4f} | {cpu:.4f} | {cpu / max(floor[3], 1e-9):.0f} "
        f"| {traced_text} | {traced_ratio} | {rss_text} |"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--datasets", default="bibtex,rcv1subset1")
    parser.add_argument("--methods", default=",".join(SPECTRAL))
    parser.add_argument(
        "--data-dir",
        default=os.environ.get(
            "MLFS_DATASETS", str(ROOT.parent / "shared" / "datasets")
        ),
    )
    args = parser.parse_args(argv)
    version = _version()  # the code that runs, even if HEAD moves meanwhile
    from mlfs_core.data import load_dataset

    for name in args.datasets.split(","):
        ds = load_dataset(Path(args.data_dir) / name)
        bench_dataset(name, ds.X, ds.Y, args.methods.split(","), args.repeats)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"\nCode {version}; BLAS kernel {record()['kernel']}; "
        f"load average (1, 5, 15 min) at the end {load}."
    )
    return 0


def _version() -> str:
    """The short git commit of the code that ran ("unknown" outside git)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
    except OSError:
        return "unknown"
    return out.stdout.strip() or "unknown"


if __name__ == "__main__":
    sys.exit(main())
