"""Benchmark of the command line's start-up (not a test).

Times, each in a fresh process, alternating, ``--repeats`` times:

- ``reference``: ``python -c "import numpy, scipy.sparse"`` (what any command
  reading a dataset needs at least);
- ``mlfs --help``;
- ``mlfs stats sample`` (loads the bundled sample and prints its statistics).

The table gives each one's median and best wall time and its ratio to the
reference, measured in the same invocation. The targets are ratios of at most
1.5 for both commands (issue 44: ``mlfs --help`` used to take about 10 s, as
the parser imported the whole engine, pandas and scikit-learn).

Usage (from the project root)::

    python bench/bench_cli_start.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = {
    "reference": [sys.executable, "-c", "import numpy, scipy.sparse"],
    "mlfs --help": [sys.executable, "-m", "mlfs_core", "--help"],
    "mlfs stats sample": [sys.executable, "-m", "mlfs_core", "stats", "sample"],
}


def one(command: list[str], cwd: str) -> float:
    """Wall seconds of one run of ``command`` (which must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def main(argv=None) -> None:
    """Print each command's times and its ratio to the reference."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    with tempfile.TemporaryDirectory() as cwd:  # no folder called "sample" here
        for name, command in COMMANDS.items():  # warm the file cache
            one(command, cwd)
        for i in range(args.repeats):
            order = list(COMMANDS) if i % 2 == 0 else list(COMMANDS)[::-1]
            for name in order:
                times[name].append(one(COMMANDS[name], cwd))
    med = {n: statistics.median(t) for n, t in times.items()}
    best = {n: min(t) for n, t in times.items()}
    print(f"command start-up, {args.repeats} runs each (wall seconds)")
    for name in COMMANDS:
        ratio = med[name] / med["reference"]
        best_ratio = best[name] / best["reference"]
        print(
            f"  {name:<18} median {med[name]:.3f}  best {best[name]:.3f}  "
            f"ratio median {ratio:.2f}  best {best_ratio:.2f}"
        )


if __name__ == "__main__":
    main()
