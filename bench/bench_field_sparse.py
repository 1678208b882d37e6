"""Benchmark of the sparse-regression methods RFS, LLSF and MIFS as ratios.

Not a test.

Absolute seconds say little across machines (and this one is shared), so
every figure is a ratio measured side by side in one run, on one thread:

* the **floor** of each corpus: one sparse product ``X^T Y`` (the least any
  of these methods does), best of ``--repeats`` runs, in CPU seconds of this
  process (``time.process_time``), and its peak of traced memory
  (``tracemalloc``: numpy and scipy arrays; LAPACK's workspace is not traced);
* each method's top-50 ranking through :func:`mlfs_core.rank_features` with
  its default options, one run: CPU seconds and traced peak memory, each as a
  multiple of the floor, with the iterations it ran;
* scikit-feature's RFS (``skfeature-chappers`` on PyPI, ``rfs(X, Y,
  mode="raw")``, gamma = 1 as ours, on the same min-max scaled X), where it can
  run: it builds dense (M + n) x (M + n) matrices and inverts them each
  iteration, so it is run only where three of them fit in
  ``--skfeature-limit`` GiB (default 1), in a child process given
  ``--skfeature-seconds`` of wall time; elsewhere the row says why. Its
  labels are passed as the multi-label matrix (its one-hot encoding of a
  single label vector is bypassed). The overlap of its top 50 with ours is
  shown.

Corpora (``$MLFS_DATASETS``, default ``../shared/datasets``): ``bibtex``
(7395 x 1836, M < n: the M x M systems), ``rcv1subset1`` (6000 x 47236
sparse, M > n: the n x n systems) and ``bibtex-1000`` (bibtex's first 1000
rows: small enough for scikit-feature).

Usage (from the project root)::

    python bench/bench_field_sparse.py
    python bench/bench_field_sparse.py --corpora bibtex-1000 --methods RFS
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

# the engine of this checkout, not an installed one (python bench/... puts
# bench/ first on the path, where an installed mlfs_core would win)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mlfs_core import compute_ranking  # noqa: E402
from mlfs_core._validation import check_XY  # noqa: E402
from mlfs_core.data import load_dataset  # noqa: E402
from mlfs_core.selectors.field._scaling import scale  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
CORPORA = ("bibtex-1000", "bibtex", "rcv1subset1")
METHODS = ("RFS", "LLSF", "MIFS")
K = 50
MB = 1024**2


def _load(name: str):
    base = name.split("-")[0]
    ds = load_dataset(DATASETS / base / f"{base}.arff")
    X, Y = check_XY(ds.X, ds.Y)
    if name.endswith("-1000"):
        X, Y = X[:1000], Y[:1000]
    return X, Y


def _measure(call) -> tuple[float, float, object]:
    """``(CPU seconds, traced peak in MiB, result)`` of one call."""
    tracemalloc.start()
    start = time.process_time()
    out = call()
    seconds = time.process_time() - start
    peak = tracemalloc.get_traced_memory()[1] / MB
    tracemalloc.stop()
    return seconds, peak, out


def _floor(X, Y, repeats: int) -> tuple[float, float]:
    Yf = Y.astype(np.float64)
    runs = [_measure(lambda: X.T @ Yf) for _ in range(repeats)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


_SKFEATURE_CHILD = """
import os, sys, time, tracemalloc
import numpy as np
from skfeature.function.sparse_learning_based import RFS as sk_rfs
sk_rfs.construct_label_matrix_pan = lambda y: y  # the multi-label Y as is
data = np.load(sys.argv[1])
tracemalloc.start()
start = time.process_time()
W = sk_rfs.rfs(data["X"], data["Y"], mode="raw", gamma=1.0)
seconds = time.process_time() - start
peak = tracemalloc.get_traced_memory()[1]
top = np.argsort(-np.linalg.norm(W, axis=1), kind="stable")[:50]
print(seconds, peak, " ".join(map(str, top)))
"""


def _skfeature(X, Y, limit_gib: float, ours: np.ndarray, seconds_limit: float):
    """Row for scikit-feature's RFS (run in a child process), or why not."""
    import importlib.util
    import subprocess
    import sys
    import tempfile

    if importlib.util.find_spec("skfeature") is None:
        return (
            None,
            "skfeature-chappers is not installed (pip install skfeature-chappers)",
        )
    n, m = X.shape
    need = 3 * (n + m) ** 2 * 8 / 1024**3
    if need > limit_gib:
        return None, (
            f"needs dense ({m} + {n})^2 matrices: about {need:.1f} GiB "
            f"> {limit_gib:g} GiB"
        )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "data.npz"
        np.savez(path, X=scale(X, "minmax").toarray(), Y=Y.astype(np.float64))
        try:
            out = subprocess.run(
                [sys.executable, "-c", _SKFEATURE_CHILD, str(path)],
                capture_output=True,
                text=True,
                timeout=seconds_limit,
                check=True,
            ).stdout.split()
        except subprocess.TimeoutExpired:
            return None, f"did not finish within {seconds_limit:g} s of wall time"
    seconds, peak = float(out[0]), float(out[1]) / MB
    overlap = len(set(map(int, out[2:])) & set(ours.tolist()))
    return (seconds, peak), f"top-{K} overlap with ours: {overlap}/{K}"


