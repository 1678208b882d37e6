"""Benchmark: the streaming ARFF reader against liac-arff on the shared sparse sets.

Not a test. Run ``python bench/bench_loading.py [DATASETS_DIR]``; it prints, per
file, the median wall time of parsing into a sparse matrix (3 runs) and the peak
traced memory (tracemalloc, one separate run), for ``mlfs_core.data.arff.read_arff``
and for ``arff.load(..., return_type=arff.COO)`` followed by building a CSR matrix,
plus the ratios liac-arff / ours.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import arff as liac
import numpy as np
import scipy.sparse as sp

from mlfs_core.data.arff import read_arff

FILES = [
    "medical/medical.arff",
    "enron/enron.arff",
    "slashdot/SLASHDOT-F.arff",
    "bibtex/bibtex.arff",
    "delicious/delicious.arff",
    "tmc2007-500/tmc2007-500.arff",
]


def _ours(path: Path) -> sp.csr_matrix:
    return read_arff(path).values


def _liac(path: Path) -> sp.csr_matrix:
    with open(path) as handle:
        loaded = liac.load(handle, return_type=liac.COO)
    data, rows, cols = loaded["data"]
    values = np.asarray(data, dtype=np.float64)
    shape = (max(rows) + 1, len(loaded["attributes"]))
    return sp.csr_matrix((values, (rows, cols)), shape=shape)


def _measure(func, path: Path, repeats: int = 3) -> tuple[float, float] | None:
    try:
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            func(path)
            times.append(time.perf_counter() - start)
        tracemalloc.start()
        func(path)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    except Exception:  # liac-arff rejects some files Weka reads
        if tracemalloc.is_tracing():
            tracemalloc.stop()
        return None
    return statistics.median(times), peak / 2**20


def _row(name: str, ours, theirs) -> str:
    t1, m1 = ours
    if theirs is None:
        return f"{name:<22}{t1:>9.3f}{'rejected':>11}{'':>8}{m1:>10.1f}{'':>10}{'':>8}"
    t2, m2 = theirs
    return (
        f"{name:<22}{t1:>9.3f}{t2:>11.3f}{t2 / t1:>8.1f}"
        f"{m1:>10.1f}{m2:>10.1f}{m2 / m1:>8.1f}"
    )


def main(folder: Path) -> list[str]:
    """Return the table lines for the files found under ``folder``."""
    lines = [
        f"{'file':<22}{'ours s':>9}{'liac s':>11}{'x':>8}"
        f"{'ours MiB':>10}{'liac MiB':>10}{'x':>8}"
    ]
    for rel in FILES:
        path = folder / rel
        if path.is_file():
            lines.append(_row(path.name, _measure(_ours, path), _measure(_liac, path)))
    return lines


if __name__ == "__main__":
    default = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
    root = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(os.environ.get("MLFS_DATASETS", default))
    )
    sys.stdout.write("\n".join(main(root)) + "\n")
