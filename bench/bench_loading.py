"""Benchmark: the streaming ARFF and CSV readers against liac-arff and pandas.

Not a test. Run ``python bench/bench_loading.py [DATASETS_DIR]``; it prints, per
file, the median wall time of parsing into a sparse matrix (3 runs) and the peak
traced memory (tracemalloc, one separate run), for ``mlfs_core.data.arff.read_arff``
and for ``arff.load(..., return_type=arff.COO)`` followed by building a CSR matrix,
plus the ratios liac-arff / ours. A second table does the same for
``mlfs_core.data.csvfile.read_csv`` against ``pandas.read_csv`` (plus the CSR
conversion) on a generated word-count CSV of about 8 MB, with the peak as a
multiple of the file size.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import arff as liac
import numpy as np
import pandas as pd
import scipy.sparse as sp

from mlfs_core._random import check_rng
from mlfs_core.data.arff import read_arff
from mlfs_core.data.csvfile import read_csv

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


def _csv_file(folder: Path, n_samples: int = 8000, n_features: int = 500) -> Path:
    """A word-count CSV (about 8 MB): Poisson counts, 5 label columns last."""
    rng = check_rng(0)
    X = rng.poisson(0.6, size=(n_samples, n_features))
    Y = rng.integers(0, 2, size=(n_samples, 5))
    header = [f"w{j}" for j in range(n_features)] + [f"l{i}" for i in range(5)]
    path = folder / "words.csv"
    table = np.hstack([X, Y])
    with open(path, "w") as handle:
        handle.write(",".join(header) + "\n")
        np.savetxt(handle, table, fmt="%d", delimiter=",")
    return path


def _ours_csv(path: Path) -> sp.csr_matrix:
    return read_csv(path, label_count=-5)[0]


def _pandas_csv(path: Path) -> sp.csr_matrix:
    frame = pd.read_csv(path)
    return sp.csr_matrix(frame.to_numpy(dtype=np.float64)[:, :-5])


def csv_table() -> list[str]:
    """Our CSV reader against pandas.read_csv, measured in this run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = _csv_file(Path(tmp))
        size = path.stat().st_size / 2**20
        (t1, m1), (t2, m2) = _measure(_ours_csv, path), _measure(_pandas_csv, path)
    return [
        f"CSV {size:.1f} MiB: {'ours s':>9}{'pandas s':>10}{'ours/pandas':>13}"
        f"{'ours peak/size':>16}{'pandas peak/size':>18}",
        f"{'':<14}{t1:>9.3f}{t2:>10.3f}{t1 / t2:>13.1f}"
        f"{m1 / size:>16.1f}{m2 / size:>18.1f}",
    ]


if __name__ == "__main__":
    default = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"
    root = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else Path(os.environ.get("MLFS_DATASETS", default))
    )
    sys.stdout.write("\n".join(main(root)) + "\n\n")
    sys.stdout.write("\n".join(csv_table()) + "\n")
