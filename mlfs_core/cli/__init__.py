"""Command-line interface: ``mlfs stats|rank|scores|methods|experiment|verify``,
``mlfs clean|app`` and ``mlfs benchmark``.

Every error, a bad argument included, is one line on stderr
(``mlfs COMMAND: error: ...``) and exit status 2, never a traceback or a
usage block; ``--help`` prints the usage. An exception in user code (a
plug-in's method, classifier or metric) names it, with its file and line:
``method 'MLFisher' (hplug.py:12) raised ZeroDivisionError: ...``.
``mlfs --debug ...`` (or ``MLFS_DEBUG=1``) prints the whole traceback too
(the original one, from a worker process if it came from there). Notes an
error carries (``__notes__``: what a failed run kept, and how to resume)
follow its line, one line each.

The package is thin: one module per command group (:mod:`.data`,
:mod:`.experiment`, :mod:`.clean`, :mod:`.app`, :mod:`.benchmark`), each a
parser plus calls into the engine; what the commands compute and write lives
in the engine (for example :mod:`mlfs_core.evaluation.outputs`).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

from .._version import __version__
from ..errors import MLFSError, UserCodeError
from ._base import (
    OneLineParser,
    add_plugin_options,
    add_to_every_command,
    jobs,
    load_cli_plugins,
    one_line,
)
from .app import add_app_parser
from .benchmark import add_benchmark_parser
from .check import add_check_parser
from .clean import add_clean_parser
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
    add_clean_parser(sub)
    add_app_parser(sub)
    add_benchmark_parser(sub)
    add_check_parser(sub)
    add_plugin_options(parser, sub)  # last: every sub-command gets --plugin
    _add_debug_options(parser, sub)
    return parser


_DEBUG_ENV = "MLFS_DEBUG"
"""Set to ``1`` to print the whole traceback of an error (as ``--debug``)."""

_DEBUG_HELP = f"on an error, print the whole traceback too (or set {_DEBUG_ENV}=1)"


def _add_debug_options(parser: argparse.ArgumentParser, subparsers) -> None:
    """Add ``--debug`` to ``parser`` and to every sub-command."""
    add_to_every_command(
        parser,
        subparsers,
        "--debug",
        dest=("debug", "debug_after"),
        default=False,
        action="store_true",
        help=_DEBUG_HELP,
    )


def _debugging(args: argparse.Namespace) -> bool:
    import os

    flag = getattr(args, "debug", False) or getattr(args, "debug_after", False)
    return bool(flag) or os.environ.get(_DEBUG_ENV, "") not in ("", "0")


def _print_traceback(exc: BaseException) -> None:
    """The original traceback of ``exc`` (a UserCodeError's, else its own)."""
    import traceback

    details = getattr(exc, "details", "")
    if details:
        print(details, end="" if details.endswith("\n") else "\n", file=sys.stderr)
    else:
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)


def parse_args(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None
) -> argparse.Namespace:
    """Parse ``argv``; only a pass-through command (``app``) takes unknown flags,
    and ``rank``, whose method's options are flags (checked by the method)."""
    args, extra = parser.parse_known_args(argv)
    if extra and hasattr(args, "method_flags"):
        return _with_method_flags(parser, args.command, argv)
    if extra and not getattr(args, "pass_through", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if extra:
        args.streamlit_flags = extra
    return args


def _with_method_flags(
    parser: argparse.ArgumentParser, command: str, argv: Sequence[str] | None
) -> argparse.Namespace:
    """Parse a command whose method's options are flags (``mlfs rank``): every
    ``--NAME[=VALUE]`` neither ``mlfs`` nor the command declares, with the
    token after it when it has no ``=``, wherever it stands, goes to
    ``args.method_flags`` (the method checks them); the rest is parsed as usual."""
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    actions = [*parser._actions, *sub.choices[command]._actions]
    known = {flag for action in actions for flag in action.option_strings}
    tokens = list(sys.argv[1:] if argv is None else argv)
    kept, flags = [], []
    while tokens:
        token = tokens.pop(0)
        if token.startswith("--") and token.split("=", 1)[0] not in known:
            flags.append(token)
            if "=" not in token and tokens and not tokens[0].startswith("--"):
                flags.append(tokens.pop(0))
        else:
            kept.append(token)
    args = parser.parse_args(kept)
    args.method_flags = flags
    return args


def _one_line_warning(command: str):
    """A ``warnings.showwarning`` printing ``mlfs COMMAND: warning: ...`` as one
    line on stderr (no file name, no source line)."""

    def show(message, category, filename, lineno, file=None, line=None):
        print(f"mlfs {command}: warning: {one_line(message)}", file=sys.stderr)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``mlfs`` command line; returns the exit status."""
    parser = build_parser()
    args = parse_args(parser, argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # resume commands
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _one_line_warning(args.command)
            load_cli_plugins(args)
            return args.func(args)
    except BrokenPipeError:  # pragma: no cover - e.g. `mlfs rank ... | head`
        return 0
    except (MLFSError, OSError, ValueError) as exc:
        message = one_line(exc)
        error, hint = exc, isinstance(exc, UserCodeError)
    except Exception as exc:  # a bug must still not print a traceback
        message = f"internal error ({type(exc).__name__}): {one_line(exc)}"
        error, hint = exc, True
    if _debugging(args):
        _print_traceback(error)
    elif hint:
        message += f" (--debug or {_DEBUG_ENV}=1 shows the traceback)"
    print(f"mlfs {args.command}: error: {message}", file=sys.stderr)
    for note in getattr(error, "__notes__", ()):  # e.g. what a failed run kept
        print(f"mlfs {args.command}: {one_line(note)}", file=sys.stderr)
    return 2
