"""The dataset sub-commands: ``mlfs stats``, ``rank``, ``scores`` and ``methods``.

Each writes one CSV table to stdout (or to ``--out``). A dataset argument is
a file or folder, or ``sample`` for the bundled sample
(:mod:`mlfs_core.data.bundled`) when no such file or folder exists.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ._base import write_csv


class _Choices:
    """The allowed values of a method's option, read from the method registry
    when argparse first needs them (checking a value, formatting help), so
    that building the parser imports no part of the engine. A value not
    allowed loads the installed plug-ins once (one may register it, as
    criterion variants are) before argparse refuses it."""

    def __init__(self, method: str | None, option: str):
        self.method, self.option, self._values = method, option, None

    def _list(self) -> list[str]:
        if self._values is None:
            from ..selectors._registry import METHODS, get_method

            if self.method is not None:
                specs = [get_method(self.method)]
            else:  # every method with the option: their values, in order
                specs = [s for s in METHODS.values() if self.option in s.defaults]
            values = [v for s in specs for v in s.option(self.option).choices]
            self._values = list(dict.fromkeys(values))
        return self._values

    def __contains__(self, value) -> bool:
        if value not in self._list():  # an installed plug-in may register it
            from .._code import on_unknown_name

            on_unknown_name()
            self._values = None
        return value in self._list()

    def __iter__(self):
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())


def _choices(method: str | None, option: str) -> _Choices:
    """The allowed values of a method's option (read lazily, :class:`_Choices`);
    ``method=None``: those of every method that has the option."""
    return _Choices(method, option)


def _add_dataset_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        help="dataset file or folder (ARFF+XML, MEKA ARFF, svmlight, CSV, .mat), "
        "or 'sample' for the bundled sample",
    )
    p.add_argument("--labels", help="comma-separated label attribute names")
    p.add_argument(
        "--label-count", type=int, help="number of label attributes (MEKA -C style)"
    )
    p.add_argument(
        "--label-prefix", help="label attributes are those whose name starts with this"
    )


def dataset_path(path: str) -> tuple[str | Path, str | None]:
    """The file or folder a dataset argument names, and the name it gets.

    Examples
    --------
    >>> dataset_path("data/yeast")
    ('data/yeast', None)
    >>> folder, name = dataset_path("sample")
    >>> (folder / "planted.arff").is_file(), name
    (True, 'sample')
    """
    if path == "sample" and not Path(path).exists():
        from ..data.bundled import SAMPLE_DIR, SAMPLE_NAME  # imports the data package

        return SAMPLE_DIR, SAMPLE_NAME
    return path, None


def _load(args):
    from ..data import load_dataset

    path, name = dataset_path(args.path)
    labels = args.labels.split(",") if args.labels else None
    return load_dataset(
        path,
        labels=labels,
        label_count=args.label_count,
        label_prefix=args.label_prefix,
        name=name,
    )


def stats_command(args: argparse.Namespace) -> int:
    """Run ``mlfs stats``: one row of N, M, q, LC, LD, DC.

    Written with the csv module, as pandas would write it: importing pandas
    would double the command's time.
    """
    import csv

    ds = _load(args)
    row = {"dataset": ds.name, **ds.stats()}
    values = [v.item() if hasattr(v, "item") else v for v in row.values()]
    if args.out:
        with open(args.out, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh, lineterminator="\n").writerows([list(row), values])
    else:
        csv.writer(sys.stdout, lineterminator="\n").writerows([list(row), values])
    return 0


def _rank_params(args) -> dict:
    """The method's options from its flags (``--bins 4``) and ``--param
    NAME=VALUE``, checked by the method's options
    (:class:`~mlfs_core.options.Option`) before the dataset is read: one
    ConfigError naming the method, each parameter and what it allows."""
    from ..errors import ConfigError
    from ..options import parse_params
    from ..selectors._registry import get_method

    spec = get_method(args.method)
    flags, problems = method_flags(getattr(args, "method_flags", ()))
    texts = {}
    for item in getattr(args, "param", None) or ():
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            problems.append(f"--param must be NAME=VALUE, got {item!r}")
            continue
        texts[name.strip()] = text
    params = parse_params(spec.options, flags)
    typed = parse_params(spec.options, texts)
    for name, value in typed.items():
        if name in params and params[name] != value:
            problems.append(
                f"--{name} {flags[name]} and --param {name}={texts[name]} disagree"
            )
    if problems:
        raise ConfigError(f"method {args.method!r}: " + "; ".join(problems))
    params.update(typed)
    spec.resolve(params)  # every unknown name and bad value, in one error
    return params


def method_flags(tokens) -> tuple[dict[str, str], list[str]]:
    """The method options given as flags: ``--NAME VALUE`` or ``--NAME=VALUE``
    (``-`` in NAME read as ``_``), name -> text, and the tokens of another form.

    Examples
    --------
    >>> method_flags(["--bins", "4", "--pruning-threshold=-1", "x"])
    ({'bins': '4', 'pruning_threshold': '-1'}, ["unrecognized argument 'x'"])
    """
    found, problems, tokens = {}, [], list(tokens)
    while tokens:
        token = tokens.pop(0)
        if not token.startswith("--") or len(token) == 2:
            problems.append(f"unrecognized argument {token!r}")
            continue
        name, sep, text = token[2:].partition("=")
        if not sep:
            if not tokens or tokens[0].startswith("--"):
                problems.append(f"--{name} needs a value")
                continue
            text = tokens.pop(0)
        found[name.replace("-", "_")] = text
    return found, problems


def _warn_about_data(ds, args, presence: list[str]) -> None:
    """Print the dataset's warnings: odd labels, and dense data under ``presence``.

    ``presence`` names what counts a non-zero feature as present here (the
    method or the measure); without it dense data is no problem and is not
    mentioned (:mod:`mlfs_core.evaluation.dense`).
    """
    from ..data.describe import data_warnings
    from ..evaluation.dense import dense_warning

    messages = data_warnings(ds.X, ds.Y, ds.label_names)
    messages = [m for m in messages if not m.startswith("Dense data")]
    dense = dense_warning(ds.X, presence)
    messages = [dense, *messages] if dense else messages
    for message in messages:
        print(f"mlfs {args.command}: warning: {message}", file=sys.stderr)


def _rank_command(args: argparse.Namespace) -> int:
    """Run ``mlfs rank``: position, feature_index, feature_name, score."""
    from ..errors import UserCodeError
    from ..evaluation.config import MethodConfig
    from ..evaluation.dense import presence_methods
    from ..selectors.api import compute_ranking
    from ..selectors.tables import FEATURE, ranking_frame

    params = _rank_params(args)
    ds = _load(args)
    _warn_about_data(ds, args, presence_methods([MethodConfig(args.method, params)]))
    try:
        r = compute_ranking(
            ds.X,
            ds.Y,
            args.method,
            k=args.k,
            random_state=args.seed,
            **params,
        )
    except UserCodeError as exc:  # name the data too (every row: no folds here)
        raise exc.located(f"dataset {ds.name!r}, every row") from exc
    df = ranking_frame(r, ds.feature_names).rename(columns={FEATURE: "feature_name"})
    write_csv(df, args.out)
    return 0


def _scores_command(args: argparse.Namespace) -> int:
    """Run ``mlfs scores``: the per-label score matrix, one row per label.

    ``--binarize median`` counts a feature present when above its median
    (dense numeric data); with the default ``presence`` a dense dataset gets
    the warning of :mod:`mlfs_core.evaluation.dense`.
    """
    import pandas as pd

    from .._validation import check_XY
    from ..measures import get_measure
    from ..measures.counts import contingency_counts

    ds = _load(args)
    measure = get_measure(args.measure)  # an unknown name fails before the warning
    binarize = args.binarize or "presence"
    presence = [f"the {args.measure} scores"] if binarize == "presence" else []
    _warn_about_data(ds, args, presence)
    X, Y = check_XY(ds.X, ds.Y)
    S = measure(contingency_counts(X, Y, rule=binarize))
    df = pd.DataFrame(S, columns=ds.feature_names)
    df.insert(0, "label", ds.label_names)
    write_csv(df, args.out)
    return 0


def _methods_command(args: argparse.Namespace) -> int:
    """Run ``mlfs methods``: every registered method, its family and its options.

    CSV on stdout, a row a method: ``method``, ``family``, ``family_title``,
    ``stochastic``, ``options``, ``description``, ``citation`` (the method's
    source publication; empty when the method names none).
    """
    import pandas as pd

    from ..selectors._registry import families, get_method, list_methods

    titles = dict(families())
    rows = []
    for name in list_methods():
        spec = get_method(name)
        rows.append(
            {
                "method": name,
                "family": spec.family,
                "family_title": titles[spec.family],
                "stochastic": spec.stochastic,
                "options": "; ".join(o.describe() for o in spec.options),
                "description": spec.description,
                "citation": spec.citation,
            }
        )
    write_csv(pd.DataFrame(rows), None)
    return 0


def add_data_parsers(sub) -> None:
    """Add ``stats``, ``rank``, ``scores`` and ``methods`` to argparse ``sub``."""
    p = sub.add_parser(
        "stats",
        help="dataset statistics N, M, q, LC, LD, DC (Table 3 of Spolaôr and "
        "Tsoumakas, 2013)",
    )
    _add_dataset_args(p)
    p.add_argument("--out", help="write CSV here instead of stdout")
    p.set_defaults(func=stats_command)
    _add_rank_parser(sub)
    _add_scores_parser(sub)
    p = sub.add_parser("methods", help="list the registered methods")
    p.set_defaults(func=_methods_command)


def _add_rank_parser(sub) -> None:
    p = sub.add_parser(
        "rank",
        help="rank features: CSV position,feature_index,feature_name,score",
        epilog="Any option of the method is also a flag: "
        "--NAME VALUE (e.g. --bins 4, --tau 6, --binarize median, --variant "
        "NAME), the same as --param NAME=VALUE; `mlfs methods` lists each "
        "method's options and what they allow.",
        allow_abbrev=False,  # a method's option is never taken for a prefix
    )
    _add_dataset_args(p)
    p.add_argument("--method", required=True, help="method name (see `mlfs methods`)")
    p.add_argument("--k", type=int, help="number of features (default all)")
    p.add_argument(
        "--seed", type=int, default=0, help="random seed for RaR/Random (default 0)"
    )
    p.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="an option of the method (any registered method's, a plug-in's "
        "too; see `mlfs methods`), read as the option's type; repeatable",
    )
    p.add_argument("--out", help="write CSV here instead of stdout")
    p.set_defaults(func=_rank_command, method_flags=())


def _add_scores_parser(sub) -> None:
    p = sub.add_parser(
        "scores", help="per-label score matrix (labels x features) as CSV"
    )
    _add_dataset_args(p)
    p.add_argument(
        "--measure", default="chi2", help="chi2 | bns | ig | odds_ratio | df"
    )
    p.add_argument(
        "--binarize",
        choices=_choices("MaxCS", "binarize"),
        metavar="BINARIZE",
        help="present = non-zero (default, text) or above the feature's median "
        "(dense numeric data)"
        "; one of %(choices)s",
    )
    p.add_argument("--out", help="write CSV here instead of stdout")
    p.set_defaults(func=_scores_command)
