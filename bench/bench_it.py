"""Benchmark of the ten information-theoretic selectors of paper 001 (not a test).

For every shared dataset and method: the median wall time of ranking the top
``k`` (default 50) features, discretization included (3 equal-width bins, as
METHODS.md section 4), the split of one run into discretize+count / static
terms / greedy steps, and the peak traced memory of one extra run
(``tracemalloc``; numpy buffers are traced). On emotions it also times the
full ranking next to the naive reference implementation of the tests
(``tests/core/selectors/test_greedy_oracle.py``) and checks they agree.
Everything runs on one thread (OMP/OpenBLAS/MKL threads = 1). Target: every
method ranks the top 50 of every dataset within 10 s.

Usage (from the project root)::

    python bench/bench_it.py [--datasets emotions,yeast] [--methods PMU,ATR]
                             [--repeats 3] [--k 50] [--no-naive]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import importlib.util  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

from mlfs_core import compute_ranking  # noqa: E402
from mlfs_core.data import discover_datasets, load_dataset  # noqa: E402
from mlfs_core.measures.discretize import Discretizer  # noqa: E402
from mlfs_core.selectors._it_criteria import CRITERIA, Context  # noqa: E402
from mlfs_core.selectors._it_data import prepare_codes  # noqa: E402
from mlfs_core.selectors.greedy import IT_METHODS, greedy_select  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
ORACLE = ROOT / "tests" / "core" / "selectors" / "test_greedy_oracle.py"
TARGET_SECONDS = 10.0


def _naive_module():
    spec = importlib.util.spec_from_file_location("_it_oracle", ORACLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rank_seconds(X, Y, method: str, k: int) -> tuple[float, float]:
    """Wall and CPU seconds of one ranking (CPU time is less hurt by other jobs)."""
    wall, cpu = time.perf_counter(), time.process_time()
    compute_ranking(X, Y, method, k=k)
    return time.perf_counter() - wall, time.process_time() - cpu


def _peak_mb(X, Y, method: str, k: int) -> float:
    tracemalloc.start()
    try:
        compute_ranking(X, Y, method, k=k)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _stages(X, Y, method: str, k: int) -> tuple[float, float, float]:
    """Seconds of (discretize + counts, static terms, greedy steps) of one run."""
    t0 = time.perf_counter()
    codes = Discretizer(3).fit_transform(X)
    ctx = Context(prepare_codes(codes, Y), Y, 6)
    t1 = time.perf_counter()
    criterion = CRITERIA[method]
    static = criterion.static(ctx)
    t2 = time.perf_counter()
    frozen = dataclasses.replace(criterion, static=lambda _ctx: static)
    greedy_select(frozen, ctx, k)
    return t1 - t0, t2 - t1, time.perf_counter() - t2


def _bench_dataset(ds, methods, k, repeats):
    rows = []
    k_eff = min(k, ds.X.shape[1])
    for method in methods:
        times = [_rank_seconds(ds.X, ds.Y, method, k_eff) for _ in range(repeats)]
        prep, static, steps = _stages(ds.X, ds.Y, method, k_eff)
        rows.append(
            {
                "dataset": ds.name,
                "method": method,
                "median": statistics.median(t[0] for t in times),
                "cpu": statistics.median(t[1] for t in times),
                "prep": prep,
                "static": static,
                "steps": steps,
                "peak_mb": _peak_mb(ds.X, ds.Y, method, k_eff),
            }
        )
        row = rows[-1]
        print(
            f"  {ds.name:16s} {method:7s} {row['median']:6.2f} s, cpu {row['cpu']:.2f}",
            file=sys.stderr,
        )
    return rows


def _emotions_full(ds, methods, repeats, naive):
    rows = []
    oracle = _naive_module() if naive else None
    codes = Discretizer(3).fit_transform(ds.X)
    for method in methods:
        fast = [_rank_seconds(ds.X, ds.Y, method, None)[0] for _ in range(repeats)]
        row = {"method": method, "fast": statistics.median(fast)}
        if oracle is not None:
            start = time.perf_counter()
            order, _ = oracle.naive_rank(codes, ds.Y, method)
            row["naive"] = time.perf_counter() - start
            mine = compute_ranking(ds.X, ds.Y, method).order.tolist()
            row["same"] = mine == order
        rows.append(row)
        print(f"  emotions full    {method:7s} {row['fast']:7.2f} s", file=sys.stderr)
    return rows


def _table(header: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def _pivot(rows, names, methods, keys, fmt):
    cell = {(r["method"], r["dataset"]): r for r in rows}
    body = []
    for method in methods:
        cells = [fmt(*(cell[method, name][key] for key in keys)) for name in names]
        body.append([method, *cells])
    return _table(["method", *names], body)


def _misses(rows) -> str:
    slow = [r for r in rows if max(r["median"], r["cpu"]) > TARGET_SECONDS]
    if not slow:
        return f"Every method ranked every dataset within {TARGET_SECONDS:g} s."
    body = [
        [r["method"], r["dataset"], f"{r['median']:.1f}", f"{r['cpu']:.1f}",
         f"{r['prep']:.1f}",
         f"{r['static']:.1f}", f"{r['steps']:.1f}"]
        for r in slow
    ]  # fmt: skip
    header = ["method", "dataset", "wall s", "cpu s", "discretize+counts s",
              "static s", "steps s"]  # fmt: skip
    return "Target missed (> 10 s):\n\n" + _table(header, body)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", help="comma-separated names (default: all)")
    parser.add_argument("--methods", help="comma-separated names (default: all ten)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--no-naive", action="store_true", help="skip the naive timing")
    args = parser.parse_args(argv)
    found = discover_datasets(DATASETS)
    names = args.datasets.split(",") if args.datasets else sorted(found, key=str.lower)
    methods = args.methods.split(",") if args.methods else list(IT_METHODS)
    rows, shapes = [], {}
    load_before = os.getloadavg()[0]
    for name in names:
        ds = load_dataset(found[name])
        shapes[name] = ds.X.shape + (ds.Y.shape[1],)
        rows += _bench_dataset(ds, methods, args.k, args.repeats)
        if name == "emotions":
            full = _emotions_full(ds, methods, args.repeats, not args.no_naive)
    load = f"load average {load_before:.1f} at start, {os.getloadavg()[0]:.1f} at end"
    print(f"## Top-{args.k} ranking, median of {args.repeats}: wall s (CPU s)\n")
    print(f"One thread; {load} on {os.cpu_count()} CPUs.\n")
    print(
        _table(["dataset", "n", "M", "q"], [[n, *map(str, shapes[n])] for n in names])
    )
    print()
    print(_pivot(rows, names, methods, ("median", "cpu"), "{:.2f} ({:.2f})".format))
    print(f"\n## Peak traced memory of one top-{args.k} run (MB)\n")
    print(_pivot(rows, names, methods, ("peak_mb",), "{:.1f}".format))
    print()
    print(_misses(rows))
    if "emotions" in names:
        print("\n## emotions, full ranking (s)\n")
        header = ["method", "engine", "naive", "speed-up", "same ranking"]
        body = [
            [r["method"], f"{r['fast']:.3f}"]
            + (
                [f"{r['naive']:.2f}", f"{r['naive'] / r['fast']:.0f}x", str(r["same"])]
                if "naive" in r
                else ["-", "-", "-"]
            )
            for r in full
        ]
        print(_table(header, body))
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nProcess peak RSS: {max_rss:.0f} MB (datasets loaded one at a time).")


if __name__ == "__main__":
    main()
