"""Benchmark of the ten information-theoretic selectors as ratios to a floor.

Not a test.

Absolute seconds say little across machines, so every figure here is a ratio
measured side by side in one run, on one thread, in user CPU seconds (system
time, the page faults of fresh temporaries, follows the allocator's state and
is reported apart):

* the **floor** of each corpus: the relevance pass (discretize, count, and
  every (feature, label) mutual information from the sparse counts: what
  ``rank_features(X, Y, "D2F", k=1)`` does, no greedy step), best of
  ``--floor-repeats`` runs; and one sparse product ``X^T Y`` as a lower
  reference;
* each method's top-``k`` time (default 50, best of ``--repeats``) as a
  multiple of that floor (target: at most 10x);
* its memory: in a child process that loads the corpus, the peak RSS of one
  ranking as a multiple of the RSS right after loading (target: at most 3x);
* the cost terms, timed separately on the same run: the static label-pair
  term (PMU, LRFS, LSMFS, MLSMFS), the per-step triple sums (PMU, D2F, MDMR)
  and the per-step updates of the conditional terms I(f; s) (every method
  with a redundancy), each as a multiple of the floor;
* the one-time cost of the compiled kernels (importing numba and loading
  them from numba's cache, or compiling them on a cold cache), paid once per
  process before the first corpus and so in no ratio;
* ``MultiLabelSelector.fit`` against ``rank_features`` with the same ``k``
  on sparse and dense input (target: at most 1.2x);
* the work of the exact terms (:func:`_work`): the touched label pairs P and
  the entries and groups the steps count, against the relevance pass's M q
  tables, the engine's nanoseconds per table, pair and entry beside one
  plain numpy lookup, and the plain loops' lookup floors.

Corpora: ``rcv1subset1`` (from ``$MLFS_DATASETS``, default ``../shared/datasets``),
the generated ``synthetic-20kx50k`` (20,000 documents x 50,000 words, about 80
words a document, Zipf-like word frequencies, 101 labels), and generated
corpora that stress one term each: ``stress-cooccurring`` (about 8 labels a
document, so many label pairs share documents), ``stress-heavy-tail`` (flat
Zipf word frequencies: some words occur in most documents and touch every
label) and ``stress-dense-labels`` (30 labels, each on 40 % of documents).

Usage (from the project root)::

    python bench/bench_it.py                       # every corpus, every method
    python bench/bench_it.py --corpora rcv1subset1 --methods PMU,LSMFS --no-memory
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"


import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

from mlfs_core import MultiLabelSelector, compute_ranking, rank_features  # noqa: E402
from mlfs_core._random import check_rng  # noqa: E402
from mlfs_core._validation import check_XY  # noqa: E402
from mlfs_core.blas import record  # noqa: E402
from mlfs_core.data import Dataset, discover_datasets, load_dataset  # noqa: E402
from mlfs_core.selectors.greedy import IT_METHODS, discrete_context  # noqa: E402
from mlfs_core.selectors.it.criteria import CRITERIA, REDUNDANCY  # noqa: E402
from mlfs_core.selectors.it.terms import step_terms  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("MLFS_DATASETS", ROOT.parent / "shared" / "datasets"))
TIME_TARGET, MEMORY_TARGET, SELECTOR_TARGET = 10.0, 3.0, 1.2
SYNTHETIC = "synthetic-20kx50k"
# name -> keyword arguments of synthetic_corpus
GENERATED = {
    SYNTHETIC: {},
    "stress-cooccurring": {"n": 10_000, "m": 30_000, "extra_labels": 7.0},
    "stress-heavy-tail": {"n": 10_000, "m": 30_000, "zipf": 0.7, "words": 150},
    "stress-dense-labels": {"n": 10_000, "m": 30_000, "q": 30, "label_rate": 0.4},
}
CORPORA = ("rcv1subset1", *GENERATED)
PAIR_METHODS = ("PMU", "LRFS", "LSMFS", "MLSMFS")  # static label-pair terms


def synthetic_corpus(
    n=20_000,
    m=50_000,
    q=101,
    words=80,
    *,
    zipf=1.1,
    extra_labels=1.0,
    label_rate=None,
    seed=0,
    name=SYNTHETIC,
) -> Dataset:
    """A sparse bag-of-words corpus with Zipf-like word and label frequencies.

    Parameters
    ----------
    n, m, q : int
        Documents, words and labels.
    words : int
        Word draws per document (duplicates add up, so fewer distinct words).
    zipf : float
        Exponent of the word frequencies ``1 / (rank + 10) ** zipf``; smaller
        is flatter, so the frequent words occur in more documents.
    extra_labels : float
        Expected labels per document beyond its first (Zipf over labels).
    label_rate : float, optional
        If given, every label is drawn independently with this probability
        instead (dense label sets).
    seed : int
    name : str
    """
    rng = check_rng(seed)
    p_word = 1.0 / (np.arange(m) + 10.0) ** zipf
    cols = rng.choice(m, size=n * words, p=p_word / p_word.sum())
    rows = np.repeat(np.arange(n), words)
    X = sp.csr_matrix((rng.poisson(1.0, n * words) + 1.0, (rows, cols)), (n, m))
    X.data = np.minimum(X.data, 20.0)  # duplicates were summed
    p_label = 1.0 / (np.arange(q) + 2.0)
    p_label /= p_label.sum()
    first = rng.choice(q, size=n, p=p_label)
    if label_rate is None:
        Y = rng.random((n, q)) < np.minimum(extra_labels * 2.0 * p_label, 1.0)
        Y = Y.astype(np.int8)
    else:
        Y = (rng.random((n, q)) < label_rate).astype(np.int8)
    Y[np.arange(n), first] = 1
    # Words 0..99 lean towards the first label of their documents.
    hint = sp.csr_matrix(
        (np.ones(n), (np.arange(n), first % 100)), shape=(n, m), dtype=np.float64
    )
    X = (X + 3.0 * hint).tocsr()
    names = [f"w{j}" for j in range(m)]
    return Dataset(X, Y, names, [f"l{i}" for i in range(q)], name=name)


def load(name: str) -> Dataset:
    """A corpus by name: generated, or from the shared datasets folder."""
    if name in GENERATED:
        return synthetic_corpus(**GENERATED[name], name=name)
    return load_dataset(discover_datasets(DATASETS)[name])


_SYSTEM = {"user": 0.0, "system": 0.0}
"""User and system CPU seconds of every timed call of this run (the report)."""


def _cpu(fn) -> float:
    """User CPU seconds of ``fn()`` (less hurt than wall time by other jobs).

    System time is left out of the ratios and tallied in ``_SYSTEM``: it is
    mostly the kernel zeroing the fresh pages of large temporaries, and how
    many pages are fresh depends on the allocator's state (whether freed
    memory went back to the system), not on the work. Between identical runs
    it moved from 0 to 100 % of the user time, which stayed within about 15 %.
    ``getrusage`` is used, not ``os.times`` (whole clock ticks of 10 ms):
    Linux reports the exact CPU time, split into user and system time in
    the proportion of the sampled ticks, so the split of one call is good to
    about one tick.
    """
    start = resource.getrusage(resource.RUSAGE_SELF)
    fn()
    end = resource.getrusage(resource.RUSAGE_SELF)
    _SYSTEM["user"] += end.ru_utime - start.ru_utime
    _SYSTEM["system"] += end.ru_stime - start.ru_stime
    return max(end.ru_utime - start.ru_utime, 1e-6)


def _best(fn, repeats: int) -> float:
    return min(_cpu(fn) for _ in range(repeats))


def _rss_mb(field: str) -> float:
    """VmRSS or VmHWM (peak) of this process, in MB, from /proc/self/status."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _child(name: str, method: str, k: int) -> None:
    """Load, reset the peak-RSS mark, rank once, print the memory figures."""
    ds = load(name)
    X, Y = check_XY(ds.X, ds.Y)
    loaded = _rss_mb("VmRSS")
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # reset VmHWM to the current RSS
    compute_ranking(X, Y, method, k=min(k, X.shape[1]))
    data_mb = (X.data.nbytes + X.indices.nbytes + X.indptr.nbytes + Y.nbytes) / 2**20
    print(json.dumps({"loaded": loaded, "peak": _rss_mb("VmHWM"), "data": data_mb}))


