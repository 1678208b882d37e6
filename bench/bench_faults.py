"""Benchmark of what the fault defences cost (not a test).

Two measurements, each a ratio against a reference taken in the same run:

1. ``cache``: checking every cache entry (its key, the SHA-256 of its value,
   the shape of a selection or a fit: :mod:`mlfs_core._entries`) in a fully
   cached experiment of the sample (``configs/sample_a.toml``, 78 tasks). The
   reference reads the same entries with the checks off (the file read and
   its value parsed, as before checksums). Runs alternate, the order swapped
   every round, one warm-up round first; each is timed by this process's CPU
   time (user + system, ``time.process_time``: a fully cached run is one
   process, and wall time on a shared machine is mostly other processes'
   noise), wall time shown beside it. Target: ratio <= 1.05.
2. ``refuse``: an ARFF whose header declares 10 million numeric attributes
   over 2 data rows (about 280 MB, written to a temporary folder) is refused
   by :func:`mlfs_core.data.load_dataset` for its declared size. Its time is
   compared with reading the header's lines up to ``@data`` (what any parser
   must do before it can parse them; raw byte reading is shown too), and the
   refusing process's peak memory (``ru_maxrss``) with that of a process that
   only imported the loader. Targets: time ratio <= 2, memory ratio <= 2.

Usage (from the project root)::

    python bench/bench_faults.py [--repeats 5] [--attributes 10000000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PEAK = """
import resource, sys
from mlfs_core.data import load_dataset
if len(sys.argv) > 1:
    try:
        load_dataset(sys.argv[1])
    except ValueError as exc:
        print(str(exc)[:120], file=sys.stderr)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def bench_cache(repeats: int) -> None:
    """Print the fully cached run times with and without entry checks."""
    from mlfs_core import cache as cache_module
    from mlfs_core.evaluation.config import load_config
    from mlfs_core.evaluation.runner import run_experiment

    config = load_config(ROOT / "configs" / "sample_a.toml")
    folder = Path(tempfile.mkdtemp(prefix="bench_faults_")) / "cache"
    run_experiment(config, cache_dir=folder)  # fill the cache
    checked = cache_module.DiskCache.get

    def unchecked(self, key, check=None):
        try:
            text = self._path(key).read_text(encoding="utf-8")
        except OSError:
            return None
        if text.startswith('{"key":"'):
            text = text[text.index('"value":') + len('"value":') : -1]
        return json.loads(text)

    wall: dict[str, list[float]] = {"checked": [], "reference": []}

    def run(variant: str) -> float:
        cache_module.DiskCache.get = checked if variant == "checked" else unchecked
        start, cpu = time.perf_counter(), time.process_time()
        run_experiment(config, cache_dir=folder)
        seconds = time.process_time() - cpu
        wall[variant].append(time.perf_counter() - start)
        cache_module.DiskCache.get = checked
        return seconds

    times: dict[str, list[float]] = {"checked": [], "reference": []}
    before = len(list(folder.glob("*/*.json")))
    run("checked"), run("reference")  # warm-up
    for i in range(repeats):
        order = list(times) if i % 2 == 0 else list(times)[::-1]
        for variant in order:
            times[variant].append(run(variant))
    assert len(list(folder.glob("*/*.json"))) == before, "a run was not cached"
    med = {v: statistics.median(t) for v, t in times.items()}
    best = {v: min(t) for v, t in times.items()}
    print(f"cache: fully cached sample_a ({before} entries), {repeats} runs each")
    for v in times:
        print(
            f"  {v:<9} CPU best {best[v]:.3f} s, median {med[v]:.3f} s "
            f"(wall median {statistics.median(wall[v][1:]):.3f} s)"
        )
    print(
        f"  ratio checked / reference (CPU): best "
        f"{best['checked'] / best['reference']:.3f}, median "
        f"{med['checked'] / med['reference']:.3f} (target <= 1.05)"
    )


def _write_wide(path: Path, n: int) -> None:
    with open(path, "w") as fh:
        fh.write("@relation wide\n")
        block = 100_000
        for start in range(0, n, block):
            fh.write(
                "".join(
                    f"@attribute a{i} numeric\n"
                    for i in range(start, min(n, start + block))
                )
            )
        fh.write("@data\n0,1\n1,0\n")


def _peak_kib(*args: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *args], capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1])


def bench_refuse(n: int, repeats: int) -> None:
    """Print the refusal time and peak memory against their references."""
    from mlfs_core.data import load_dataset
    from mlfs_core.errors import DatasetError

    path = Path(tempfile.mkdtemp(prefix="bench_faults_")) / "wide.arff"
    _write_wide(path, n)
    size = path.stat().st_size / 1e6

    def refuse() -> float:
        start = time.perf_counter()
        try:
            load_dataset(path)
        except DatasetError:
            pass
        else:  # pragma: no cover
            raise AssertionError("the file was not refused")
        return time.perf_counter() - start

    def header_lines() -> float:
        start = time.perf_counter()
        with open(path, "rb") as fh:
            for line in fh:
                if line[:5].lower() == b"@data":
                    break
        return time.perf_counter() - start

    def raw_bytes() -> float:
        start = time.perf_counter()
        with open(path, "rb") as fh:
            while fh.read(1 << 22):
                pass
        return time.perf_counter() - start

    times: dict[str, list[float]] = {"refuse": [], "lines": [], "bytes": []}
    runs = {"refuse": refuse, "lines": header_lines, "bytes": raw_bytes}
    for v in runs:
        runs[v]()  # warm-up (the file in the page cache)
    for i in range(repeats):
        order = list(runs) if i % 2 == 0 else list(runs)[::-1]
        for v in order:
            times[v].append(runs[v]())
    med = {v: statistics.median(t) for v, t in times.items()}
    print(f"refuse: {n:,} declared attributes, {size:.0f} MB, {repeats} runs each")
    for v in times:
        print(f"  {v:<7} median {med[v]:.3f} s (best {min(times[v]):.3f} s)")
    lines, raw = med["refuse"] / med["lines"], med["refuse"] / med["bytes"]
    print(
        f"  ratio refuse / reading the header's lines: {lines:.2f} (target <= 2); "
        f"/ reading its bytes: {raw:.2f}"
    )
    base = _peak_kib()
    peak = _peak_kib(str(path))
    print(
        f"  peak memory: loader imported {base / 1024:.0f} MiB, refusing "
        f"{peak / 1024:.0f} MiB, ratio {peak / base:.2f} (target <= 2)"
    )
    path.unlink()


def main(argv=None) -> None:
    """Run both measurements (or the one named)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--attributes", type=int, default=10_000_000)
    parser.add_argument("--only", choices=("cache", "refuse"))
    args = parser.parse_args(argv)
    if args.only in (None, "cache"):
        bench_cache(args.repeats)
    if args.only in (None, "refuse"):
        bench_refuse(args.attributes, args.repeats)


if __name__ == "__main__":
    main()