def _rows(
    name: str, methods, repeats: int, limit: float, wait: float, max_iter=None
) -> list[str]:
    X, Y = _load(name)
    floor_s, floor_mb = _floor(X, Y, repeats)
    size = f"{X.shape[0]} x {X.shape[1]}"
    rows = [
        f"| {name} | {size} | X^T Y (floor) | 1 | {floor_s:.4f} | 1 | "
        f"{floor_mb:.1f} | | |"
    ]
    print(rows[-1], flush=True)
    rfs_top = None
    for method in methods:
        options = {} if max_iter is None else {"max_iter": max_iter, "tol": 0.0}
        seconds, peak, r = _measure(
            lambda m=method: compute_ranking(X, Y, m, k=K, **options)
        )
        iterations = r.objective_path.size - 1
        if method == "RFS":
            rfs_top = r.order
        rows.append(
            f"| {name} | {size} | {method} | {seconds / floor_s:.0f} | {seconds:.2f} | "
            f"{peak / floor_mb:.1f} | {peak:.0f} | {iterations} | |"
        )
        print(rows[-1], flush=True)
    if rfs_top is not None:
        measured, note = _skfeature(X, Y, limit, rfs_top, wait)
        if measured is None:
            rows.append(
                f"| {name} | {size} | skfeature RFS | | | | | | not run: {note} |"
            )
        else:
            s, p = measured
            rows.append(
                f"| {name} | {size} | skfeature RFS | {s / floor_s:.0f} | {s:.2f} | "
                f"{p / floor_mb:.1f} | {p:.0f} | | {note} |"
            )
        print(rows[-1], flush=True)
    return rows


def _version() -> str:
    """The short commit of the code that runs (``+dirty`` with local changes)."""
    import subprocess

    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (head or "unknown") + ("+dirty" if dirty else "")


def _machine() -> str:
    """CPU model, cores and the 1/5/15-minute load averages now."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            model = next(
                (line.split(":", 1)[1].strip() for line in fh if "model name" in line),
                model,
            )
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{model}, {os.cpu_count()} cores, load average {load}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=",".join(CORPORA))
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--repeats", type=int, default=5, help="runs of the floor")
    parser.add_argument(
        "--skfeature-limit", type=float, default=1.0, help="GiB for skfeature's RFS"
    )
    parser.add_argument(
        "--skfeature-seconds",
        type=float,
        default=900.0,
        help="wall seconds skfeature's RFS may take (its loop runs up to 1000 "
        "iterations, stopping on an absolute change below 1e-3)",
    )
    parser.add_argument(
        "--max-iter",
        type=int,
        help="run exactly this many iterations (tol = 0) instead of the "
        "defaults: the cost of an iteration where a full run takes too long",
    )
    args = parser.parse_args(argv)
    from mlfs_core.blas import record

    version, start = _version(), _machine()
    header = [
        "| corpus | n x M | method | time ratio | CPU s | memory ratio | peak MiB "
        "| iterations | note |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    rows = []
    for name in args.corpora.split(","):
        rows += _rows(
            name,
            args.methods.split(","),
            args.repeats,
            args.skfeature_limit,
            args.skfeature_seconds,
            args.max_iter,
        )
    print()
    print("\n".join(header + rows))
    blas = record()
    print(
        f"\nCode {version}; BLAS {blas['kernel']} (pinned {blas['pinned']}), "
        "OPENBLAS_NUM_THREADS=1; numba kernels from their cache."
    )
    print(f"Machine at the start: {start}.")
    print(f"Machine at the end: {_machine()}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
