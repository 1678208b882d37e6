"""Benchmark of the paper-000 scoring core (docs: benchmarks).

Prints, for bibtex and for a synthetic dataset the size of paper 000's rcv1v2
subset (6000 x 47236, q = 101, about 0.2% density), the median wall time of:

- ``floor``: one sparse product B^T Y (every count read once);
- ``8 methods``: all eight CS/BNS methods together (shared counts);
- ``MaxCS``: MaxCS alone through ``rank_features``;
- ``sklearn loop``: what a scikit-learn user does today for MaxCS:
  ``sklearn.feature_selection.chi2`` once per label, then the max;

with ratios against the floor and the speed-up of MaxCS over the loop, plus
the peak traced memory (tracemalloc) of each.

A second table compares, in the same run, each lean path
with the previous one it replaced: RoR/RaR top 50 on each label's top 50
(partition) vs a full q x M argsort; IG/OR/DF on label blocks vs all labels
at once (peak relative to MaxCS's); ``presence()`` with one copy of X's
structure vs copy-then-binarize. Rankings / values are checked identical.

Run: ``python bench/bench_scoring.py [--repeats 5]
[--datasets bibtex,rcv1v2-synthetic]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mlfs_core import aggregation, list_methods, rank_features  # noqa: E402
from mlfs_core.measures import table2x2  # noqa: E402
from mlfs_core.measures.chi2 import chi2_from_counts  # noqa: E402
from mlfs_core.measures.counts import contingency_counts, presence  # noqa: E402
from mlfs_core.selectors.filter import rank_filter_methods  # noqa: E402

PAPER000 = list_methods("score-aggregation")  # the eight CS/BNS methods


def synthetic_rcv1v2(seed: int = 0):
    """A random sparse count matrix shaped like paper 000's rcv1v2 subset."""
    rng = np.random.default_rng(seed)
    n, m, q, density = 6000, 47236, 101, 0.002
    nnz = int(n * m * density)
    # Zipf-like word popularity so columns differ in frequency, like text.
    popularity = 1.0 / np.arange(1, m + 1) ** 0.8
    cols = rng.choice(m, size=nnz, p=popularity / popularity.sum())
    rows = rng.integers(0, n, size=nnz)
    X = sp.csr_matrix(
        (rng.integers(1, 5, size=nnz).astype(float), (rows, cols)), shape=(n, m)
    )
    X.sum_duplicates()
    label_p = 0.03 / np.arange(1, q + 1) ** 0.3
    Y = (rng.random((n, q)) < label_p).astype(np.int8)
    return X, Y


def load(name: str, datasets: Path):
    if name == "rcv1v2-synthetic":
        return synthetic_rcv1v2()
    from mlfs_core.data import load_dataset

    ds = load_dataset(datasets / name)
    return ds.X, ds.Y


def make_floor(X, Y):
    """The floor: one sparse product B^T Y on a prepared presence matrix."""
    BT = presence(X).tocsc().T  # CSR (n_features x n_samples): rows read in order
    Yf = Y.astype(np.float64)
    return lambda: BT @ Yf


def sklearn_loop(X, Y):
    from sklearn.feature_selection import chi2

    scores = np.vstack([np.nan_to_num(chi2(X, Y[:, i])[0]) for i in range(Y.shape[1])])
    return np.argsort(-scores.max(axis=0), kind="stable")


def measure(fn, repeats: int) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak / 2**20


def bench_dataset(name, X, Y, repeats):
    cases = {
        "floor (B^T Y)": make_floor(X, Y),
        "8 methods together": lambda: rank_filter_methods(
            X, Y, PAPER000, random_state=0
        ),
        "MaxCS alone": lambda: rank_features(X, Y, "MaxCS"),
        "sklearn chi2 loop + max": lambda: sklearn_loop(X, Y),
    }
    results = {label: measure(fn, repeats) for label, fn in cases.items()}
    base = results["floor (B^T Y)"][0]
    loop = results["sklearn chi2 loop + max"][0]
    print(
        f"\n### {name}: {X.shape[0]} x {X.shape[1]}, q = {Y.shape[1]}, "
        f"density {X.nnz / (X.shape[0] * X.shape[1]):.4f}\n"
    )
    print("| case | median s | x floor | peak MiB |")
    print("|---|---:|---:|---:|")
    for label, (t, peak) in results.items():
        print(f"| {label} | {t:.4f} | {t / base:.1f} | {peak:.1f} |")
    maxcs = results["MaxCS alone"][0]
    print(
        f"\nMaxCS speed-up over the sklearn loop: {loop / maxcs:.1f}x "
        f"(target >= 10x); "
        f"8 methods {results['8 methods together'][0] / base:.1f}x floor "
        f"(target <= 5x on bibtex); MaxCS {maxcs / base:.1f}x floor (target <= 3x)"
    )


def _old_presence(X):
    """presence() before the lean paths: copy X, binarize its data, drop zeros."""
    B = sp.csr_matrix(X, copy=True)
    B.data = (B.data != 0).astype(np.float64)
    B.eliminate_zeros()
    return B


def _lean_cases(X, Y, k: int = 50):
    """(label, new, old, same) with the lean path and the one it replaced."""
    counts = contingency_counts(X, Y)
    S = chi2_from_counts(counts)
    positives = counts.positives.ravel()

    def full_orders():
        return np.argsort(-S, axis=1, kind="stable")

    def rar(orders=None):
        rng = np.random.default_rng(0)
        return aggregation.rand_robin(S, positives, k, rng=rng, orders=orders)

    yield (
        f"RoR top {k}",
        lambda: aggregation.round_robin(S, k),
        lambda: aggregation.round_robin(S, k, orders=full_orders()),
    )
    yield f"RaR top {k}", rar, lambda: rar(full_orders())
    for name in ("information_gain", "odds_ratio", "document_frequency"):
        measure = getattr(table2x2, f"{name}_from_counts")
        yield (
            name,
            lambda m=measure: m(counts),
            lambda m=measure: m.__wrapped__(counts),
        )
    yield "presence()", lambda: presence(X), lambda: _old_presence(X)


def bench_lean(name, X, Y, repeats):
    counts = contingency_counts(X, Y)
    _, maxcs_peak = measure(lambda: chi2_from_counts(counts).max(axis=0), repeats)
    print(f"\n### {name}: lean paths vs the ones they replaced (same run)\n")
    print("| case | new s | old s | old/new time | new MiB | old MiB | new/MaxCS mem |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, new, old in _lean_cases(X, Y):
        a, b = new(), old()
        same = (a != b).nnz == 0 if sp.issparse(a) else np.array_equal(a, b)
        assert same, f"{label}: new and old results differ"
        (t_new, m_new), (t_old, m_old) = measure(new, repeats), measure(old, repeats)
        print(
            f"| {label} | {t_new:.4f} | {t_old:.4f} | {t_old / t_new:.1f} | "
            f"{m_new:.1f} | {m_old:.1f} | {m_new / maxcs_peak:.1f} |"
        )
    print(f"\n(MaxCS scores + max: {maxcs_peak:.1f} MiB traced peak)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--datasets", default="bibtex,rcv1v2-synthetic")
    parser.add_argument("--lean-only", action="store_true", help="only table 2")
    parser.add_argument(
        "--data-dir",
        default=os.environ.get(
            "MLFS_DATASETS", str(ROOT.parent / "shared" / "datasets")
        ),
    )
    args = parser.parse_args(argv)
    for name in args.datasets.split(","):
        X, Y = load(name, Path(args.data_dir))
        if not args.lean_only:
            bench_dataset(name, X, Y, args.repeats)
        bench_lean(name, X, Y, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
