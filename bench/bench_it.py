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

``--memory`` adds issue 15's text-scale check: each (dataset, method) runs in
a fresh child process that loads the dataset, resets the kernel's peak-RSS
mark (``/proc/self/clear_refs``) and ranks once, and the table gives the
peak RSS of the ranking as a multiple of the RSS right after loading (the
loaded dataset, interpreter and libraries), next to the traced peak as a
multiple of the dataset's own arrays (X and Y). ``--datasets`` may name
``synthetic-20kx50k``: a generated sparse corpus of 20,000 documents x
50,000 words (about 80 distinct words per document, Zipf-like word
frequencies, 101 labels). Target: top 50 within 5 s and a peak below 3x.

Usage (from the project root)::

    python bench/bench_it.py [--datasets emotions,yeast] [--methods PMU,ATR]
                             [--repeats 3] [--k 50] [--no-naive]
    python bench/bench_it.py --datasets rcv1subset1,synthetic-20kx50k \\
                             --memory --repeats 1
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

from mlfs_core import compute_ranking  # noqa: E402
from mlfs_core._random import check_rng  # noqa: E402
from mlfs_core.data import Dataset, discover_datasets, load_dataset  # noqa: E402
from mlfs_core.measures.discretize import Discretizer  # noqa: E402
from mlfs_core.selectors.greedy import IT_METHODS, greedy_select  # noqa: E402
from mlfs_core.selectors.it.criteria import CRITERIA, Context  # noqa: E402
from mlfs_core.selectors.it.data import prepare_codes  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
ORACLE = ROOT / "tests" / "core" / "selectors" / "test_greedy_oracle.py"
TARGET_SECONDS = 10.0
SYNTHETIC = "synthetic-20kx50k"


def synthetic_corpus(n=20_000, m=50_000, q=101, words=80, seed=0) -> Dataset:
    """A sparse bag-of-words corpus with Zipf-like word and label frequencies."""
    rng = check_rng(seed)
    p_word = 1.0 / (np.arange(m) + 10.0) ** 1.1
    cols = rng.choice(m, size=n * words, p=p_word / p_word.sum())
    rows = np.repeat(np.arange(n), words)
    X = sp.csr_matrix((rng.poisson(1.0, n * words) + 1.0, (rows, cols)), (n, m))
    X.data = np.minimum(X.data, 20.0)  # duplicates were summed
    p_label = 1.0 / (np.arange(q) + 2.0)
    Y = np.zeros((n, q), dtype=np.int8)
    first = rng.choice(q, size=n, p=p_label / p_label.sum())
    Y[np.arange(n), first] = 1
    extra = rng.random((n, q)) < 2.0 * p_label / p_label.sum()
    Y |= extra.astype(np.int8)
    # Words 0..99 lean towards the first label of their documents.
    hint = sp.csr_matrix(
        (np.ones(n), (np.arange(n), first % 100)), shape=(n, m), dtype=np.float64
    )
    X = (X + 3.0 * hint).tocsr()
    names = [f"w{j}" for j in range(m)]
    return Dataset(X, Y, names, [f"l{i}" for i in range(q)], name=SYNTHETIC)


def _load(name: str, found: dict) -> Dataset:
    return synthetic_corpus() if name == SYNTHETIC else load_dataset(found[name])


def _rss_mb(field: str) -> float:
    """VmRSS or VmHWM (peak) of this process, in MB, from /proc/self/status."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _child(name: str, method: str, k: int) -> None:
    """Load, reset the peak-RSS mark, rank once, print the memory figures."""
    ds = _load(name, discover_datasets(DATASETS) if name != SYNTHETIC else {})
    data_mb = (ds.X.data.nbytes + ds.X.indices.nbytes + ds.X.indptr.nbytes) / 2**20
    data_mb += np.asarray(ds.Y).nbytes / 2**20
    loaded = _rss_mb("VmRSS")
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # reset VmHWM to the current RSS
    wall, cpu = _rank_seconds(ds.X, ds.Y, method, min(k, ds.X.shape[1]))
    peak_rss = _rss_mb("VmHWM")
    traced = _peak_mb(ds.X, ds.Y, method, min(k, ds.X.shape[1]))
    print(json.dumps({
        "wall": wall, "cpu": cpu, "loaded_mb": loaded, "peak_rss_mb": peak_rss,
        "data_mb": data_mb, "traced_mb": traced,
    }))  # fmt: skip


def _memory_rows(names, methods, k) -> list[dict]:
    rows = []
    for name in names:
        for method in methods:
            out = subprocess.run(
                [sys.executable, __file__, "--child", name, method, str(k)],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            row = {"dataset": name, "method": method}
            row.update(json.loads(out.stdout.strip().splitlines()[-1]))
            rows.append(row)
            print(f"  memory {name:18s} {method:7s} {row['peak_rss_mb']:.0f} MB RSS, "
                  f"{row['wall']:.2f} s", file=sys.stderr)  # fmt: skip
    return rows


def _memory_table(rows, k) -> str:
    body = [
        [r["dataset"], r["method"], f"{r['wall']:.2f}", f"{r['cpu']:.2f}",
         f"{r['loaded_mb']:.0f}", f"{r['peak_rss_mb']:.0f}",
         f"{r['peak_rss_mb'] / r['loaded_mb']:.2f}", f"{r['data_mb']:.1f}",
         f"{r['traced_mb']:.0f}", f"{r['traced_mb'] / r['data_mb']:.1f}"]
        for r in rows
    ]  # fmt: skip
    header = ["dataset", "method", "wall s", "cpu s", "RSS loaded MB",
              "peak RSS MB", "peak / loaded", "X+Y MB", "traced MB",
              "traced / X+Y"]  # fmt: skip
    title = f"## Top-{k}: one run per child process (issue 15 targets: 5 s, 3x)\n\n"
    return title + _table(header, body)


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
    codes, zero_codes = Discretizer(3).fit(X).transform_stored(X)
    ctx = Context(prepare_codes(codes, Y, zero_codes=zero_codes), Y, 6)
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
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[2], int(argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", help="comma-separated names (default: all)")
    parser.add_argument("--methods", help="comma-separated names (default: all ten)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--no-naive", action="store_true", help="skip the naive timing")
    parser.add_argument(
        "--memory", action="store_true", help="only the child-process RSS table"
    )
    args = parser.parse_args(argv)
    found = discover_datasets(DATASETS)
    names = args.datasets.split(",") if args.datasets else sorted(found, key=str.lower)
    methods = args.methods.split(",") if args.methods else list(IT_METHODS)
    if args.memory:
        print(_memory_table(_memory_rows(names, methods, args.k), args.k))
        return
    rows, shapes = [], {}
    load_before = os.getloadavg()[0]
    for name in names:
        ds = _load(name, found)
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
