"""Benchmark of what the plug-in code identity adds to a fully cached experiment
(not a test).

The sample's protocol-A config (``configs/sample_a.toml``) runs with a
plug-in method added: a file that imports its scoring from a helper module
(the identity covers both). A first run fills a cache; then, alternating,
``--repeats`` fully cached runs each of:

- ``identity``: as a new process does it, the identities computed afresh
  (:func:`mlfs_core._code.forget` before the run: files read and hashed);
- ``reference``: the identity's digest handed back without any work (the
  same keys, so the same cache hits).

The runs alternate (the order swapped every round, one warm-up round
first); the table gives each variant's best and median wall time and the
ratios, measured in the same invocation. The target is a ratio of at most
1.05. On a machine shared with other jobs the run-to-run noise exceeds 5 %,
so the script also times the identity alone (what a new process computes
once per plug-in callable: its files read and hashed) and gives the ratio
that cost implies.

Usage (from the project root)::

    python bench/bench_cache_identity.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HELPER = """import numpy as np


def score(X):
    return np.asarray(X.sum(axis=0)).ravel()
"""

PLUGIN = """import numpy as np
from bench_helper import score
from mlfs_core.selectors import register


def MLFisher(X, Y, *, k, random_state):
    s = score(X)
    return np.argsort(-s, kind="stable")[:k], s


register(MLFisher, version="1")
"""


def main(argv=None) -> None:
    """Print the median fully cached run time of each variant and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)

    import dataclasses

    from mlfs_core import _code
    from mlfs_core.evaluation.config import load_config
    from mlfs_core.evaluation.runner import run_experiment
    from mlfs_core.plugins import load_plugins

    work = Path(tempfile.mkdtemp(prefix="bench_identity_"))
    (work / "bench_helper.py").write_text(HELPER)
    (work / "bench_plugin.py").write_text(PLUGIN)
    sys.path.insert(0, str(work))
    load_plugins([work / "bench_plugin.py"], entry_points=False, environment=False)
    config = load_config(ROOT / "configs" / "sample_a.toml")
    config = dataclasses.replace(config, methods=(*config.methods, "MLFisher"))
    cache = work / "cache"
    run_experiment(config, cache_dir=cache)  # fill the cache

    real = _code.source_digest
    from mlfs_core.selectors import get_method

    digest = real(get_method("MLFisher").rank)
    assert digest is not None

    def run(variant: str) -> float:
        if variant == "identity":
            _code.forget()
            _code.source_digest = real
        else:
            _code.source_digest = lambda obj: digest
        start = time.perf_counter()
        run_experiment(config, cache_dir=cache)
        seconds = time.perf_counter() - start
        _code.source_digest = real
        return seconds

    times: dict[str, list[float]] = {"identity": [], "reference": []}
    before = len(list(cache.glob("*/*.json")))
    run("identity"), run("reference")  # warm-up
    for i in range(args.repeats):
        order = list(times) if i % 2 == 0 else list(times)[::-1]
        for variant in order:
            times[variant].append(run(variant))
    assert len(list(cache.glob("*/*.json"))) == before, "a run was not cached"
    spec = get_method("MLFisher")
    work = []
    for _ in range(args.repeats):  # the identity alone, as a new process does it
        _code.forget()
        start = time.perf_counter()
        real(spec.rank)
        work.append(time.perf_counter() - start)
    med = {v: statistics.median(t) for v, t in times.items()}
    best = {v: min(t) for v, t in times.items()}
    print(f"fully cached sample_a + one plug-in method, {args.repeats} runs each")
    for variant in times:
        print(f"  {variant:<9} best {best[variant]:.3f} s, median {med[variant]:.3f} s")
    print(
        f"  ratio identity / reference: best {best['identity'] / best['reference']:.3f}"
        f", median {med['identity'] / med['reference']:.3f}"
    )
    alone = statistics.median(work)
    print(
        f"  the identity alone: {alone * 1000:.2f} ms per process, "
        f"{100 * alone / med['reference']:.2f} % of a fully cached run "
        f"(ratio {1 + alone / med['reference']:.4f})"
    )


if __name__ == "__main__":
    main()
