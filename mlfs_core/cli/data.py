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


def _method_params(args) -> dict:
    params = {}
    for name in ("bins", "discretize", "tau", "weighting", "variant", "binarize"):
        value = getattr(args, name, None)
        if value is not None:
            params[name] = value
    params.update(_named_options(args.method, getattr(args, "param", None) or []))
    return params


def _named_options(method: str, given: list[str]) -> dict:
    """``--param NAME=VALUE`` pairs as the method's typed options.

    The value takes the type of the option's default (``true``/``false`` for
    a flag); the method's spec checks names and ranges later, with every
    problem in one :class:`~mlfs_core.errors.ConfigError`.
    """
    from ..errors import ConfigError
    from ..selectors._registry import get_method

    options = {o.name: o for o in get_method(method).options}
    out = {}
    for pair in given:
        name, sep, text = pair.partition("=")
        if not sep or name not in options:
            raise ConfigError(
                f"--param {pair!r}: give NAME=VALUE with NAME one of "
                f"{', '.join(options) or '(none)'} (the options of {method})"
            )
        out[name] = _typed(options[name].kind, text, pair)
    return out


_KINDS = {int: "a whole number", float: "a number", str: "text"}


def _typed(kind: type, text: str, pair: str):
    from ..errors import ConfigError

    if kind is bool:
        if text.lower() not in ("true", "false"):
            raise ConfigError(f"--param {pair!r}: the value must be true or false")
        return text.lower() == "true"
    try:
        return kind(text)
    except ValueError:
        raise ConfigError(
            f"--param {pair!r}: the value must be {_KINDS[kind]}"
        ) from None


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


def rank_command(args: argparse.Namespace) -> int:
    """Run ``mlfs rank``: position, feature_index, feature_name, score."""
    from ..evaluation.config import MethodConfig
    from ..evaluation.dense import presence_methods
    from ..selectors.api import compute_ranking
    from ..selectors.tables import FEATURE, ranking_frame

    ds = _load(args)
    params = _method_params(args)
    _warn_about_data(ds, args, presence_methods([MethodConfig(args.method, params)]))
    r = compute_ranking(
        ds.X,
        ds.Y,
        args.method,
        k=args.k,
        random_state=args.seed,
        **params,
    )
    df = ranking_frame(r, ds.feature_names).rename(columns={FEATURE: "feature_name"})
    write_csv(df, args.out)
    return 0


def scores_command(args: argparse.Namespace) -> int:
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


def methods_command(args: argparse.Namespace) -> int:
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
    p.set_defaults(func=methods_command)


def _add_rank_parser(sub) -> None:
    p = sub.add_parser(
        "rank", help="rank features: CSV position,feature_index,feature_name,score"
    )
    _add_dataset_args(p)
    p.add_argument("--method", required=True, help="method name (see `mlfs methods`)")
    p.add_argument("--k", type=int, help="number of features (default all)")
    p.add_argument(
        "--seed", type=int, default=0, help="random seed for RaR/Random (default 0)"
    )
    _add_method_options(p)
    p.add_argument("--out", help="write CSV here instead of stdout")
    p.set_defaults(func=rank_command)


def _add_method_options(p: argparse.ArgumentParser) -> None:
    """The methods' options ``mlfs rank`` takes, each for the methods that have it."""
    p.add_argument("--bins", type=int, help="IT methods: number of bins (default 3)")
    _add_choice_option(
        p, "PMU", "discretize", "IT methods: discretization (default uniform)"
    )
    p.add_argument(
        "--tau", type=int, help="ATR/PPT-MI: PPT pruning threshold (default 6)"
    )
    _add_choice_option(
        p, "RaRCS", "weighting", "RaR methods: label draw weighting (default inverse)"
    )
    _add_choice_option(
        p, None, "variant", "PMU/MDMR: a registered variant of the criterion"
    )
    p.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="any option of the method, e.g. --param gamma=0.5 (repeatable; "
        "`mlfs methods` lists each method's options and their ranges)",
    )
    _add_choice_option(
        p,
        "MaxCS",
        "binarize",
        "CS/BNS-family methods: present = non-zero (default, text) or above "
        "the feature's median (dense numeric data)",
    )


def _add_choice_option(
    p: argparse.ArgumentParser, method: str | None, option: str, help: str
) -> None:
    """Add ``--<option>``, its allowed values those of ``method``'s option
    (:func:`_choices`), listed at the end of ``help``."""
    p.add_argument(
        f"--{option}",
        choices=_choices(method, option),
        metavar=option.upper(),
        help=f"{help}; one of %(choices)s",
    )


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
    p.set_defaults(func=scores_command)
