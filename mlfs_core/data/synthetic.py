"""Synthetic multi-label text corpus with planted informative words.

:func:`make_planted_corpus` draws a bag-of-words corpus whose ground truth is known,
so the app can show how well each selection method recovers it:

* background word counts follow a Zipf-like law (a few very frequent words, a long
  tail), with document lengths drawn per document;
* label frequencies fall geometrically from common to rare, and a few label pairs
  co-occur (when the first is on, the second is switched on with probability 0.5);
* each label gets ``n_informative`` planted words (disjoint across labels, taken
  from the middle of the frequency ranking); when the label is on, each planted
  word gets extra Poisson counts whose rate falls from strong to weak along the
  label's list, so recovery is graded;
* the first two planted words of every label have a *near-duplicate*: a word whose
  counts copy the planted word's counts (each occurrence kept with probability 0.9)
  plus background noise, which makes it informative but redundant;
* every other word is noise.

Run ``python -m mlfs_core.data.synthetic [FOLDER]`` to (re)write the embedded
default dataset ``sample_data/planted.arff`` + ``planted.xml`` +
``planted_truth.json``; the same seed gives byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from .._random import check_rng
from .dataset import Dataset

_N_DUPLICATES = 2
_PAIRS_EVERY = 3  # label i co-occurs with label i + 1 for i = 0, 3, 6, ...


def make_planted_corpus(
    n_documents: int = 1500,
    n_words: int = 2000,
    n_labels: int = 10,
    n_informative: int = 8,
    random_state: int | np.random.Generator | None = 0,
) -> tuple[Dataset, dict]:
    """Draw a bag-of-words corpus with planted informative words per label.

    Parameters
    ----------
    n_documents, n_words, n_labels, n_informative : int
        Corpus size, vocabulary size, number of labels and planted words per label.
        ``n_labels * (n_informative + 2)`` must not exceed ``n_words // 2``.
    random_state : int, Generator or None, default 0
        Seed (through :func:`mlfs_core._random.check_rng`).

    Returns
    -------
    dataset : Dataset
        Term counts ``X`` (n_documents, n_words) and labels ``Y``.
    truth : dict
        ``informative`` (label name -> planted feature indices, strongest first),
        ``redundant`` (duplicate feature index -> planted index, as strings),
        ``all_informative`` (sorted planted indices), ``params``.

    Examples
    --------
    >>> ds, truth = make_planted_corpus(200, 300, 4, 3, random_state=1)
    >>> ds.X.shape, ds.Y.shape, len(truth["all_informative"])
    ((200, 300), (200, 4), 12)
    """
    if n_labels * (n_informative + _N_DUPLICATES) > n_words // 2:
        raise ValueError("n_words too small for the planted and duplicate words")
    rng = check_rng(random_state)
    Y = _draw_labels(rng, n_documents, n_labels)
    planted, duplicates = _choose_words(rng, n_words, n_labels, n_informative)
    counts = _background(rng, n_documents, n_words)
    _plant(rng, counts, Y, planted)
    _duplicate(rng, counts, duplicates)
    label_names = [f"topic{i:02d}" for i in range(n_labels)]
    dataset = Dataset(
        sp.csr_matrix(counts),
        Y,
        [f"w{j:04d}" for j in range(n_words)],
        label_names,
        name="planted",
        source="mlfs_core.data.synthetic",
    )
    truth = {
        "informative": {
            name: planted[i].tolist() for i, name in enumerate(label_names)
        },
        "redundant": {str(d): int(p) for d, p in duplicates},
        "all_informative": sorted(int(j) for j in planted.ravel()),
        "params": {
            "n_documents": n_documents,
            "n_words": n_words,
            "n_labels": n_labels,
            "n_informative": n_informative,
        },
    }
    return dataset, truth


def _draw_labels(rng, n_documents: int, n_labels: int) -> np.ndarray:
    priors = 0.3 * 0.7 ** np.arange(n_labels) + 0.01  # common to rare
    Y = (rng.random((n_documents, n_labels)) < priors).astype(np.int8)
    for first in range(0, n_labels - 1, _PAIRS_EVERY):
        follow = rng.random(n_documents) < 0.5
        Y[:, first + 1] |= (Y[:, first] & follow).astype(np.int8)
    return Y


def _choose_words(rng, n_words: int, n_labels: int, n_informative: int):
    middle = np.arange(n_words // 10, n_words // 10 + n_words // 2)
    chosen = rng.permutation(middle)[: n_labels * (n_informative + _N_DUPLICATES)]
    planted = chosen[: n_labels * n_informative].reshape(n_labels, n_informative)
    copies = chosen[n_labels * n_informative :].reshape(n_labels, _N_DUPLICATES)
    duplicates = sorted(
        zip(copies.ravel().tolist(), planted[:, :_N_DUPLICATES].ravel().tolist())
    )
    return planted, duplicates


def _background(rng, n_documents: int, n_words: int) -> np.ndarray:
    weights = 1.0 / (np.arange(n_words) + 2.7) ** 1.1  # Zipf-like
    lengths = rng.poisson(40, size=n_documents) + 5
    return rng.multinomial(lengths, weights / weights.sum()).astype(np.float64)


def _plant(rng, counts: np.ndarray, Y: np.ndarray, planted: np.ndarray) -> None:
    rates = np.linspace(1.5, 0.3, planted.shape[1])  # strong to weak
    for label, words in enumerate(planted):
        on = np.flatnonzero(Y[:, label])
        counts[np.ix_(on, words)] += rng.poisson(rates, size=(on.size, words.size))


def _duplicate(rng, counts: np.ndarray, duplicates: list[tuple[int, int]]) -> None:
    copies = np.array([d for d, _ in duplicates])
    sources = np.array([p for _, p in duplicates])
    kept = rng.binomial(counts[:, sources].astype(np.int64), 0.9)
    counts[:, copies] += kept


def write_mulan(dataset: Dataset, folder: str | os.PathLike, stem: str) -> Path:
    """Write ``dataset`` as sparse Mulan ARFF (labels last) plus label XML.

    Returns the path of the ``.arff``; ``stem.xml`` is written beside it. Values are
    written with ``%.10g`` so integer counts stay integers and output is stable.

    Examples
    --------
    >>> import tempfile
    >>> from mlfs_core.data import load_dataset
    >>> ds, _ = make_planted_corpus(50, 200, 3, 2, random_state=0)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     back = load_dataset(write_mulan(ds, tmp, "toy"))
    >>> back.content_hash() == ds.content_hash()
    True
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    arff = folder / f"{stem}.arff"
    with open(arff, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(f"@relation {stem}\n\n")
        for name in dataset.feature_names:
            handle.write(f"@attribute {_quote(name)} numeric\n")
        for name in dataset.label_names:
            handle.write(f"@attribute {_quote(name)} {{0,1}}\n")
        handle.write("\n@data\n")
        _write_rows(handle, dataset)
    labels = "".join(
        f'<label name="{_xml_escape(n)}"></label>\n' for n in dataset.label_names
    )
    (folder / f"{stem}.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<labels xmlns="http://mulan.sourceforge.net/labels">\n{labels}</labels>\n',
        encoding="utf-8",
    )
    return arff


def _write_rows(handle, dataset: Dataset) -> None:
    M = dataset.n_features
    for i in range(dataset.n_samples):
        start, end = dataset.X.indptr[i], dataset.X.indptr[i + 1]
        cells = [
            f"{j} {v:.10g}"
            for j, v in zip(dataset.X.indices[start:end], dataset.X.data[start:end])
        ]
        cells += [f"{M + k} 1" for k in np.flatnonzero(dataset.Y[i])]
        handle.write("{" + ",".join(cells) + "}\n")


def _quote(name: str) -> str:
    if name and all(c.isalnum() or c in "_-.=" for c in name):
        return name
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _xml_escape(name: str) -> str:
    return (
        name.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def write_sample_data(
    folder: str | os.PathLike = "sample_data",
    *,
    stem: str = "planted",
    random_state: int = 0,
) -> list[Path]:
    """Generate the default corpus and write ARFF, XML and ``{stem}_truth.json``."""
    dataset, truth = make_planted_corpus(random_state=random_state)
    arff = write_mulan(dataset, folder, stem)
    truth = {"seed": random_state, "generator": "mlfs_core.data.synthetic", **truth}
    truth_path = Path(folder) / f"{stem}_truth.json"
    truth_path.write_text(
        json.dumps(truth, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    return [arff, arff.with_suffix(".xml"), truth_path]


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``python -m mlfs_core.data.synthetic [FOLDER] [--seed S]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="sample_data")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    write_sample_data(args.folder, random_state=args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