def _memory(name: str, method: str, k: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, method, str(k)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _load_kernels() -> float:
    """Wall seconds to import numba and load (or compile) every kernel, once.

    Ranks a small generated corpus with the methods whose terms are compiled,
    so that the timed runs below find the kernels loaded.
    """
    from mlfs_core.selectors.it import data

    start = time.perf_counter()
    ds = synthetic_corpus(n=400, m=600, q=12, words=20, extra_labels=3.0, name="warm")
    gate, data.COMPILED_FROM = data.COMPILED_FROM, 0  # this corpus is small
    try:
        for method in ("PMU", "LRFS", "LSMFS", "MLSMFS"):
            compute_ranking(ds.X, ds.Y, method, k=3)
    finally:
        data.COMPILED_FROM = gate
    return time.perf_counter() - start


def _floors(X, Y, repeats: int) -> dict:
    """Seconds of the relevance pass and of one X^T Y product (best of repeats)."""
    Yf = sp.csr_matrix(Y, dtype=np.float64)
    return {
        "relevance": _best(lambda: compute_ranking(X, Y, "D2F", k=1), repeats),
        "xty": _best(lambda: X.T @ Yf, repeats),
    }


def _terms(X, Y, method: str, order: np.ndarray) -> dict:
    """Seconds of the label-pair term, the triple sums and the I(f; s) updates.

    Replays the method's own selection order: the static terms once, then
    for every step the update without (I(f; s)) and with the label triples.
    """
    ctx = discrete_context(X, Y)
    criterion = CRITERIA[method]
    ctx.statics  # noqa: B018  (shared with the relevance pass: not a term)
    out = {}
    with_pairs = method in PAIR_METHODS
    out["pair"] = _cpu(lambda: criterion.static(ctx)) if with_pairs else None
    if criterion.redundancy is None:
        return {**out, "mi": None, "triples": None}
    steps = order[:-1]
    mi = _cpu(lambda: [step_terms(ctx.problem, s, with_labels=False) for s in steps])
    out["mi"] = mi
    out["triples"] = None
    if REDUNDANCY[criterion.redundancy].with_labels:
        both = _cpu(
            lambda: [step_terms(ctx.problem, s, with_labels=True) for s in steps]
        )
        out["triples"] = max(both - mi, 0.0)
    return out


def _lookups(table: np.ndarray, n: int, repeats: int = 3) -> float:
    """CPU seconds of ``n`` table lookups in a plain numpy loop (take + sum).

    The reference cost of one entropy cell: the engine's every exact term
    is at least one such lookup per cell it cannot put in closed form.
    """
    rng = np.random.default_rng(0)
    block = 1 << 20
    idx = rng.integers(0, table.size, size=min(n, block))

    def run():
        done = 0
        while done < n:
            part = idx[: min(block, n - done)]
            np.take(table, part).sum()
            done += part.size

    def once() -> float:  # seconds: the exact CPU time, no user/system split
        start = time.process_time()
        run()
        return time.process_time() - start

    return min(once() for _ in range(repeats))


def _work(X, Y, order: np.ndarray | None) -> dict:
    """The work of the exact terms, counted, and its lookup floor in seconds.

    * ``P``: pairs of labels that one feature's non-mode samples both carry
      (the touched pairs, summed over features): the label-pair term needs
      one table of (f, l_t, l_u) per such pair, against the relevance
      pass's M q tables of (f, l_i);
    * ``E``, ``G``: stored (feature, code, label) co-occurrences and
      (feature, label) groups; ``E_O``, ``G_O`` those of the features that
      share a non-mode sample with the step's new feature s, averaged over
      the steps of ``order``: a step counts these exactly;
    * the lookup floors: a plain numpy loop of ``P (b + 3)`` lookups (the
      code cells and the four mode cells of each touched pair's table) and
      of ``(E_O + 4 G_O)`` lookups per step (the w = 0 slice's cells), in
      CPU seconds.
    """
    from mlfs_core.selectors.it.terms import _rows_by_code
    from mlfs_core.selectors.it.triples import overlap_of

    problem = discrete_context(X, Y).problem
    entries = problem.entries
    touched = np.bincount(entries.group_f, minlength=problem.n_features)
    out = {
        "Mq": problem.n_features * problem.n_labels,
        "P": int((touched * (touched - 1) // 2).sum()),
        "E": int(entries.counts.size),
        "G": int(entries.group_f.size),
        "E_O": None,
        "G_O": None,
    }
    b1 = problem.n_codes - 1
    out["lookups"] = 1 << 22
    out["lookup"] = _lookups(problem.table, out["lookups"])
    out["pair_floor"] = _lookups(problem.table, out["P"] * (b1 + 4))
    if order is not None and order.size > 1:
        e_o, g_o = [], []
        for s in order[:-1]:
            overlap = overlap_of(problem, _rows_by_code(problem, s))
            e_o.append(
                (entries.entry_start[overlap + 1] - entries.entry_start[overlap]).sum()
            )
            g_o.append(
                (entries.group_start[overlap + 1] - entries.group_start[overlap]).sum()
            )
        out["E_O"], out["G_O"] = float(np.mean(e_o)), float(np.mean(g_o))
        steps = out["steps"] = order.size - 1
        lookups = int(steps * (out["E_O"] + 4 * out["G_O"]))
        out["step_floor"] = _lookups(problem.table, lookups)
    return out


def _selector(X, Y, method: str, k: int, repeats: int) -> dict:
    """fit / rank_features seconds with the same k, sparse and dense input."""
    dense = X[:, : min(X.shape[1], 4000)].toarray()
    rows = {}
    for kind, data in (("sparse", X), ("dense", dense)):
        engine = _best(lambda: rank_features(data, Y, method, k=k), repeats)
        fit = _best(lambda: MultiLabelSelector(method, k=k).fit(data, Y), repeats)
        rows[kind] = (engine, fit)
    return rows


def _table(header: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def _ratio(value, floor) -> str:
    return "-" if value is None else f"{value / floor:.1f}"


def _grid(results, methods, cell) -> str:
    """A method x corpus table of ``cell(result of corpus, method)``."""
    names = list(results)
    body = [[m] + [cell(results[c], m) for c in names] for m in methods]
    return _table(["method", *names], body)


def _floor_table(results) -> str:
    head = ["corpus", "N", "M", "q", "LC", "relevance s", "X^T Y s", "ratio"]
    body = []
    for name, r in results.items():
        n, m, q, lc = r["shape"]
        rel, xty = r["floor"]["relevance"], r["floor"]["xty"]
        cells = [str(n), str(m), str(q), f"{lc:.1f}", f"{rel:.3f}", f"{xty:.4f}"]
        body.append([name, *cells, f"{rel / xty:.0f}"])
    return _table(head, body)


def _work_table(results) -> str:
    """The work of the exact terms against the relevance pass's M q tables.

    ``P / (M q)``: touched label pairs (one exact (f, l_t, l_u) table each)
    per relevance table; ``k E_O + G_O / (M q)``: entries and groups the
    steps count exactly, over all steps, per relevance table; the engine's
    nanoseconds per relevance table, per touched pair (the PMU or LRFS
    label-pair term over P) and per counted step entry or group (the PMU,
    D2F or MDMR triple sums over the steps' E_O + G_O), beside one lookup
    of a plain numpy loop; and the plain loops' lookup floors (P (b + 3)
    and the steps' E_O + 4 G_O lookups) as multiples of the relevance pass.
    """
    head = ["corpus", "P / (M q)", "steps (E_O + G_O) / (M q)", "E_O / E"]
    head += ["ns / relevance table", "ns / touched pair", "ns / step entry"]
    head += ["ns / lookup", "pair lookups", "step lookups"]
    body = []
    for name, r in results.items():
        w, rel = r["work"], r["floor"]["relevance"]
        steps = w.get("steps", 0)
        counted = steps * ((w["E_O"] or 0) + (w["G_O"] or 0))
        e_o = "-" if w["E_O"] is None else f"{w['E_O'] / max(w['E'], 1):.2f}"
        pair = _term_of(r, ("PMU", "LRFS"), "pair")
        triples = _term_of(r, ("PMU", "D2F", "MDMR"), "triples")

        def ns(seconds, count):
            return (
                "-" if seconds is None or not count else f"{1e9 * seconds / count:.0f}"
            )

        cells = [f"{w['P'] / w['Mq']:.2f}", f"{counted / w['Mq']:.2f}", e_o]
        cells += [ns(rel, w["Mq"]), ns(pair, w["P"]), ns(triples, counted)]
        cells += [ns(w["lookup"], w["lookups"])]
        cells += [_ratio(w["pair_floor"], rel), _ratio(w.get("step_floor"), rel)]
        body.append([name, *cells])
    return _table(head, body)


def _term_of(r, methods, term):
    """The first of ``methods``' measured ``term`` seconds on a corpus, or None."""
    for m in methods:
        value = r["terms"].get(m, {}).get(term)
        if value is not None:
            return value
    return None


def _time_ratio(r, m) -> str:
    return _ratio(r["time"][m], r["floor"]["relevance"])


def _memory_ratio(r, m) -> str:
    return f"{r['memory'][m]['peak'] / r['memory'][m]['loaded']:.2f}"


TERMS = (
    ("pair", "static label-pair term"),
    ("triples", "per-step triple sums"),
    ("mi", "per-step I(f; s) updates"),
)


def _report(results: dict, methods, k: int, memory: bool) -> str:
    floor = "relevance pass"
    parts = [
        "## Floors (user CPU seconds: the only absolute figures)\n\n"
        + _floor_table(results)
    ]
    title = f"## Top-{k} time / {floor} (target <= {TIME_TARGET:g})"
    parts.append(title + "\n\n" + _grid(results, methods, _time_ratio))
    if memory:
        title = f"## Peak RSS / RSS after loading (target <= {MEMORY_TARGET:g})"
        parts.append(title + "\n\n" + _grid(results, methods, _memory_ratio))
    for term, label in TERMS:
        rows = [
            m
            for m in methods
            if any(r["terms"][m][term] is not None for r in results.values())
        ]

        def cell(r, m, term=term):
            return _ratio(r["terms"][m][term], r["floor"]["relevance"])

        if rows:
            title = f"## Cost term: {label} / {floor}"
            parts.append(title + "\n\n" + _grid(results, rows, cell))
    parts.append(
        f"## Work of the exact terms (floors as multiples of the {floor})\n\n"
        + _work_table(results)
    )
    body = [
        [name, kind, f"{fit / engine:.2f}"]
        for name, r in results.items()
        for kind, (engine, fit) in r["selector"].items()
    ]
    title = f"## MultiLabelSelector.fit / rank_features (target <= {SELECTOR_TARGET:g})"
    parts.append(title + "\n\n" + _table(["corpus", "input", "ratio"], body))
    misses = [
        f"{m} on {c}: {_time_ratio(r, m)}x"
        for c, r in results.items()
        for m in methods
        if r["time"][m] > TIME_TARGET * r["floor"]["relevance"]
    ]
    parts.append("Time target missed: " + ("; ".join(misses) or "none") + ".")
    return "\n\n".join(parts)


def _version() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[2], int(argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=",".join(CORPORA))
    parser.add_argument("--methods", default=",".join(IT_METHODS))
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=1, help="runs per method (best)")
    parser.add_argument("--floor-repeats", type=int, default=5)
    parser.add_argument(
        "--no-memory", action="store_true", help="skip the RSS children"
    )
    args = parser.parse_args(argv)
    methods = args.methods.split(",")
    version = _version()  # the code that runs, even if HEAD moves meanwhile
    results = {}
    kernels = _load_kernels()
    print(f"  kernels loaded in {kernels:.2f} s (once)", file=sys.stderr, flush=True)
    for name in args.corpora.split(","):
        ds = load(name)
        X, Y = check_XY(ds.X, ds.Y)
        k = min(args.k, X.shape[1])
        compute_ranking(X, Y, "D2F", k=1)  # warm up: first-touch costs
        r = {"shape": (*X.shape, Y.shape[1], float(Y.sum(axis=1).mean()))}
        r["floor"] = _floors(X, Y, args.floor_repeats)
        r["time"], r["terms"], r["memory"] = {}, {}, {}
        for method in methods:
            holder = {}

            def rank(method=method, holder=holder):
                holder["order"] = compute_ranking(X, Y, method, k=k).order

            r["time"][method] = _best(rank, args.repeats)
            r.setdefault("orders", {})[method] = holder["order"]
            r["terms"][method] = _terms(X, Y, method, holder["order"])
            if not args.no_memory:
                r["memory"][method] = _memory(name, method, k)
            ratio = r["time"][method] / r["floor"]["relevance"]
            seconds = r["time"][method]
            line = f"  {name:20s} {method:7s} {seconds:6.2f} s  {ratio:5.1f}x"
            print(line, file=sys.stderr, flush=True)
        orders = r.setdefault("orders", {})
        step_order = next(
            (orders[m] for m in ("PMU", "D2F", "MDMR") if m in orders), None
        )
        r["work"] = _work(X, Y, step_order)
        r["selector"] = _selector(X, Y, "D2F", 5, 3)
        results[name] = r
    print(_report(results, methods, args.k, not args.no_memory))
    blas = record()
    share = _SYSTEM["system"] / max(_SYSTEM["user"], 1e-9)
    print(f"\nOne thread; user CPU seconds; code {version}; BLAS {blas['kernel']}.")
    print(
        f"System CPU time of the timed calls (page faults; in no ratio): "
        f"{100 * share:.0f} % of their user time."
    )
    print(f"Compiled kernels: import and load {kernels:.2f} s wall, once per process.")


if __name__ == "__main__":
    main()
