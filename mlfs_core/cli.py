"""Command-line interface: ``mlfs stats|rank|scores|methods|experiment|verify``.

Every error, a bad argument included, is one line on stderr
(``mlfs COMMAND: error: ...``) and exit status 2, never a traceback or a
usage block; ``--help`` prints the usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np
import pandas as pd

from . import __version__
from .errors import MLFSError


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        """Print ``<prog>: error: <message>`` on one line and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def one_line(text: object) -> str:
    r"""``text`` with its line breaks and runs of spaces folded into single spaces.

    Examples
    --------
    >>> one_line("bad value\n  see the docs")
    'bad value see the docs'
    """
    return " ".join(str(text).split())


def jobs(value: str) -> int:
    """argparse type of ``--jobs``: a non-zero int (joblib's -1 = every core)."""
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n == 0:
        raise argparse.ArgumentTypeError(
            f"must be a non-zero integer (1 = no parallelism, -1 = all cores), "
            f"got {value!r}"
        )
    return n


def _choices(method: str, option: str) -> list[str]:
    """The allowed values of a method's option, from the method registry."""
    from .selectors._registry import get_method

    return list(get_method(method).option(option).choices)


def _add_dataset_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path", help="dataset file or folder (ARFF+XML, MEKA ARFF, svmlight, CSV, .mat)"
    )
    p.add_argument("--labels", help="comma-separated label attribute names")
    p.add_argument(
        "--label-count", type=int, help="number of label attributes (MEKA -C style)"
    )
    p.add_argument(
        "--label-prefix", help="label attributes are those whose name starts with this"
    )


def _load(args):
    from .data import load_dataset

    labels = args.labels.split(",") if args.labels else None
    return load_dataset(
        args.path,
        labels=labels,
        label_count=args.label_count,
        label_prefix=args.label_prefix,
    )


def _write(df: pd.DataFrame, out: str | None) -> None:
    if out:
        df.to_csv(out, index=False)
    else:
        df.to_csv(sys.stdout, index=False, lineterminator="\n")


def _cmd_stats(args) -> int:
    ds = _load(args)
    stats = ds.stats()
    df = pd.DataFrame([{"dataset": ds.name, **stats}])
    _write(df, args.out)
    return 0


def _method_params(args) -> dict:
    params = {}
    for name in ("bins", "discretize", "tau", "weighting", "variant", "binarize"):
        value = getattr(args, name, None)
        if value is not None:
            params[name] = value
    return params


def _warn_about_data(ds, args) -> None:
    """Print the dataset's warnings (dense data under presence, odd labels)."""
    from .data.describe import data_warnings

    messages = data_warnings(ds.X, ds.Y, ds.label_names)
    if getattr(args, "binarize", None) == "median":  # the advice is already taken
        messages = [m for m in messages if not m.startswith("Dense data")]
    for message in messages:
        print(f"mlfs {args.command}: warning: {message}", file=sys.stderr)


def _cmd_rank(args) -> int:
    from .selectors.api import compute_ranking

    ds = _load(args)
    _warn_about_data(ds, args)
    r = compute_ranking(
        ds.X,
        ds.Y,
        args.method,
        k=args.k,
        random_state=args.seed,
        **_method_params(args),
    )
    scores = r.scores[r.order] if r.criterion_path is None else r.criterion_path
    df = pd.DataFrame(
        {
            "position": np.arange(1, r.order.size + 1),
            "feature_index": r.order,
            "feature_name": [ds.feature_names[j] for j in r.order],
            "score": scores,
        }
    )
    _write(df, args.out)
    return 0


def _cmd_scores(args) -> int:
    from .measures import label_scores

    ds = _load(args)
    S = label_scores(ds.X, ds.Y, args.measure)
    df = pd.DataFrame(S, columns=ds.feature_names)
    df.insert(0, "label", ds.label_names)
    _write(df, args.out)
    return 0


def _cmd_methods(args) -> int:
    from .selectors._registry import get_method, list_methods

    rows = [
        {
            "method": n,
            "family": get_method(n).family,
            "stochastic": get_method(n).stochastic,
            "options": "; ".join(o.describe() for o in get_method(n).options),
            "description": get_method(n).description,
        }
        for n in list_methods()
    ]
    _write(pd.DataFrame(rows), None)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``mlfs`` command."""
    parser = OneLineParser(
        prog="mlfs", description="Multi-label feature selection explorer"
    )
    parser.add_argument("--version", action="version", version=f"mlfs {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser(
        "stats", help="dataset statistics N, M, q, LC, LD, DC (paper 000 Table 3)"
    )
    _add_dataset_args(p)
    p.add_argument("--out", help="write CSV here instead of stdout")
    p.set_defaults(func=_cmd_stats)

    p = sub.add_parser(
        "rank", help="rank features: CSV position,feature_index,feature_name,score"
    )
    _add_dataset_args(p)
    p.add_argument("--method", required=True, help="method name (see `mlfs methods`)")
    p.add_argument("--k", type=int, help="number of features (default all)")
    p.add_argument(
        "--seed", type=int, default=0, help="random seed for RaR/RFS (default 0)"
    )
    p.add_argument("--bins", type=int, help="IT methods: number of bins (default 3)")
    p.add_argument(
        "--discretize",
        choices=_choices("PMU", "discretize"),
        help="IT methods: discretization (default uniform)",
    )
    p.add_argument(
        "--tau", type=int, help="ATR/PPT-MI: PPT pruning threshold (default 6)"
    )
    p.add_argument(
        "--weighting",
        choices=_choices("RaRCS", "weighting"),
        help="RaR methods: label draw weighting (default inverse)",
    )
    p.add_argument(
        "--variant",
        choices=_choices("PMU", "variant"),
        help="PMU/MDMR: reproduce the reference code's deviations",
    )
    p.add_argument(
        "--binarize",
        choices=_choices("MaxCS", "binarize"),
        help="CS/BNS-family methods: present = non-zero (default, text) or above "
        "the feature's median (dense numeric data)",
    )
    p.add_argument("--out", help="write CSV here instead of stdout")
    p.set_defaults(func=_cmd_rank)

    p = sub.add_parser(
        "scores", help="per-label score matrix (labels x features) as CSV"
    )
    _add_dataset_args(p)
    p.add_argument(
        "--measure", default="chi2", help="chi2 | bns | ig | odds_ratio | df"
    )
    p.add_argument("--out", help="write CSV here instead of stdout")
    p.set_defaults(func=_cmd_scores)

    p = sub.add_parser("methods", help="list the registered methods")
    p.set_defaults(func=_cmd_methods)

    _add_experiment(sub)
    return parser


def _add_experiment(sub) -> None:
    from .cli_experiment import add_experiment_parser, add_verify_parser

    add_experiment_parser(sub)
    add_verify_parser(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``mlfs`` command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # pragma: no cover - e.g. `mlfs rank ... | head`
        return 0
    except (MLFSError, OSError, ValueError) as exc:
        message = one_line(exc)
    except Exception as exc:  # a bug must still not print a traceback
        message = f"internal error ({type(exc).__name__}): {one_line(exc)}"
    print(f"mlfs {args.command}: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
