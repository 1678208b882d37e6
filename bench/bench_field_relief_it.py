"""Benchmark of RF-ML, GRRO and FIMF as ratios to one sparse product X^T Y.

Not a test.

Absolute seconds say little across machines, so every figure is a ratio
measured side by side in one run, on one thread, in CPU seconds of this
process:

* the **floor** of each corpus: one sparse product ``X^T Y`` (the validated
  CSR ``X`` times the labels as a sparse matrix), best of ``--floor-repeats``;
* each method's top-``k`` ranking (default 50, best of ``--repeats``) through
  :func:`mlfs_core.compute_ranking`, with its default options, as a multiple
  of the floor;
* the peak memory of one ranking, traced by :mod:`tracemalloc` (numpy and
  scipy allocate through it), as a multiple of the peak traced during the
  product, with both in MiB beside the size of the loaded ``X``.

GRRO ranks more than ``max_features`` (default 1000) features on both corpora,
so it weighs the 1000 most relevant ones (the table says how many).

Corpora: ``bibtex`` (7,395 x 1,836 binary words, 159 labels) and
``rcv1subset1`` (6,000 x 47,236 tf-idf words, 101 labels), from
``$MLFS_DATASETS`` (default ``../shared/datasets``).

Usage (from the project root)::

    python bench/bench_field_relief_it.py
    python bench/bench_field_relief_it.py --corpora bibtex --methods FIMF --repeats 3
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

import scipy.sparse as sp  # noqa: E402

from mlfs_core import compute_ranking  # noqa: E402
from mlfs_core._validation import check_XY  # noqa: E402
from mlfs_core.data import discover_datasets, load_dataset  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
CORPORA = ("bibtex", "rcv1subset1")
METHODS = ("RF-ML", "GRRO", "FIMF")
MiB = 2**20


def _measure(work, repeats: int) -> tuple[float, float, object]:
    """(best CPU seconds, peak traced MiB of one run, the last result)."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.process_time()
        result = work()
        best = min(best, time.process_time() - start)
    tracemalloc.start()
    tracemalloc.reset_peak()
    work()
    peak = tracemalloc.get_traced_memory()[1] / MiB
    tracemalloc.stop()
    return best, peak, result


def run(corpora, methods, k: int, repeats: int, floor_repeats: int) -> list[dict]:
    rows = []
    found = discover_datasets(DATASETS)
    for name in corpora:
        ds = load_dataset(found[name])
        X, Y = check_XY(ds.X, ds.Y)
        labels = sp.csr_matrix(Y, dtype=float)
        floor_s, floor_mb, _ = _measure(lambda: X.T @ labels, floor_repeats)
        data_mb = (X.data.nbytes + X.indices.nbytes + X.indptr.nbytes) / MiB
        print(
            f"{name}: {X.shape[0]} x {X.shape[1]}, q={Y.shape[1]}, X {data_mb:.1f} MiB;"
            f" X^T Y {floor_s * 1000:.1f} ms, peak {floor_mb:.2f} MiB",
            flush=True,
        )
        for method in methods:
            seconds, peak, ranking = _measure(
                lambda m=method: compute_ranking(X, Y, m, k=k), repeats
            )
            weighed = ranking.candidates
            rows.append(
                {
                    "corpus": name,
                    "method": method,
                    "seconds": seconds,
                    "time_ratio": seconds / floor_s,
                    "peak_mb": peak,
                    "memory_ratio": peak / floor_mb,
                    "floor_ms": floor_s * 1000,
                    "floor_mb": floor_mb,
                    "data_mb": data_mb,
                    "weighed": "all" if weighed is None else str(weighed.size),
                }
            )
            print(_row(rows[-1]), flush=True)
    return rows


HEADER = (
    "| corpus | method | CPU s | time / X^T Y | peak MiB | memory / X^T Y "
    "| features weighed |\n|---|---|---|---|---|---|---|"
)


def _row(r: dict) -> str:
    return (
        f"| {r['corpus']} | {r['method']} | {r['seconds']:.2f} | "
        f"{r['time_ratio']:.0f}x | {r['peak_mb']:.1f} | {r['memory_ratio']:.0f}x | "
        f"{r['weighed']} |"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpora", default=",".join(CORPORA))
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--floor-repeats", type=int, default=5)
    args = parser.parse_args(argv)
    rows = run(
        args.corpora.split(","),
        args.methods.split(","),
        args.k,
        args.repeats,
        args.floor_repeats,
    )
    print()
    print(HEADER)
    for r in rows:
        print(_row(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
