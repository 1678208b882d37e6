"""Command-line interface: ``mlfs stats|rank|scores|methods|experiment|verify|app``
and ``mlfs benchmark``.

Every error, a bad argument included, is one line on stderr
(``mlfs COMMAND: error: ...``) and exit status 2, never a traceback or a
usage block; ``--help`` prints the usage.

The package is thin: one module per command group (:mod:`.data`,
:mod:`.experiment`, :mod:`.app`, :mod:`.benchmark`), each a parser plus calls
into the engine; what the commands compute and write lives in the engine (for example
:mod:`mlfs_core.evaluation.outputs`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import MLFSError
from ._base import OneLineParser, add_plugin_options, jobs, load_cli_plugins, one_line
from .app import add_app_parser
from .benchmark import add_benchmark_parser
from .data import add_data_parsers
from .experiment import add_experiment_parser, add_verify_parser

__all__ = ["OneLineParser", "build_parser", "jobs", "main", "one_line"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``mlfs`` command."""
    parser = OneLineParser(
        prog="mlfs", description="Multi-label feature selection explorer"
    )
    parser.add_argument("--version", action="version", version=f"mlfs {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    add_data_parsers(sub)
    add_experiment_parser(sub)
    add_verify_parser(sub)
    add_app_parser(sub)
    add_benchmark_parser(sub)
    add_plugin_options(parser, sub)  # last: every sub-command gets --plugin
    return parser


def parse_args(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None
) -> argparse.Namespace:
    """Parse ``argv``; only a pass-through command (``app``) takes unknown flags."""
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "pass_through", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if extra:
        args.streamlit_flags = extra
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``mlfs`` command line; returns the exit status."""
    parser = build_parser()
    args = parse_args(parser, argv)
    try:
        load_cli_plugins(args)
        return args.func(args)
    except BrokenPipeError:  # pragma: no cover - e.g. `mlfs rank ... | head`
        return 0
    except (MLFSError, OSError, ValueError) as exc:
        message = one_line(exc)
    except Exception as exc:  # a bug must still not print a traceback
        message = f"internal error ({type(exc).__name__}): {one_line(exc)}"
    print(f"mlfs {args.command}: error: {message}", file=sys.stderr)
    return 2
